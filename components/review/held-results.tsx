"use client";

/**
 * Results a gate holds on a detector flag (issue 31 item 2), on the Summary below the detection
 * counts: each with where it came from, its reasons and excerpt (server text, hidden characters
 * shown), and a Release action for reviewers that first says exactly what will be let through. The
 * route refuses anyone below reviewer; the error is shown here. Detection is not a control: a
 * release changes no path, control or decision.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { reviewKeys } from "@/components/query-keys";
import { RevealedText } from "@/components/surface/revealed-text";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { revealHidden } from "@/lib/surface/reveal";
import {
  ContentFlagsResponseSchema,
  ReleaseResponseSchema,
  type ContentFlag,
} from "@/lib/workbench/content-flags-api";

const heldKey = (id: string) => [...reviewKeys.all, "held-results", id] as const;

export function HeldResults({ reviewId }: { reviewId: string }) {
  const held = useQuery({
    queryKey: heldKey(reviewId),
    queryFn: () =>
      apiFetch(
        `/api/reviews/${encodeURIComponent(reviewId)}/content-flags?held=1`,
        ContentFlagsResponseSchema,
      ),
  });
  // Nothing held, or not readable: the section is not shown (the counts above still are).
  if (!held.data || held.data.flags.length === 0) return null;
  return (
    <section
      className="card stack"
      aria-labelledby="summary-held-heading"
      data-testid="summary-held-results"
    >
      <h2 id="summary-held-heading" style={{ margin: 0 }}>
        Held results
      </h2>
      <p className="small muted" style={{ margin: 0 }}>
        A gate in hold mode gave the agent a notice instead of these results. Released, the gate
        passes the result exactly as it held it to the agent&apos;s next identical request.
      </p>
      <table className="data" aria-label="Held results">
        <thead>
          <tr>
            <th scope="col">Held result</th>
            <th scope="col">Why</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {held.data.flags.map((f) => (
            <HeldRow key={f.id} reviewId={reviewId} flag={f} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** What a release lets through, in words: the confirm step names it. */
function describeHeld(f: ContentFlag): string {
  return `${f.method} ${f.tool} from ${f.server}${f.agent ? ` to ${f.agent}` : ""}`;
}

function HeldRow({ reviewId, flag: f }: { reviewId: string; flag: ContentFlag }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const release = useMutation({
    mutationFn: () =>
      apiFetch(
        `/api/reviews/${encodeURIComponent(reviewId)}/content-flags/${encodeURIComponent(f.id)}/release`,
        ReleaseResponseSchema,
        { method: "POST" },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: heldKey(reviewId) }),
  });
  return (
    <tr data-testid="held-result">
      <td>
        <RevealedText text={describeHeld(f)} />
        <div className="small muted">
          score {f.score.toFixed(2)}
          {f.sources.length ? "; sources " : ""}
          <RevealedText text={f.sources.join(", ")} />
        </div>
      </td>
      <td className="small">
        <RevealedText text={f.reasons.slice(0, 3).join("; ")} />
        {f.excerpt && (
          <div>
            Excerpt: <RevealedText text={f.excerpt} />
          </div>
        )}
      </td>
      <td>
        <button
          type="button"
          className="btn"
          disabled={release.isPending || release.isSuccess}
          onClick={() => setConfirming(true)}
        >
          {release.isPending ? "Releasing…" : "Release…"}
        </button>
        <ConfirmDialog
          open={confirming}
          title="Release this held result?"
          // A dialog's body is plain text: the server's names go in with hidden characters shown.
          body={`Release ${revealHidden(describeHeld(f))} (score ${f.score.toFixed(2)}, flagged for ${revealHidden(f.reasons.slice(0, 2).join("; ")) || "its score"})? The gate passes the text the detector flagged, exactly as it held it, to the agent's next identical request. Logged as content.released; no path or decision changes.`}
          confirmLabel="Release it"
          danger
          onConfirm={() => {
            setConfirming(false);
            release.mutate();
          }}
          onCancel={() => setConfirming(false)}
        />
        {release.isError && (
          <div className="callout danger small" role="alert">
            <RevealedText text={release.error.message} />
          </div>
        )}
      </td>
    </tr>
  );
}
