/**
 * The event and audit log as a list (the Changes page and a review's timeline). Presentational:
 * takes events, renders everything as text (server-authored tool names and descriptions reach
 * here inside summaries and diffs). A surface change shows its per-item diff; a stale decision
 * says why; a failed inspection names its limit or error.
 */
import Link from "next/link";
import { describeActor } from "@/lib/events/actor";
import { EVENT_KINDS, type EventView } from "@/lib/events/kinds";
import { withNames, type IdNames } from "@/lib/events/names";
import { MarkRead } from "@/components/events/mark-read";
import { utcSecond } from "@/lib/format/utc-time";

const BADGE: Record<string, string> = {
  "surface.changed": "badge-warn",
  "server.blocked": "badge-danger",
  "decision.stale": "badge-warn",
  "inspection.failed": "badge-danger",
  "watch.dead": "badge-danger",
};

type FieldChange = { field: string; before: string; after: string };
type DiffDetail = {
  items?: { list: string; key: string; change: string; fields: string[] }[];
  itemCount?: number;
  fields?: { list: string; key: string; changes: FieldChange[] }[];
  instructions?: { before: string; after: string } | null;
};

function Diff({ diff }: { diff: DiffDetail }) {
  return (
    <details>
      <summary className="small">
        Per-item diff ({diff.itemCount ?? diff.items?.length ?? 0} item
        {(diff.itemCount ?? 0) === 1 ? "" : "s"})
      </summary>
      <ul className="small">
        {(diff.items ?? []).map((i) => (
          <li key={`${i.list}:${i.key}:${i.change}`}>
            <span className="mono">
              {i.list} {JSON.stringify(i.key)}
            </span>{" "}
            {i.change}
            {i.fields.length > 0 ? ` (${i.fields.join(", ")})` : ""}
          </li>
        ))}
      </ul>
      {(diff.fields ?? []).map((f) =>
        f.changes.map((c) => (
          <div key={`${f.list}:${f.key}:${c.field}`} className="small">
            <div className="mono">
              {f.list} {JSON.stringify(f.key)} · {c.field}
            </div>
            <pre className="mono" style={{ whiteSpace: "pre-wrap", margin: "4px 0" }}>
              {`- ${c.before}\n+ ${c.after}`}
            </pre>
          </div>
        )),
      )}
      {diff.instructions && (
        <pre className="mono small" style={{ whiteSpace: "pre-wrap" }}>
          {`instructions\n- ${diff.instructions.before}\n+ ${diff.instructions.after}`}
        </pre>
      )}
    </details>
  );
}

/** `names` turns the ids events are logged with into the names of reviews, servers and agents. */
export function EventList({
  events,
  showReview,
  names = new Map(),
}: {
  events: EventView[];
  showReview: boolean;
  names?: IdNames;
}) {
  if (events.length === 0) return <p className="muted">Nothing logged matches.</p>;
  return (
    <ol className="stack" style={{ listStyle: "none", padding: 0 }} aria-label="Events">
      {events.map((e) => {
        const diff =
          e.kind === "surface.changed" ? (e.detail.diff as DiffDetail | undefined) : undefined;
        return (
          <li
            key={e.seq}
            className="card stack"
            data-testid="event"
            data-kind={e.kind}
            data-read={e.isRead ? "yes" : "no"}
            style={{ gap: 6, opacity: e.isRead ? 0.75 : 1 }}
          >
            <div className="row" style={{ alignItems: "baseline", gap: 8 }}>
              {!e.isRead && <span className="badge badge-accent">unread</span>}
              <span className={`badge ${BADGE[e.kind] ?? "badge-neutral"}`}>
                {EVENT_KINDS[e.kind].label}
              </span>
              <time className="small muted" dateTime={e.createdAt}>
                {utcSecond(e.createdAt)}
              </time>
              <span className="small muted">by {describeActor(e.actorKind, e.actor)}</span>
              {showReview && e.reviewId && (
                <Link className="small" href={`/reviews/${e.reviewId}/timeline`}>
                  {names.get(e.reviewId) ?? e.reviewId}
                  {e.serverId ? ` / ${names.get(e.serverId) ?? e.serverId}` : ""}
                </Link>
              )}
              <span style={{ flex: 1 }} />
              {!e.isRead && <MarkRead seqs={[e.seq]} label="Mark read" />}
            </div>
            <p style={{ margin: 0 }}>{withNames(e.summary, names)}</p>
            {diff && <Diff diff={diff} />}
          </li>
        );
      })}
    </ol>
  );
}
