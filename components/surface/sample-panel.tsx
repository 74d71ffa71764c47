"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { reviewKeys } from "@/components/query-keys";
import { RevealedText } from "@/components/surface/revealed-text";
import type { Review } from "@/lib/review/schema";
import { samplableTool, SampleResultSchema, type SampleResult } from "@/lib/workbench/sample-api";

type Run =
  | { phase: "idle" }
  | { phase: "running" }
  | { phase: "done"; result: SampleResult }
  | { phase: "failed"; message: string };

/**
 * Sample a source (issue 31 item 3): run one of this server's read-only tools with arguments the
 * reviewer writes, sandboxed as an inspection is, and show the detector's verdict on what came
 * back. Only tools the review assesses as returning untrusted text and nothing that acts are
 * offered (the route checks again, and refuses the rest by name).
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
  const tools = review.tools
    .filter((t) => t.serverId === serverId && samplableTool(review, serverId, t.tool).ok)
    .map((t) => t.tool);
  const [tool, setTool] = useState(tools[0] ?? "");
  const [args, setArgs] = useState("{}");
  const [run, setRun] = useState<Run>({ phase: "idle" });

  const sample = async () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
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
        { method: "POST", body: JSON.stringify({ tool, arguments: parsed }) },
      );
      setRun({ phase: "done", result });
    } catch (error) {
      setRun({ phase: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      // The Summary's detection counts now include this sample (lib/workbench/sample-run.ts).
      await queryClient.invalidateQueries({ queryKey: [...reviewKeys.all, "summary", reviewId] });
    }
  };

  return (
    <section className="stack" aria-label="Sample a source" data-testid={`sample-${serverId}`}>
      <h4 style={{ margin: 0 }}>Sample a source</h4>
      <p className="small muted" style={{ margin: 0 }}>
        Runs one read-only tool now, in the sandbox an inspection uses, and scans what it returns
        for text aimed at a model. The result counts into this server&apos;s detection counts on the
        Summary. Detection is not a control: it changes no path and no decision.
      </p>
      {tools.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }}>
          No tool of this server can be sampled: a tool needs confirmed roles that say it returns
          untrusted text and nothing that writes, deploys, destroys or sends.
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
            <span className="small">Tool</span>
            <select value={tool} onChange={(e) => setTool(e.target.value)}>
              {tools.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label className="stack" style={{ gap: "0.25rem" }}>
            <span className="small">Arguments (JSON object)</span>
            <textarea
              value={args}
              onChange={(e) => setArgs(e.target.value)}
              rows={3}
              spellCheck={false}
              className="mono"
            />
          </label>
          <div className="row">
            <button type="submit" className="btn" disabled={run.phase === "running" || !tool}>
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
      {run.phase === "done" && <SampleVerdict result={run.result} />}
    </section>
  );
}

function SampleVerdict({ result }: { result: SampleResult }) {
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
          {result.tool} returned {result.chars.toLocaleString("en-US")} characters
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
