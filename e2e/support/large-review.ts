/**
 * A generated review for scale tests: `servers` relay servers whose tools return text from
 * `sources` sources (half writable from outside), agents each holding a slice of those tools and a
 * few sinks from a deploy server. Deterministic, so every run draws the same graph.
 */
import { REVIEW_SCHEMA_VERSION, type ReviewInput } from "@/lib/review/schema";

export type LargeReviewShape = {
  servers: number;
  toolsPerServer: number;
  sources: number;
  agents: number;
  sinks: number;
  toolsPerAgent: number;
};

/** About 500 graph nodes: 2×100 writers/sources + 25×10 returning tools + 20 agents + 30 sinks. */
export const FIVE_HUNDRED_NODES: LargeReviewShape = {
  servers: 25,
  toolsPerServer: 10,
  sources: 100,
  agents: 20,
  sinks: 30,
  toolsPerAgent: 12,
};

/** About 200 tools: one big server that starts collapsed, three small ones. */
export const TWO_HUNDRED_TOOLS: LargeReviewShape = {
  servers: 4,
  toolsPerServer: 50,
  sources: 40,
  agents: 6,
  sinks: 8,
  toolsPerAgent: 30,
};

export function largeReview(shape: LargeReviewShape, title = "Generated review"): ReviewInput {
  const stdio = { kind: "stdio" as const, command: "node", args: [], envNames: [] };
  const servers = Array.from({ length: shape.servers }, (_, s) => ({
    id: `relay-${s}`,
    name: `relay-${s}`,
    transport: stdio,
    declaredTools: Array.from({ length: shape.toolsPerServer }, (_, t) => ({
      name: `search_${s}_${t}`,
      description: `Search space ${t} of relay ${s}.`,
    })),
  }));
  const deploy = {
    id: "deploy",
    name: "deploy",
    transport: stdio,
    declaredTools: Array.from({ length: shape.sinks }, (_, k) => ({
      name: `deploy_${k}`,
      description: "Deploy a release.",
    })),
  };
  const sources = Array.from({ length: shape.sources }, (_, i) =>
    i % 2 === 0
      ? {
          id: `src-${i}`,
          name: `Portal ${i}`,
          kind: "support_portal" as const,
          writers: { externalAccounts: 1000 + i, selfServiceSignupOpen: true },
        }
      : {
          id: `src-${i}`,
          name: `Internal space ${i}`,
          kind: "wiki" as const,
          writers: { internalAccounts: 100 + i },
        },
  );
  const tools = [
    ...servers.flatMap((srv, s) =>
      srv.declaredTools.map((t, ti) => ({
        serverId: srv.id,
        tool: t.name,
        sourceIds: [
          `src-${(s * 7 + ti * 3) % shape.sources}`,
          `src-${(s * 7 + ti * 3 + 1) % shape.sources}`,
        ],
        roles: ["returns_untrusted_text" as const],
        rolesConfirmed: true,
      })),
    ),
    ...deploy.declaredTools.map((t) => ({
      serverId: "deploy",
      tool: t.name,
      sourceIds: [],
      roles: ["deploys_or_destroys" as const],
      rolesConfirmed: true,
    })),
  ];
  const all = servers.flatMap((srv) =>
    srv.declaredTools.map((t) => ({ serverId: srv.id, tool: t.name })),
  );
  const agents = Array.from({ length: shape.agents }, (_, a) => ({
    id: `agent-${a}`,
    name: `agent ${a}`,
    description: "",
    tools: [
      ...Array.from(
        { length: shape.toolsPerAgent },
        (_, k) => all[(a * shape.toolsPerAgent + k) % all.length]!,
      ),
      { serverId: "deploy", tool: `deploy_${a % shape.sinks}` },
      ...(a % 2 === 0
        ? [{ serverId: "deploy", tool: `deploy_${(shape.agents + a / 2) % shape.sinks}` }]
        : []),
    ].filter(
      (t, i, xs) => xs.findIndex((x) => x.serverId === t.serverId && x.tool === t.tool) === i,
    ),
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

const GITLAB_VERBS = [
  "get",
  "list",
  "create",
  "update",
  "delete",
  "approve",
  "merge",
  "search",
] as const;
const GITLAB_NOUNS = [
  "issue",
  "issue_note",
  "issue_link",
  "issue_discussion",
  "issue_discussion_note",
  "merge_request",
  "merge_request_note",
  "merge_request_discussion",
  "merge_request_diff",
  "merge_request_approval",
  "pipeline",
  "pipeline_job",
  "pipeline_schedule",
  "deployment",
  "environment",
  "branch",
  "commit",
  "commit_comment",
  "file",
  "file_blame",
  "label",
  "milestone",
  "wiki_page",
  "project",
  "project_member",
  "group",
  "group_member",
  "release",
  "tag",
  "snippet",
] as const;
/** Verbs whose tools change state; `delete` and `approve`/`merge` (which ship code) deploy or destroy. */
const GITLAB_WRITES = new Set(["create", "update", "delete", "approve", "merge"]);
const GITLAB_DEPLOYS = new Set(["delete", "approve", "merge"]);

/**
 * A GitLab-like review of 201 tools on one server, named as real GitLab MCP servers name them
 * (`create_issue`, `create_issue_note`, `create_issue_discussion_note`, …: long shared prefixes, so
 * labels cut to a box read alike), none mapped to a source, so each returns text from an unmapped
 * head. Most are both returning tools and sinks, so one agent holding them all has self-paths.
 * A second small server repeats some names (two tools of the same name on different servers).
 * Every third assessment is left a suggestion; the others are confirmed. Annotated like the real server.
 */
export function gitlabLikeReview(title = "Generated: GitLab-like, 201 tools"): ReviewInput {
  const stdio = { kind: "stdio" as const, command: "node", args: [], envNames: [] };
  const names = GITLAB_NOUNS.flatMap((noun) =>
    GITLAB_VERBS.map((verb) => ({ verb, name: `${verb}_${noun}` })),
  ).slice(0, 201);
  const mirrorNames = names.filter((_, i) => i % 25 === 0);
  const roles = (verb: string) => [
    "returns_untrusted_text" as const,
    ...(GITLAB_WRITES.has(verb) ? (["writes"] as const) : []),
    ...(GITLAB_DEPLOYS.has(verb) ? (["deploys_or_destroys"] as const) : []),
  ];
  // Annotated as a real GitLab server annotates its tools, so a suggestion follows the claims
  // (a create is a suggested write, not the spec's worst case of a destroy).
  const declared = (t: (typeof names)[number]) => ({
    name: t.name,
    description: `${t.name.replaceAll("_", " ")}.`,
    annotations: GITLAB_WRITES.has(t.verb)
      ? { readOnlyHint: false, destructiveHint: GITLAB_DEPLOYS.has(t.verb), openWorldHint: false }
      : { readOnlyHint: true, openWorldHint: false },
  });
  const assess = (serverId: string, list: typeof names) =>
    list.map((t, i) => ({
      serverId,
      tool: t.name,
      sourceIds: [],
      roles: roles(t.verb),
      rolesConfirmed: i % 3 !== 2,
    }));
  return {
    schemaVersion: REVIEW_SCHEMA_VERSION,
    title,
    summary: "",
    servers: [
      { id: "gitlab", name: "gitlab", transport: stdio, declaredTools: names.map(declared) },
      {
        id: "gitlab-mirror",
        name: "gitlab mirror",
        transport: stdio,
        declaredTools: mirrorNames.map(declared),
      },
    ],
    sources: [],
    tools: [...assess("gitlab", names), ...assess("gitlab-mirror", mirrorNames)],
    agents: [
      {
        id: "gitlab-triage",
        name: "GitLab triage and release agent",
        description: "",
        tools: [
          ...names.map((t) => ({ serverId: "gitlab", tool: t.name })),
          ...mirrorNames.map((t) => ({ serverId: "gitlab-mirror", tool: t.name })),
        ],
      },
    ],
    controls: { credentials: [], egress: [], approvals: [], statementsOfIntent: [] },
    decisions: [],
  };
}
