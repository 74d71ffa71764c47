/**
 * The demo review: the seed's worked example (knowledge-mcp and the on-call agent), complete.
 * Every number here is from `shared/seed/002_e2f23ab2b6b209f1.txt`, and the unit tests assert
 * the analysis of exactly this document.
 */
import {
  REVIEW_SCHEMA_VERSION,
  ReviewSchema,
  type Review,
  type ReviewInput,
} from "@/lib/review/schema";

export const DEMO_REVIEW_TITLE = "knowledge-mcp into the on-call agent (demo)";

/** The seed's egress policy as a complete NetworkPolicy: one internal range on TCP 443, default deny. */
export const DEMO_NETWORK_POLICY = `# NetworkPolicy: knowledge-mcp
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: knowledge-mcp-egress
  namespace: atlas
spec:
  podSelector:
    matchLabels:
      app: knowledge-mcp
  policyTypes:
    - Egress
  egress:
    - to:
        - ipBlock: { cidr: 10.42.7.0/24 }     # tracker + wiki, internal
      ports: [{ protocol: TCP, port: 443 }]
  # no default-allow rule; everything else is denied
`;

/**
 * Launch commands of the demo servers shipped in servers/, as config/launchers.json allowlists
 * them: compiled to plain JavaScript at install and build (scripts/build-servers.mjs), so the
 * sandbox runs them without tsx compiling the TypeScript afresh on every run.
 */
export const DEMO_KNOWLEDGE_MCP_ARGS = ["servers/dist/knowledge-mcp.js", "stdio"];
export const DEMO_DEPLOY_MCP_ARGS = ["servers/dist/deploy-mcp.js", "stdio"];

const demoInput: ReviewInput = {
  schemaVersion: REVIEW_SCHEMA_VERSION,
  title: DEMO_REVIEW_TITLE,
  summary:
    "Four tools for searching and reading an issue tracker and a wiki. The tracker has a public project wired to the customer support portal; the on-call agent also holds trigger_deploy.",
  servers: [
    {
      id: "knowledge-mcp",
      name: "knowledge-mcp",
      transport: { kind: "stdio", command: "node", args: DEMO_KNOWLEDGE_MCP_ARGS, envNames: [] },
      imageDigest:
        "ghcr.io/atlas/knowledge-mcp@sha256:9f3c5e1a7b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e",
      declaredTools: [
        {
          name: "knowledge_search",
          description:
            "Search tickets and wiki pages; returns matching ticket bodies and page excerpts.",
          annotations: { readOnlyHint: true },
        },
        {
          name: "read_page",
          description: "Read a wiki page, including its comment thread.",
          annotations: { readOnlyHint: true },
        },
        {
          name: "list_spaces",
          description: "List the wiki spaces the service identity can read.",
          annotations: { readOnlyHint: true },
        },
        {
          name: "get_comment",
          description: "Fetch one comment from a ticket or a wiki page.",
          annotations: { readOnlyHint: true },
        },
      ],
      notes:
        "Reputable maintainers, open source. That answers the other review (does the code misbehave), not this one.",
    },
    {
      id: "deploy-tools",
      name: "deploy-tools (not under review)",
      transport: { kind: "stdio", command: "node", args: DEMO_DEPLOY_MCP_ARGS, envNames: [] },
      declaredTools: [
        {
          name: "trigger_deploy",
          description: "Trigger a production deploy of a release.",
          annotations: { destructiveHint: true },
        },
      ],
    },
  ],
  // The seed marks none of its sources as confidential: the on-call agent's danger is the path from
  // a ticket body to a deploy, not private data leaving, so each source is internal (the default).
  sources: [
    {
      id: "tracker-internal",
      name: "Tracker: internal projects (PAY, INFRA)",
      kind: "tracker",
      confidentiality: "internal",
      writers: { internalAccounts: 412, contractors: 38, partnerAccounts: 9 },
    },
    {
      id: "support-portal",
      name: "Tracker: support portal project (SUP)",
      kind: "support_portal",
      confidentiality: "internal",
      writers: { externalAccounts: 31_400, activeLastYear: 2_100, selfServiceSignupOpen: true },
      notes:
        "Anyone with a support account can file a ticket; the ticket body becomes a search result.",
    },
    {
      id: "wiki",
      name: "Wiki: internal spaces",
      kind: "wiki",
      confidentiality: "internal",
      writers: { internalAccounts: 380 },
    },
    {
      id: "wiki-partner",
      name: "Wiki: partner space",
      kind: "partner_space",
      confidentiality: "internal",
      writers: { externalAccounts: 24 },
    },
    {
      id: "wiki-comments",
      name: "Wiki: page comments (enabled on every space)",
      kind: "comments",
      confidentiality: "internal",
      writers: { internalAccounts: 380, externalAccounts: 24 },
    },
  ],
  tools: [
    {
      serverId: "knowledge-mcp",
      tool: "knowledge_search",
      sourceIds: ["tracker-internal", "support-portal", "wiki", "wiki-partner"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "knowledge-mcp",
      tool: "read_page",
      sourceIds: ["wiki", "wiki-partner", "wiki-comments"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "knowledge-mcp",
      tool: "list_spaces",
      sourceIds: [],
      roles: [],
      rolesConfirmed: true,
    },
    {
      serverId: "knowledge-mcp",
      tool: "get_comment",
      sourceIds: ["tracker-internal", "support-portal", "wiki-comments"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "deploy-tools",
      tool: "trigger_deploy",
      sourceIds: [],
      roles: ["deploys_or_destroys"],
      rolesConfirmed: true,
    },
  ],
  agents: [
    {
      id: "on-call",
      name: "on-call agent",
      description:
        "Answers pages for the on-call engineer; reads tickets and the wiki, and can deploy.",
      tools: [
        { serverId: "knowledge-mcp", tool: "knowledge_search" },
        { serverId: "knowledge-mcp", tool: "read_page" },
        { serverId: "knowledge-mcp", tool: "list_spaces" },
        { serverId: "knowledge-mcp", tool: "get_comment" },
        { serverId: "deploy-tools", tool: "trigger_deploy" },
      ],
    },
    {
      id: "docs-agent",
      name: "documentation agent",
      description: "Searches and reads; holds nothing that writes, deploys or shares.",
      tools: [
        { serverId: "knowledge-mcp", tool: "knowledge_search" },
        { serverId: "knowledge-mcp", tool: "read_page" },
      ],
    },
  ],
  controls: {
    credentials: [
      {
        serverId: "knowledge-mcp",
        scopes: ["read:issue", "read:project", "read:comment"],
        projects: ["PAY", "SUP", "INFRA"],
        sensitiveProjects: ["SEC"],
        identity: "service",
        ttlDays: 30,
        rotation: "rotated by the platform vault",
      },
    ],
    egress: [{ serverId: "knowledge-mcp", policyYaml: DEMO_NETWORK_POLICY }],
    approvals: [
      {
        agentId: "on-call",
        tools: [{ serverId: "deploy-tools", tool: "trigger_deploy" }],
        outOfBand: true,
        showsResolvedArguments: false,
        promptsPerDay: 14,
        medianSecondsToApprove: 1.9,
      },
    ],
    statementsOfIntent: [
      {
        text: "The knowledge server is intended for read-only reference and must not be used in workflows that trigger deployments.",
        where: "integration document, 8-page vetting review",
      },
    ],
  },
  decisions: [],
};

/** A fresh, validated copy of the demo review. */
export function createDemoReview(): Review {
  return ReviewSchema.parse(structuredClone(demoInput));
}
