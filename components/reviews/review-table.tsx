"use client";

/**
 * The reviews list's table (issue 29, item 5): title, state, verdict, open critical and high paths,
 * stale decisions, blocked pins, pending proposals, what is accepted, revision and time, sortable
 * by any column and filtered by "stale", "blocked", "pending my approval" and "accepts critical
 * risk". The flags come from GET /api/reviews/overview (lib/workbench/summary.ts), which may take
 * longer than the list itself: rows show at once, and their flags fill in.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { reviewsOverviewOptions } from "@/components/reviews/summary-queries";
import type { ReviewSummary } from "@/lib/reviews/api";
import type { ReviewFlags } from "@/lib/reviews/summary";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

const FILTERS = [
  { id: "stale", label: "Stale", test: (f: ReviewFlags) => f.stale > 0 },
  { id: "blocked", label: "Blocked", test: (f: ReviewFlags) => f.blocked > 0 },
  { id: "pending-mine", label: "Pending my approval", test: (f: ReviewFlags) => f.pendingMine > 0 },
  {
    id: "accepts-critical",
    label: "Accepts critical risk",
    test: (f: ReviewFlags) => f.acceptsCritical,
  },
] as const;
type FilterId = (typeof FILTERS)[number]["id"];

const STATE_ORDER = { blocked: 0, stale: 1, failing: 2, current: 3 } as const;
const VERDICT_WORD = {
  approved: "Approved",
  approved_with_conditions: "Approved with conditions",
  rejected: "Rejected",
} as const;

type Row = ReviewSummary & { flags: ReviewFlags | null };
type SortKey =
  "title" | "state" | "verdict" | "critical" | "stale" | "blocked" | "pending" | "updated";

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: "title", label: "Title" },
  { key: "state", label: "State" },
  { key: "verdict", label: "Verdict" },
  { key: "critical", label: "Open critical / high paths", numeric: true },
  { key: "stale", label: "Stale", numeric: true },
  { key: "blocked", label: "Blocked", numeric: true },
  { key: "pending", label: "Pending", numeric: true },
  { key: "updated", label: "Updated" },
];

function sortValue(row: Row, key: SortKey): string | number {
  const f = row.flags;
  switch (key) {
    case "title":
      return row.title.toLowerCase();
    case "state":
      return f ? STATE_ORDER[f.state] : 9;
    case "verdict":
      return f?.verdict ?? "~";
    case "critical":
      return f ? f.openPaths.critical * 100_000 + f.openPaths.high : -1;
    case "stale":
      return f?.stale ?? -1;
    case "blocked":
      return f?.blocked ?? -1;
    case "pending":
      return f?.pending ?? -1;
    case "updated":
      return row.updatedAt;
  }
}

export function ReviewTable({
  reviews,
  onDelete,
}: {
  reviews: ReviewSummary[];
  onDelete: (review: ReviewSummary) => void;
}) {
  const overview = useQuery(reviewsOverviewOptions());
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: "updated",
    descending: true,
  });
  const [filters, setFilters] = useState<ReadonlySet<FilterId>>(new Set());

  const rows = useMemo(() => {
    const flags = new Map((overview.data?.reviews ?? []).map((r) => [r.id, r.flags]));
    const all: Row[] = reviews.map((r) => ({ ...r, flags: flags.get(r.id) ?? null }));
    const active = FILTERS.filter((f) => filters.has(f.id));
    const shown = all.filter((r) => active.every((f) => r.flags !== null && f.test(r.flags)));
    const sign = sort.descending ? -1 : 1;
    return shown.sort((a, b) => {
      const [x, y] = [sortValue(a, sort.key), sortValue(b, sort.key)];
      return x < y ? -sign : x > y ? sign : 0;
    });
  }, [reviews, overview.data, filters, sort]);

  const toggle = (id: FilterId) =>
    setFilters((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="stack">
      <fieldset className="row" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="small muted" style={{ marginBottom: "0.25rem" }}>
          Show only reviews that are
        </legend>
        {FILTERS.map((f) => (
          <label key={f.id} className="row small" style={{ gap: "0.25rem" }}>
            <input type="checkbox" checked={filters.has(f.id)} onChange={() => toggle(f.id)} />
            {f.label}
          </label>
        ))}
      </fieldset>
      {overview.isError && (
        <p className="callout warn small" role="status">
          Could not load each review&apos;s state: {overview.error.message}
        </p>
      )}
      <table className="data" aria-label="Reviews">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={
                  sort.key === c.key ? (sort.descending ? "descending" : "ascending") : undefined
                }
              >
                <button
                  type="button"
                  className="btn btn-ghost"
                  style={{ padding: 0, font: "inherit", fontWeight: 600 }}
                  onClick={() =>
                    setSort((s) => ({
                      key: c.key,
                      descending: s.key === c.key ? !s.descending : c.numeric === true,
                    }))
                  }
                >
                  {c.label}
                </button>
              </th>
            ))}
            <th scope="col">Revision</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const f = r.flags;
            const pending = overview.isPending ? "…" : "–";
            return (
              <tr key={r.id} data-testid={`review-row-${r.id}`}>
                <td>
                  <Link href={`/reviews/${r.id}`}>{r.title}</Link>
                  {f?.acceptsCritical && (
                    <div>
                      <span className="badge badge-danger">accepts critical risk</span>
                    </div>
                  )}
                </td>
                <td data-testid="review-state">
                  {f ? (
                    <span
                      className={
                        f.state === "current"
                          ? "badge badge-ok"
                          : f.state === "blocked"
                            ? "badge badge-danger"
                            : "badge badge-warn"
                      }
                    >
                      {f.state}
                    </span>
                  ) : (
                    pending
                  )}
                </td>
                <td>{f ? (f.verdict ? VERDICT_WORD[f.verdict] : "none") : pending}</td>
                <td className="num" data-testid="review-open-paths">
                  {f ? `${f.openPaths.critical} / ${f.openPaths.high}` : pending}
                </td>
                <td className="num">{f ? f.stale : pending}</td>
                <td className="num">{f ? f.blocked : pending}</td>
                <td className="num">
                  {f
                    ? f.pendingMine > 0
                      ? `${f.pending} (${f.pendingMine} for you)`
                      : f.pending
                    : pending}
                </td>
                <td className="muted">{dateFormat.format(new Date(r.updatedAt))}</td>
                <td className="num">{r.revision}</td>
                <td style={{ textAlign: "right" }}>
                  <button
                    type="button"
                    className="btn btn-danger"
                    aria-label={`Delete ${r.title}`}
                    onClick={() => onDelete(r)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <p className="muted">No review matches these filters.</p>}
    </div>
  );
}
