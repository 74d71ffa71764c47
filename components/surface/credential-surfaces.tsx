"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DiffView } from "@/components/surface/diff-view";
import { credentialSurfacesOptions } from "@/components/surface/queries";
import type { CredentialSurfaceSummary } from "@/lib/workbench/credential-surfaces";

const eraText = (era: "2025" | "2026") => (era === "2026" ? "2026-07-28" : "2025");
const surfaceText = (s: CredentialSurfaceSummary) => `${s.label} (${eraText(s.era)})`;

/**
 * The server's surface under each credential it was inspected with (issue 30, item 3): each
 * against its own pin, the shared-cache findings, and the difference between two of them.
 * Shown once a server has been inspected under more than one era or credential.
 */
export function CredentialSurfaces(props: {
  reviewId: string;
  serverId: string;
  revision: number;
}) {
  const [pair, setPair] = useState<{ a: string; b: string } | null>(null);
  const query = useQuery(
    credentialSurfacesOptions(props.reviewId, props.serverId, props.revision, pair),
  );
  const view = query.data;
  if (query.isError)
    return (
      <div className="callout danger" role="alert">
        Could not load the surfaces per credential: {query.error.message}
      </div>
    );
  if (!view || view.surfaces.length < 2) return null;
  const chosen = view.diff ?? null;
  const byKey = new Map(view.surfaces.map((s) => [s.key, s]));
  const choose = (side: "a" | "b", key: string) =>
    setPair({
      a: side === "a" ? key : (chosen?.a ?? view.surfaces[1]!.key),
      b: side === "b" ? key : (chosen?.b ?? view.surfaces[0]!.key),
    });
  return (
    <section
      className="stack"
      aria-label="Surfaces per credential"
      data-testid="credential-surfaces"
    >
      <h4 style={{ margin: 0 }}>Surfaces per credential</h4>
      <p className="small muted" style={{ margin: 0 }}>
        A server may list different tools to different credentials; each surface is compared only
        with the pin of its own era and credential.
      </p>
      {view.findings.map((f) => (
        <div key={`${f.list}:${f.credentials.join("|")}`} className="callout warn" role="alert">
          {f.message}
        </div>
      ))}
      <table className="table small">
        <thead>
          <tr>
            <th scope="col">Credential</th>
            <th scope="col">Era</th>
            <th scope="col">Tools</th>
            <th scope="col">Fingerprint</th>
            <th scope="col">Pin</th>
          </tr>
        </thead>
        <tbody>
          {view.surfaces.map((s) => (
            <tr key={s.key}>
              <td>{s.label}</td>
              <td>{eraText(s.era)}</td>
              <td>{s.counts.tools}</td>
              <td className="mono">{s.surfaceSha256.slice(0, 12)}…</td>
              <td>{s.pin ? s.pin.status : "not pinned"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {chosen && (
        <div className="stack">
          <div className="grid-2">
            {(["a", "b"] as const).map((side) => (
              <label className="field" key={side}>
                <span className="label-text">{side === "a" ? "From" : "To"}</span>
                <select value={chosen[side]} onChange={(e) => choose(side, e.target.value)}>
                  {view.surfaces.map((s) => (
                    <option key={s.key} value={s.key}>
                      {surfaceText(s)}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <p className="small muted" style={{ margin: 0 }}>
            What {byKey.get(chosen.b) ? surfaceText(byKey.get(chosen.b)!) : "the second"} lists that{" "}
            {byKey.get(chosen.a) ? surfaceText(byKey.get(chosen.a)!) : "the first"} does not
            (added), and the reverse (removed).
          </p>
          <DiffView diff={chosen.diff} />
        </div>
      )}
    </section>
  );
}
