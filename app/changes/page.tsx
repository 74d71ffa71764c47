import type { Metadata } from "next";
import Link from "next/link";
import { AuditChainStatus } from "@/components/events/audit-chain-status";
import { EventList } from "@/components/events/event-list";
import { MarkRead } from "@/components/events/mark-read";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { EVENT_KINDS, EVENT_KIND_NAMES, EventFilterSchema } from "@/lib/events/kinds";
import { getDb } from "@/lib/store/db";
import { listEvents } from "@/lib/store/events";
import { getReview } from "@/lib/store/reviews";
import { idNamesOf } from "@/lib/events/names";

export const metadata: Metadata = { title: "Changes — Relay Review" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v ? v : undefined);

/**
 * Changes across every review: what the scheduled re-inspection found and what the owner did,
 * unread first, newest first, filterable by review, kind, group and unread. The filter is a plain
 * GET form, so a filtered view is a link someone can share.
 */
export default async function ChangesPage(props: { searchParams: Promise<Search> }) {
  const q = await props.searchParams;
  const parsed = EventFilterSchema.safeParse({
    reviewId: one(q.reviewId),
    kind: one(q.kind),
    group: one(q.group),
    isUnreadOnly: one(q.unread) === "1" ? true : undefined,
  });
  const filter = parsed.success ? parsed.data : {};
  const db = await getDb();
  const { events, unread } = await listEvents(db, OWNER_AUTHOR, filter);
  // Names, not ids: the reviews these events belong to, each loaded once.
  const reviewIds = [...new Set(events.flatMap((e) => (e.reviewId ? [e.reviewId] : [])))];
  const reviews = (await Promise.all(reviewIds.map((id) => getReview(db, id)))).flatMap((r) =>
    r ? [r] : [],
  );
  const names = idNamesOf(reviews);
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>Changes</h1>
          <p className="muted">
            Surface changes, blocks, stale decisions and failed inspections found by the scheduled
            re-inspection of every pinned server, and the owner actions an audit needs. The log is
            append-only. {unread} unread.
          </p>
        </div>
        <div className="row">
          <MarkRead seqs="all" label="Mark all read" />
          <Link href="/webhooks">Webhooks</Link>
        </div>
      </div>
      <form className="card row" method="get" aria-label="Filter">
        <label className="stack" style={{ gap: 4 }}>
          <span className="small">Group</span>
          <select name="group" defaultValue={filter.group ?? ""}>
            <option value="">all but scheduled runs and owner-token uses</option>
            <option value="drift">drift</option>
            <option value="audit">owner actions</option>
            <option value="schedule">scheduled runs</option>
            <option value="access">owner-token uses (break-glass)</option>
            <option value="detection">content the gate&apos;s detector flagged</option>
          </select>
        </label>
        <label className="stack" style={{ gap: 4 }}>
          <span className="small">Kind</span>
          <select name="kind" defaultValue={filter.kind ?? ""}>
            <option value="">any</option>
            {EVENT_KIND_NAMES.map((k) => (
              <option key={k} value={k}>
                {EVENT_KINDS[k].label}
              </option>
            ))}
          </select>
        </label>
        <label className="stack" style={{ gap: 4 }}>
          <span className="small">Review id</span>
          <input name="reviewId" className="mono" defaultValue={filter.reviewId ?? ""} />
        </label>
        <label className="row" style={{ gap: 4 }}>
          <input type="checkbox" name="unread" value="1" defaultChecked={filter.isUnreadOnly} />
          <span className="small">Unread only</span>
        </label>
        <button type="submit" className="btn">
          Filter
        </button>
      </form>
      <AuditChainStatus />
      <EventList events={events} names={names} showReview />
    </main>
  );
}
