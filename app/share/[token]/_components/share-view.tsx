/**
 * The shared review, read-only: summary, writer bounds per source, the graph with its paths,
 * controls with what each stops and leaves, the residue, and the decisions with their status.
 * A server component over what the share route returns; the interactive graph and tables are
 * client leaves that only keep view state. No edit controls, no inspection, no owner routes.
 */
import type { ShareView as ShareViewData } from "@/lib/workbench/share";
import { DecisionDetails } from "@/components/review/decision-view";
import { DetectionCounts } from "@/components/review/detection-counts";
import { ShareAnalysis } from "./share-analysis";

const fmt = (n: number) => n.toLocaleString("en-US");

function WriterBounds({ view }: { view: ShareViewData }) {
  const sources = view.analysis.sources;
  return (
    <section className="card stack" aria-labelledby="bounds-heading">
      <h2 id="bounds-heading" style={{ margin: 0 }}>
        Writer bounds per source
      </h2>
      <p className="small muted" style={{ margin: 0 }}>
        Who is allowed to write into each source, not how many did. The smallest number of accounts
        an attack needs is one.
      </p>
      {sources.length === 0 ? (
        <p className="muted">No sources recorded.</p>
      ) : (
        <div style={{ overflowX: "auto" }}>
          <table className="data" data-testid="share-writer-bounds">
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Writer bound</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {sources.map((s) => (
                <tr key={s.id} data-source-id={s.id}>
                  <td>
                    <strong>{s.name}</strong>
                    <div className="small muted">{s.kind.replaceAll("_", " ")}</div>
                  </td>
                  <td>
                    <div className={s.bound.kind === "counted" ? "bound" : "bound open"}>
                      {s.bound.label}
                    </div>
                    {s.bound.kind !== "counted" && (
                      <div className="small muted">
                        {fmt(s.bound.floor)} registered accounts: a floor, not a measurement
                      </div>
                    )}
                    <div className="row" style={{ marginTop: 4 }}>
                      {s.reachesOutsideBoundary ? (
                        <span className="badge badge-danger">outside the trust boundary</span>
                      ) : (
                        <span className="badge badge-neutral">internal writers only</span>
                      )}
                    </div>
                  </td>
                  <td className="small">
                    {s.reasons.join(" ")}
                    {s.usage && (
                      <div className="muted">
                        Usage fact, not part of the bound: {s.usage.label}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ShareView({ view }: { view: ShareViewData }) {
  const { review } = view;
  const servers = Object.fromEntries(review.servers.map((s) => [s.id, s.name]));
  const agents = Object.fromEntries(review.agents.map((a) => [a.id, a.name]));
  return (
    <div className="stack" data-testid="share-view" data-revision={view.revision}>
      <div className="page-head">
        <div>
          <p className="small muted" style={{ margin: 0 }}>
            <span className="badge badge-accent">read-only</span> Shared review ·{" "}
            <span data-testid="share-revision">
              {view.frozen
                ? `frozen at revision ${view.revision}`
                : `latest revision (${view.revision})`}
            </span>
            {view.expiresAt && ` · link expires ${new Date(view.expiresAt).toUTCString()}`}
          </p>
          <h1>{review.title}</h1>
          {review.summary && (
            <p className="muted" style={{ maxWidth: "70ch" }}>
              {review.summary}
            </p>
          )}
        </div>
      </div>

      <section className="card stack" aria-labelledby="share-decisions-heading">
        <h2 id="share-decisions-heading" style={{ margin: 0 }}>
          Decisions
        </h2>
        <p className="small muted" style={{ margin: 0 }}>
          Each decision&apos;s status is as of now: it is stale when the live surface, image digest,
          tool set or controls it was bound to have changed since
          {view.frozen ? ", including after the revision this link shows" : ""}, when an acceptance
          it rests on has ended, or when a critical or high finding it does not accept appears. An
          approval that accepts risk says what and until when.
        </p>
        {view.decisions.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            No decision recorded {view.frozen ? "at this revision" : "yet"}.
          </p>
        ) : (
          [...view.decisions].reverse().map((d) => (
            <article
              key={d.decision.id}
              className="card"
              data-testid={`share-decision-${d.decision.id}`}
            >
              <DecisionDetails view={d} review={review} />
            </article>
          ))
        )}
      </section>

      <DetectionCounts detection={view.detection} />
      <WriterBounds view={view} />
      <ShareAnalysis analysis={view.analysis} servers={servers} agents={agents} />
    </div>
  );
}
