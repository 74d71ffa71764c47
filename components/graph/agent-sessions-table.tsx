/**
 * The agent sessions table: per agent its paths, whether it holds both ends, the lethal trifecta,
 * the Rule of Two and where separation would cut. The review's Graph section passes `renderSplit`
 * for its split button and preview; the share view shows the same table read-only.
 */
import type { ReactNode } from "react";
import type { GraphAgent, GraphSectionData } from "@/lib/graph/section";
import { toolName } from "./view-model";

type Separation = GraphSectionData["controls"]["separation"];
export type SplitPlan = NonNullable<Separation["agents"][number]["split"]>;

const legText = (name: string, leg: { present: boolean }) => `${name} ${leg.present ? "✓" : "✕"}`;

export function AgentSessionsTable(props: {
  agents: readonly GraphAgent[];
  separation: Separation;
  /** What the separation cell offers for an agent that a split would cut (a button, a form); nothing when absent. */
  renderSplit?: (agent: GraphAgent, plan: SplitPlan) => ReactNode;
}) {
  const { agents, separation, renderSplit } = props;
  return (
    <div style={{ overflowX: "auto" }}>
      <table className="data rr-verdicts" data-testid="agent-verdicts">
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Paths</th>
            <th scope="col">Holds both</th>
            <th scope="col">Lethal trifecta</th>
            <th scope="col">Rule of Two</th>
            <th scope="col">Separation</th>
          </tr>
        </thead>
        <tbody>
          {agents.map((a) => {
            const plan = separation.agents.find((s) => s.agentId === a.agentId)?.split ?? null;
            return (
              <tr key={a.agentId} data-agent-id={a.agentId}>
                <td>
                  <strong>{a.name}</strong>
                  <div className="small muted">{a.toolCount} tools in the session</div>
                </td>
                <td className="num">{a.pathCount}</td>
                <td>
                  {a.holdsBoth ? (
                    <span className="badge badge-danger">yes</span>
                  ) : (
                    <span className="badge badge-ok">no</span>
                  )}
                  <div className="legs muted">
                    returning: {a.returningTools.map(toolName).join(", ") || "none"}; sinks:{" "}
                    {a.sinkTools.map(toolName).join(", ") || "none"}
                  </div>
                </td>
                <td>
                  {a.trifecta.met ? (
                    <span className="badge badge-danger">met</span>
                  ) : (
                    <span className="badge badge-ok">not met</span>
                  )}
                  <div className="legs muted">
                    {[
                      legText("untrusted input", a.trifecta.untrustedInput),
                      legText("private data", a.trifecta.privateData),
                      legText("outbound", a.trifecta.outboundCommunication),
                    ].join(" · ")}
                  </div>
                </td>
                <td>
                  <span className={`badge ${a.ruleOfTwo.violated ? "badge-danger" : "badge-ok"}`}>
                    {a.ruleOfTwo.count} of 4{a.ruleOfTwo.violated ? ", broken" : ""}
                  </span>
                  <div className="legs muted">
                    {[
                      legText("untrusted input", a.ruleOfTwo.untrustedInput),
                      legText("sensitive data or systems", a.ruleOfTwo.sensitiveDataOrSystems),
                      legText("state change", a.ruleOfTwo.stateChange),
                      legText("outbound", a.ruleOfTwo.outboundCommunication),
                    ].join(" · ")}
                  </div>
                </td>
                <td style={{ minWidth: "16rem" }}>
                  {plan ? (
                    <div className="stack" style={{ gap: "0.35rem" }}>
                      {renderSplit?.(a, plan)}
                      <span className="small muted">
                        {renderSplit ? "" : "A split would cut its paths: "}
                        {plan.reference.name} keeps{" "}
                        {plan.reference.tools.map(toolName).join(", ") || "nothing"};{" "}
                        {plan.deploy.name} gets{" "}
                        {plan.deploy.tools.map(toolName).join(", ") || "nothing"}.{" "}
                        {plan.handoff.carries}.
                        {plan.removed.length > 0 &&
                          ` Removed from both: ${plan.removed.map((r) => toolName(r.tool)).join(", ")} (${plan.removed[0]?.reason}).`}
                      </span>
                    </div>
                  ) : a.returningTools.length > 0 ? (
                    <span className="small">
                      Cuts the path here: no sensitive sink in this session.
                    </span>
                  ) : (
                    <span className="small muted">
                      No tool returning untrusted text in this session.
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
