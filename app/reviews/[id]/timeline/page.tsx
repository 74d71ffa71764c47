import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EventList } from "@/components/events/event-list";
import { ReviewTabs } from "@/components/review/review-tabs";
import { MarkRead } from "@/components/events/mark-read";
import { WatchInterval } from "@/components/events/watch-interval";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { ReviewIdSchema } from "@/lib/ids";
import { getDb } from "@/lib/store/db";
import { listEvents } from "@/lib/store/events";
import { idNamesOf } from "@/lib/events/names";
import { getReview } from "@/lib/store/reviews";
import { reviewSchedule } from "@/lib/store/watches";
import { HydrationGate } from "@/components/ui/hydration-gate";
import { utcSecond } from "@/lib/format/utc-time";

export const metadata: Metadata = { title: "Timeline — Relay Review" };

/** One review's timeline: its watched servers with their schedule, and every event logged for it. */
export default async function TimelinePage(props: { params: Promise<{ id: string }> }) {
  const { id } = await props.params;
  const reviewId = ReviewIdSchema.safeParse(id);
  if (!reviewId.success) notFound();
  const db = await getDb();
  const record = await getReview(db, reviewId.data);
  if (!record) notFound();
  const [schedule, log] = await Promise.all([
    reviewSchedule(db, record),
    listEvents(db, OWNER_AUTHOR, { reviewId: record.id, limit: 500 }),
  ]);
  const nameOf = (serverId: string) =>
    record.review.servers.find((s) => s.id === serverId)?.name ?? serverId;
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <p className="small muted" style={{ margin: 0 }}>
            <Link href="/">Reviews</Link> /{" "}
            <Link href={`/reviews/${record.id}`}>{record.review.title}</Link>
          </p>
          <h1>Timeline</h1>
          <p className="muted">
            Every pinned server is re-inspected on its interval, through the same sandboxed, bounded
            inspection as the Inspect button, and compared with its pin. {log.unread} unread.
          </p>
        </div>
        <MarkRead seqs="all" label="Mark all read" />
      </div>
      <ReviewTabs id={record.id} current="timeline" />
      <section className="card stack" aria-label="Scheduled re-inspection">
        <h2 style={{ margin: 0 }}>Scheduled re-inspection</h2>
        {schedule.length === 0 ? (
          <p className="muted small">
            No server of this review is pinned yet; pin one on the Servers tab to watch it.
          </p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th>Server</th>
                <th>Next inspection</th>
                <th>Interval and state</th>
              </tr>
            </thead>
            <tbody>
              {schedule.map(({ serverId, watch: w }) => (
                <tr key={serverId}>
                  <td>{nameOf(serverId)}</td>
                  {w ? (
                    <>
                      <td className="small">{w.isEnabled ? utcSecond(w.nextDueAt) : "paused"}</td>
                      <td>
                        <HydrationGate>
                          <WatchInterval
                            reviewId={record.id}
                            serverId={w.serverId}
                            intervalSeconds={w.intervalSeconds}
                            isEnabled={w.isEnabled}
                          />
                        </HydrationGate>
                      </td>
                    </>
                  ) : (
                    <td className="small" colSpan={2}>
                      Pinned by a save or an import: the scheduler puts it on the schedule at its
                      next tick, within seconds; reload to set its interval.
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <EventList events={log.events} names={idNamesOf([record])} showReview={false} />
    </main>
  );
}
