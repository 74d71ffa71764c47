/**
 * A generated review for scale tests: `servers` relay servers whose tools return text from
 * `sources` sources (half writable from outside), agents each holding a slice of those tools and a
 * few sinks from a deploy server. Deterministic, so every run draws the same graph.
 */
import { REVIEW_SCHEMA_VERSION, type ReviewInput } from "@/lib/review/schema";

export type LargeReviewShape = { servers: number; toolsPerServer: number; sources: number; agents: number; sinks: number; toolsPerAgent: number };

/** About 500 graph nodes: 2×100 writers/sources + 25×10 returning tools + 20 agents + 30 sinks. */
export const FIVE_HUNDRED_NODES: LargeReviewShape = { servers: 25, toolsPerServer: 10, sources: 100, agents: 20, sinks: 30, toolsPerAgent: 12 };

/** About 200 tools: one big server that starts collapsed, three small ones. */
export const TWO_HUNDRED_TOOLS: LargeReviewShape = { servers: 4, toolsPerServer: 50, sources: 40, agents: 6, sinks: 8, toolsPerAgent: 30 };

export function largeReview(shape: LargeReviewShape, title = "Generated review"): ReviewInput {
  const stdio = { kind: "stdio" as const, command: "node", args: [], envNames: [] };
  const servers = Array.from({ length: shape.servers }, (_, s) => ({
    id: `relay-${s}`,
    name: `relay-${s}`,
    transport: stdio,
    declaredTools: Array.from({ length: shape.toolsPerServer }, (_, t) => ({ name: `search_${s}_${t}`, description: `Search space ${t} of relay ${s}.` })),
  }));
  const deploy = { id: "deploy", name: "deploy", transport: stdio, declaredTools: Array.from({ length: shape.sinks }, (_, k) => ({ name: `deploy_${k}`, description: "Deploy a release." })) };
  const sources = Array.from({ length: shape.sources }, (_, i) =>
    i % 2 === 0
      ? { id: `src-${i}`, name: `Portal ${i}`, kind: "support_portal" as const, writers: { externalAccounts: 1000 + i, selfServiceSignupOpen: true } }
      : { id: `src-${i}`, name: `Internal space ${i}`, kind: "wiki" as const, writers: { internalAccounts: 100 + i } },
  );
  const tools = [
    ...servers.flatMap((srv, s) =>
      srv.declaredTools.map((t, ti) => ({
        serverId: srv.id,
        tool: t.name,
        sourceIds: [`src-${(s * 7 + ti * 3) % shape.sources}`, `src-${(s * 7 + ti * 3 + 1) % shape.sources}`],
        roles: ["returns_untrusted_text" as const],
        rolesConfirmed: true,
      })),
    ),
    ...deploy.declaredTools.map((t) => ({ serverId: "deploy", tool: t.name, sourceIds: [], roles: ["deploys_or_destroys" as const], rolesConfirmed: true })),
  ];
  const all = servers.flatMap((srv) => srv.declaredTools.map((t) => ({ serverId: srv.id, tool: t.name })));
  const agents = Array.from({ length: shape.agents }, (_, a) => ({
    id: `agent-${a}`,
    name: `agent ${a}`,
    description: "",
    tools: [
      ...Array.from({ length: shape.toolsPerAgent }, (_, k) => all[(a * shape.toolsPerAgent + k) % all.length]!),
      { serverId: "deploy", tool: `deploy_${a % shape.sinks}` },
      ...(a % 2 === 0 ? [{ serverId: "deploy", tool: `deploy_${(shape.agents + a / 2) % shape.sinks}` }] : []),
    ].filter((t, i, xs) => xs.findIndex((x) => x.serverId === t.serverId && x.tool === t.tool) === i),
  }));
  return {
    schemaVersion: REVIEW_SCHEMA_VERSION,
    title,
    summary: "",
    servers: [...servers, deploy],
    sources,
    tools,
    agents,
    controls: { credentials: [], egress: [], approvals: [], statementsOfIntent: [] },
    decisions: [],
  };
}
