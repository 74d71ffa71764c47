/**
 * The words of the trifecta's leg marks drawn under each agent in the graph: per agent that
 * holds a leg, the three legs and the tools that make each. The text equivalent of the marks
 * (they are hidden from assistive technology), and where a reader sees the tools behind the
 * private-data leg that the graph's columns do not draw (a tool that only reads private data is
 * neither a returning tool nor a sink).
 */
import type { GraphSectionData } from "@/lib/graph/section";
import { trifectaLegViews } from "@/lib/graph/trifecta";
import { shownName } from "@/lib/model/prose";

export function TrifectaLegs(props: {
  agents: GraphSectionData["agents"];
  agentName: (id: string) => string;
}) {
  const rows = props.agents
    .map((a) => ({ a, legs: trifectaLegViews(a.trifecta) }))
    .filter((r) => r.legs.some((l) => l.present));
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="graph-trifecta-heading" data-testid="graph-trifecta">
      <h3 id="graph-trifecta-heading" style={{ margin: 0, fontSize: "1rem" }}>
        Lethal trifecta legs, as marked under each agent
      </h3>
      <ul className="small" style={{ margin: "0.25rem 0 0", paddingLeft: "1.1rem" }}>
        {rows.map(({ a, legs }) => (
          <li key={a.agentId} data-agent={a.agentId}>
            <strong>{shownName(props.agentName(a.agentId))}</strong>
            {a.trifecta.met ? " holds the lethal trifecta:" : " holds some legs:"}
            <ul style={{ paddingLeft: "1.1rem" }}>
              {legs.map((l) => (
                <li key={l.key} data-leg={l.key} data-present={String(l.present)}>
                  {l.text}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
