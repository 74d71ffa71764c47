/**
 * Detection counts (issue 31 item 4), on the Summary and the share view: per source and per agent
 * "k flagged of n scanned" with its 95 % interval, the implied true share with its interval, and the
 * detector's measured recall and FP rate. Names are server- or reviewer-authored: rendered as text.
 */
import type { DetectionView } from "@/lib/detection/view";

const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.01 ? 2 : 1)} %`;

/**
 * Detection counts (issue 31 item 4): what the gate and sampling scanned and flagged, each with its
 * interval, beside the detector's measured recall and FP rate and the true share they imply. Not a
 * control: it sits apart from the controls and changes no state above.
 */
export function DetectionCounts({ detection: d }: { detection: DetectionView }) {
  const rows = [
    ...d.perSource.map((c) => ({ ...c, by: "Source" })),
    ...d.perAgent.map((c) => ({ ...c, by: "Agent" })),
  ];
  return (
    <section
      className="card stack"
      aria-labelledby="summary-detection-heading"
      data-testid="summary-detection"
    >
      <h2 id="summary-detection-heading" style={{ margin: 0 }}>
        Payloads detected in relayed text
      </h2>
      <p className="small muted" style={{ margin: 0 }} data-testid="summary-detector-figures">
        Detector measured on held-out data: recall {d.detector.recall.share.toFixed(2)} (95 % CI{" "}
        {d.detector.recall.low.toFixed(2)}–{d.detector.recall.high.toFixed(2)}), false positives{" "}
        {pct(d.detector.falsePositive.share)} (95 % CI {pct(d.detector.falsePositive.low)}–
        {pct(d.detector.falsePositive.high)}). Detection is not a control: it counts what arrived
        and changes no path or decision.
      </p>
      {rows.length === 0 ? (
        <p className="muted">Nothing scanned yet: the gate reports here with a reporting token.</p>
      ) : (
        <table className="data" aria-label="Detection counts">
          <thead>
            <tr>
              <th scope="col">By</th>
              <th scope="col">Name</th>
              <th scope="col">Flagged of scanned (95 % CI)</th>
              <th scope="col">Estimated true share (95 % CI)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={`${c.by} ${c.name}`} data-testid={`summary-detection-${c.by.toLowerCase()}`}>
                <td>{c.by}</td>
                <td>{c.name}</td>
                <td>
                  {c.flagged.k} flagged of {c.flagged.n.toLocaleString("en-US")} scanned (
                  {pct(c.flagged.share)}, 95 % CI {pct(c.flagged.low)}–{pct(c.flagged.high)})
                </td>
                <td>
                  {c.trueShare.informative
                    ? `${pct(c.trueShare.estimate)} (95 % CI ${pct(c.trueShare.low)}–${pct(c.trueShare.high)})`
                    : "no estimate (recall does not exceed the FP rate)"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
