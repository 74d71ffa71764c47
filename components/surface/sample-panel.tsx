"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { reviewKeys } from "@/components/query-keys";
import { RevealedText } from "@/components/surface/revealed-text";
import type { AssessedItemKind, Review } from "@/lib/review/schema";
import { sampledTextAdvice, type SampledText } from "@/lib/roles/sampled-text";
import {
  itemLabel,
  samplableTool,
  SampleResultSchema,
  type SampleResult,
} from "@/lib/workbench/sample-api";

type SampleItem = { item: AssessedItemKind; name: string };
/**
 * One option per assessed item: a tool and a resource may share a name. JSON, not a NUL between
 * the two: the option is rendered on the server, and an HTML parser reads a NUL in an attribute
 * as U+FFFD, so the option chosen in the browser named no item.
 */
const keyOf = (t: SampleItem) => JSON.stringify([t.item, t.name]);

type Run =
  | { phase: "idle" }
  | { phase: "running" }
  | { phase: "done"; result: SampleResult }
  | { phase: "failed"; message: string };

/**
 * Sample a source (issue 31 item 3): run one of this server's read-only tools with arguments the
 * reviewer writes, or read one of its resources (a template with variables the reviewer writes),
 * sandboxed as an inspection is, and show the detector's verdict on what came back. Only items the
 * review assesses as returning untrusted text and nothing that acts are offered (the route checks
 * again, and refuses the rest by name).
 */
export function SamplePanel({
  reviewId,
  serverId,
  review,
}: {
  reviewId: string;
  serverId: string;
  review: Review;
}) {
  const queryClient = useQueryClient();
  const items: SampleItem[] = review.tools
    .filter((t) => t.serverId === serverId)
    .map((t) => ({ item: t.item ?? "tool", name: t.tool }))
    .filter((t) => samplableTool(review, serverId, t.name, t.item).ok);
  const [choice, setChoice] = useState(items[0] ? keyOf(items[0]) : "");
  const chosen = items.find((t) => keyOf(t) === choice);
  const [args, setArgs] = useState("{}");
  const [run, setRun] = useState<Run>({ phase: "idle" });

  const sample = async () => {
    if (!chosen) return;
    let parsed: unknown = {};
    try {
      // A fixed resource is read by its URI alone: the arguments box is not shown for it.
      if (chosen.item !== "resource") parsed = JSON.parse(args);
    } catch (error) {
      setRun({
        phase: "failed",
        message: `The arguments are not JSON: ${(error as Error).message}`,
      });
      return;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      setRun({ phase: "failed", message: "The arguments must be a JSON object." });
      return;
    }
    setRun({ phase: "running" });
    try {
      const result = await apiFetch(
        `/api/reviews/${encodeURIComponent(reviewId)}/servers/${encodeURIComponent(serverId)}/sample`,
        SampleResultSchema,
        {
          method: "POST",
          body: JSON.stringify({ item: chosen.item, tool: chosen.name, arguments: parsed }),
        },
      );
      setRun({ phase: "done", result });
    } catch (error) {
      setRun({ phase: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      // The Summary's detection counts now include this sample, and the review keeps what it
      // showed with the item's assessment, a new revision the roles table reads
      // (lib/workbench/sample-run.ts).
      await Promise.all(
        [
          [...reviewKeys.all, "summary", reviewId],
          reviewKeys.detail(reviewId),
          reviewKeys.head(reviewId),
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    }
  };

  return (
    <section className="stack" aria-label="Sample a source" data-testid={`sample-${serverId}`}>
      <h4 style={{ margin: 0 }}>Sample a source</h4>
      <p className="small muted" style={{ margin: 0 }}>
        Runs one read-only tool or reads one resource now, in the sandbox an inspection uses, scans
        what it returns for text aimed at a model, and says whether prose came back (the evidence
        for returns_untrusted_text that the tool&apos;s description cannot give). The result counts
        into this server&apos;s detection counts on the Summary, and whether prose came back is kept
        with the item in the tool roles table (never the arguments or the text). Detection is not a
        control: it changes no path and no decision.
      </p>
      {items.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }}>
          Nothing of this server can be sampled: a tool or resource needs confirmed roles with
          nothing that writes, deploys, destroys or sends.
        </p>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void sample(); // every outcome lands in `run`
          }}
        >
          <label className="stack" style={{ gap: "0.25rem" }}>
            <span className="small">Tool or resource</span>
            <select value={choice} onChange={(e) => setChoice(e.target.value)}>
              {items.map((t) => (
                <option key={keyOf(t)} value={keyOf(t)}>
                  {t.item === "tool" ? t.name : itemLabel(t.item, t.name)}
                </option>
              ))}
            </select>
          </label>
          {chosen?.item !== "resource" && (
            <label className="stack" style={{ gap: "0.25rem" }}>
              <span className="small">
                {chosen?.item === "resource_template"
                  ? "Variables (JSON object of strings)"
                  : "Arguments (JSON object)"}
              </span>
              <textarea
                value={args}
                onChange={(e) => setArgs(e.target.value)}
                rows={3}
                spellCheck={false}
                className="mono"
              />
            </label>
          )}
          <div className="row">
            <button type="submit" className="btn" disabled={run.phase === "running" || !chosen}>
              {run.phase === "running" ? "Running…" : "Run and scan"}
            </button>
          </div>
        </form>
      )}
      {run.phase === "failed" && (
        <div className="callout danger" role="alert" data-testid="sample-error">
          <RevealedText text={run.message} />
        </div>
      )}
      {run.phase === "done" && (
        <SampleVerdict
          result={run.result}
          assessedAsText={
            review.tools
              .find(
                (t) =>
                  t.serverId === serverId &&
                  t.tool === run.result.tool &&
                  (t.item ?? "tool") === run.result.item,
              )
              ?.roles.includes("returns_untrusted_text") ?? false
          }
        />
      )}
    </section>
  );
}

/** Whether prose came back and where, beside what the review's assessment says of the item. */
function ReturnedTextEvidence({
  evidence,
  assessedAsText,
}: {
  evidence: SampledText;
  assessedAsText: boolean;
}) {
  return (
    <div className="small stack" style={{ gap: "0.25rem" }} data-testid="sample-returned-text">
      <div>
        <strong>Returned text: </strong>
        {evidence.kind === "prose" &&
          `prose in ${evidence.fields.length} field${evidence.fields.length === 1 ? "" : "s"} of ${evidence.values.toLocaleString("en-US")} text values.`}
        {evidence.kind === "names_only" &&
          `no prose: ${evidence.values.toLocaleString("en-US")} text values, each an id, a name, a date, a figure or an address (the longest ${evidence.longestWords} word${evidence.longestWords === 1 ? "" : "s"}).`}
        {evidence.kind === "no_text" && "no text values came back."}
      </div>
      {evidence.kind === "prose" && (
        <ul style={{ margin: 0 }}>
          {evidence.fields.map((f, i) => (
            <li key={i}>
              <code>
                <RevealedText text={f.path} />
              </code>
              : {f.values.toLocaleString("en-US")} value{f.values === 1 ? "" : "s"}, the longest{" "}
              {f.longestWords} words
            </li>
          ))}
        </ul>
      )}
      <div>{sampledTextAdvice(evidence, assessedAsText)}</div>
    </div>
  );
}

function SampleVerdict({
  result,
  assessedAsText,
}: {
  result: SampleResult;
  assessedAsText: boolean;
}) {
  return (
    <div
      className={`callout ${result.flagged ? "warn" : "ok"} stack`}
      role="status"
      data-testid="sample-verdict"
    >
      <div>
        <strong>
          {result.flagged ? "Flagged" : "Not flagged"} (score {result.score.toFixed(2)})
        </strong>{" "}
        <span className="small muted">
          <RevealedText text={result.uri ?? result.tool} /> returned{" "}
          {result.chars.toLocaleString("en-US")} characters
          {result.isError ? " as an error" : ""}
          {result.truncated ? "; the detector read part of them (its budget)" : ""}
          {result.sources.length ? `; mapped to ${result.sources.join(", ")}` : ""}
        </span>
      </div>
      {result.reasons.length > 0 && (
        <ul className="small" style={{ margin: 0 }}>
          {result.reasons.map((r, i) => (
            <li key={i}>
              <code>{r.signal}</code> <RevealedText text={r.detail} />
            </li>
          ))}
        </ul>
      )}
      {result.flagged && (
        <div className="small">
          Excerpt: <RevealedText text={result.excerpt} />
        </div>
      )}
      <ReturnedTextEvidence evidence={result.returnedText} assessedAsText={assessedAsText} />
      <details>
        <summary className="small">What came back (hidden characters shown)</summary>
        <pre
          className="small"
          style={{ whiteSpace: "pre-wrap", maxHeight: "16rem", overflow: "auto" }}
        >
          <RevealedText text={result.preview} />
        </pre>
      </details>
    </div>
  );
}
