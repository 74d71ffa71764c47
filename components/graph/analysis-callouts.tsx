/**
 * The two sentences above the graph that the review page and the share view both show: what
 * survives the controls, and why there is no path when there is none. One component each, so the
 * owner and whoever holds a share link read the same words.
 */
import { noPathReason } from "@/components/graph/view-model";

type Residue = { text: string; caveats: readonly string[] };

/** "What survives the controls", with the caveats that weaken it. */
export function ResidueCallout(props: { residue: Residue; testId: string; textTestId?: string }) {
  const { residue } = props;
  return (
    <div className="callout" data-testid={props.testId}>
      <strong>What survives the controls: </strong>
      <span data-testid={props.textTestId}>{residue.text}</span>.
      {residue.caveats.length > 0 && (
        <ul className="small" style={{ margin: "0.35rem 0 0", paddingLeft: "1.1rem" }}>
          {residue.caveats.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Shown in place of the path count when there is no source-to-sink path, with the reason. */
export function NoPathsCallout(props: {
  analysis: Parameters<typeof noPathReason>[0];
  testId?: string;
}) {
  return (
    <div className="callout ok" data-testid={props.testId}>
      <strong>No source-to-sink paths.</strong> {noPathReason(props.analysis)}
    </div>
  );
}
