/**
 * The review document: one zod schema for everything a reviewer enters about a relay server
 * deployment. It is the unit of storage (each save is a revision of it), the body of the JSON API,
 * and the input of every analysis in lib/. Only reviewer-entered facts live here; what a server
 * said about itself lives in surface snapshots, referenced by fingerprint.
 *
 * Invariants enforced by `ReviewSchema` beyond field shapes: ids are unique per collection and
 * every reference (tool → server, tool → source, agent → tool, decision → agent) resolves.
 * Secrets never appear: servers name the environment variables and headers they need, and the
 * values are resolved on the workbench's server side at connect time.
 */
import { z } from "zod";
import { CredentialSchema } from "@/lib/credential";
import { RemoteTransportKindSchema } from "@/lib/transport-kind";
import {
  AgentIdSchema,
  DecisionIdSchema,
  ServerIdSchema,
  Sha256Schema,
  SourceIdSchema,
} from "@/lib/ids";
import { argsHoldSecrets, urlHoldsSecrets } from "@/lib/secrets/redact";

export const REVIEW_SCHEMA_VERSION = 2;

/** C0, DEL, C1 and the line and paragraph separators: a name with one can forge lines wherever it is written (YAML, logs, Markdown). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Why `text` may not be a name, or null: the first control character, as a code point. */
export function controlCharacterIssue(text: string): string | null {
  const found = CONTROL_CHARACTER.exec(text);
  if (!found) return null;
  const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `must not contain control characters or line breaks (found U+${code} at position ${found.index + 1})`;
}
const name = (max = 120) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max)
    .superRefine((text, ctx) => {
      const issue = controlCharacterIssue(text);
      if (issue) ctx.addIssue({ code: "custom", message: issue });
    });
const note = z.string().max(4000);
const count = z
  .number()
  .int("must be a whole number")
  .min(0, "must not be negative")
  .max(10_000_000_000);
/** Environment variable and header names only — never their values. */
const EnvNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "must be an environment variable name");
const HeaderNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, "must be an HTTP header name");

/** `ghcr.io/org/server@sha256:<64 hex>`: a digest, never a mutable tag. */
export const ImageDigestSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._/:-]{0,254}@sha256:[0-9a-f]{64}$/,
    "must be an image reference pinned by digest: name@sha256:<64 hex>",
  );

export const StdioTransportSchema = z.object({
  kind: z.literal("stdio"),
  /** Only runnable when it matches an entry of the owner's launcher allowlist (see lib/mcp). */
  command: name(500),
  args: z
    .array(z.string().max(2000))
    .max(64)
    .default([])
    .superRefine((args, ctx) => {
      // A value here reaches every revision, export and share link: only `${NAME}` references may.
      for (const r of argsHoldSecrets(args)) {
        ctx.addIssue({
          code: "custom",
          path: [r.index ?? 0],
          message: `holds a secret value (${r.name}): replace the value with a reference such as \${${r.variable.replace(/^X_/, "")}} and set ${r.variable.replace(/^X_/, "")} on the Secrets page`,
        });
      }
    }),
  envNames: z.array(EnvNameSchema).max(64).default([]),
});
export const HttpTransportSchema = z.object({
  /** Streamable HTTP, falling back to legacy SSE when the server speaks only that. */
  kind: RemoteTransportKindSchema,
  url: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .max(2000)
    .superRefine((url, ctx) => {
      const found = urlHoldsSecrets(url);
      if (found.includes("userinfo")) {
        ctx.addIssue({
          code: "custom",
          message:
            "must not carry credentials (user:password@): put them in a header that names a variable (e.g. Authorization) and set its value on the Secrets page",
        });
      }
      const params = found.filter((f) => f !== "userinfo");
      if (params.length)
        ctx.addIssue({
          code: "custom",
          message: `holds a secret value (${params.join(", ")}): write \${NAME} in its place and set NAME on the Secrets page`,
        });
    }),
  /** Header name → environment variable holding its value. */
  headerEnv: z.record(HeaderNameSchema, EnvNameSchema).default({}),
});
/** A server not under review whose tools are entered by hand (e.g. the deploy tools an agent also holds). */
export const ManualTransportSchema = z.object({ kind: z.literal("manual") });
export const TransportSchema = z.discriminatedUnion("kind", [
  StdioTransportSchema,
  HttpTransportSchema,
  ManualTransportSchema,
]);
export type Transport = z.infer<typeof TransportSchema>;

/** MCP tool annotations exactly as a server (or a reviewer, for hand-entered tools) claimed them. */
export const ToolAnnotationsSchema = z.object({
  title: z.string().max(500).optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** A tool entered by hand: used for manual servers, and for live servers before any inspection. */
/**
 * A JSON Schema object as a server would list it, kept as entered (a zod object would drop keys,
 * `__proto__` included) and bounded so a review document stays small.
 */
const ToolJsonSchema = z.custom<Record<string, unknown>>(
  (v) =>
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    (JSON.stringify(v)?.length ?? Infinity) <= 100_000,
  "must be a JSON object of at most 100,000 characters",
);

export const DeclaredToolSchema = z.object({
  name: name(256),
  description: z.string().max(10_000).default(""),
  annotations: ToolAnnotationsSchema.optional(),
  /**
   * The tool's input and output schemas, when the reviewer has them (issue 32): role suggestions
   * read their fields (a free `url`, recipients, a `password` in the output) as they do for an
   * inspected server's tools.
   */
  inputSchema: ToolJsonSchema.optional(),
  outputSchema: ToolJsonSchema.optional(),
});
export type DeclaredTool = z.infer<typeof DeclaredToolSchema>;

export const SurfacePinSchema = z.object({
  surfaceSha256: Sha256Schema,
  /** The client capabilities the pinned inspection declared; a pin compares only like with like. */
  declaredCapabilities: z.array(z.string().max(64)).max(16),
  pinnedAt: z.iso.datetime(),
  pinnedBy: name(120),
  reason: note.default(""),
  onSurfaceChange: z.enum(["block", "warn"]).default("block"),
  /**
   * The protocol era of the pinned inspection (issue 30); absent on pins made before the 2026 era
   * was spoken, which are all 2025. A pin is compared only with an inspection of its era.
   */
  era: z.enum(["2025", "2026"]).optional(),
  /**
   * The credential the pinned surface was listed under (lib/surface/credential.ts; names, never a
   * value). A pin is compared only with an inspection under the same credential; absent on pins
   * made before credentials were recorded, which compare with any.
   */
  credential: CredentialSchema.optional(),
});
export type SurfacePin = z.infer<typeof SurfacePinSchema>;

/** Most pins one server keeps beside its main one (other eras and credentials). */
export const MAX_OTHER_PINS = 32;

/** At most this many URL-elicitation hosts per server: a reviewer names parties, not a crawl. */
export const MAX_ELICITATION_URL_HOSTS = 50;

const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why `host` is not an exact lower-case DNS host name the gate can match against a URL's
 * `hostname`, or null. No wildcards (a subdomain is another party), no trailing dot (a URL's
 * hostname keeps it, so it would never match), no IP literals: an address names no party the
 * reviewer can vouch for, and a name is what the consent screen shows the user.
 */
export function elicitationUrlHostIssue(host: string): string | null {
  const quoted = JSON.stringify(host);
  if (host === "") return "must not be empty";
  if (host.length > 253) return `${quoted} is longer than 253 characters`;
  if (host !== host.toLowerCase()) return `${quoted} must be lower-case`;
  if (host.includes("*")) return `${quoted}: wildcards are not allowed; list each host exactly`;
  if (host.includes("/") || host.includes(":"))
    return `${quoted} must be a host name only, without scheme, port or path`;
  if (host.endsWith(".")) return `${quoted} must not end with a dot`;
  const labels = host.split(".");
  if (!labels.every((l) => DNS_LABEL.test(l)))
    return `${quoted} is not a DNS host name (labels of a-z, 0-9 and inner hyphens, at most 63 characters each)`;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!))
    return `${quoted} is an IP address; name the host instead`;
  return null;
}

export const ElicitationUrlHostSchema = z.string().superRefine((host, ctx) => {
  const issue = elicitationUrlHostIssue(host);
  if (issue) ctx.addIssue({ code: "custom", message: issue });
});

export const ElicitationUrlHostsSchema = z
  .array(ElicitationUrlHostSchema)
  .max(MAX_ELICITATION_URL_HOSTS, `at most ${MAX_ELICITATION_URL_HOSTS} hosts`)
  .superRefine((hosts, ctx) => {
    const seen = new Set<string>();
    hosts.forEach((h, i) => {
      if (seen.has(h))
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `${JSON.stringify(h)} is listed twice`,
        });
      seen.add(h);
    });
  });

export const RelayServerSchema = z.object({
  id: ServerIdSchema,
  name: name(),
  transport: TransportSchema,
  imageDigest: ImageDigestSchema.nullable().default(null),
  declaredTools: z.array(DeclaredToolSchema).max(10_000).default([]),
  pin: SurfacePinSchema.nullable().default(null),
  /**
   * Pins of the same server under other eras or credentials (issue 30, item 3): each is compared
   * only with an inspection of its own era and credential, so a reader's and an admin's surface
   * are pinned side by side. `pin` stays the one the gate and decisions enforce. Absent: none.
   */
  otherPins: z.array(SurfacePinSchema).max(MAX_OTHER_PINS).optional(),
  notes: note.default(""),
  /**
   * Hosts a URL-mode elicitation may send the user to through the gate; the signed record's
   * `registration.elicitation_url_domains`. Empty (the default, and every document written before
   * the field): the gate relays no URL-mode elicitation.
   */
  elicitationUrlHosts: ElicitationUrlHostsSchema.default([]),
  /**
   * The agent's host renders MCP Apps: inspection, sampling and the pin declare the Apps extension
   * to this server, which may list UI tools only to such a client (lib/mcp/capabilities.ts).
   * Absent (every document written before the field) or false: today's declared set, so existing
   * pins, records and fingerprints are untouched.
   */
  hostRendersApps: z.boolean().optional(),
});
export type RelayServer = z.infer<typeof RelayServerSchema>;

export const SOURCE_KINDS = [
  "tracker",
  "support_portal",
  "wiki",
  "partner_space",
  "comments",
  "external_pages",
  "mail",
  "crm",
  "other",
] as const;

/**
 * Who may write into a source. `contractors` and `partnerAccounts` are "of whom" counts inside
 * `internalAccounts`; `externalAccounts` are registered accounts outside the organisation.
 * `activeLastYear` is a usage fact about the external accounts, never part of the bound.
 */
export const WriterPopulationSchema = z
  .object({
    internalAccounts: count.default(0),
    contractors: count.default(0),
    partnerAccounts: count.default(0),
    externalAccounts: count.default(0),
    activeLastYear: count.nullable().default(null),
    selfServiceSignupOpen: z.boolean().default(false),
    fetchesLinkedExternalPages: z.boolean().default(false),
  })
  .superRefine((p, ctx) => {
    if (p.contractors + p.partnerAccounts > p.internalAccounts) {
      ctx.addIssue({
        code: "custom",
        path: ["contractors"],
        message:
          "contractors and partner-org accounts are counted among internal accounts, so together they cannot exceed it",
      });
    }
    if (p.activeLastYear !== null && p.activeLastYear > p.externalAccounts) {
      ctx.addIssue({
        code: "custom",
        path: ["activeLastYear"],
        message: "accounts active last year cannot exceed registered external accounts",
      });
    }
  });
export type WriterPopulation = z.infer<typeof WriterPopulationSchema>;

/**
 * How sensitive a source's content is. A tool mapped to a confidential or secret source reads
 * private data (the trifecta's private-data leg); the default fills documents written before the
 * field existed, so it needs no schema version.
 */
export const SOURCE_CONFIDENTIALITY = ["public", "internal", "confidential", "secret"] as const;
export type SourceConfidentiality = (typeof SOURCE_CONFIDENTIALITY)[number];

export const InputSourceSchema = z.object({
  id: SourceIdSchema,
  name: name(),
  kind: z.enum(SOURCE_KINDS).default("other"),
  writers: WriterPopulationSchema,
  confidentiality: z.enum(SOURCE_CONFIDENTIALITY).default("internal"),
  notes: note.default(""),
});
export type InputSource = z.infer<typeof InputSourceSchema>;

export const TOOL_ROLES = [
  "returns_untrusted_text",
  "reads_private_data",
  "writes",
  "deploys_or_destroys",
  "network_or_shares",
] as const;
export const ToolRoleSchema = z.enum(TOOL_ROLES);
export type ToolRole = z.infer<typeof ToolRoleSchema>;

export const ToolRefSchema = z.object({ serverId: ServerIdSchema, tool: name(256) });
export type ToolRef = z.infer<typeof ToolRefSchema>;

/**
 * What an assessment is about. A resource or resource template returns its contents into the
 * agent's context as a tool's result does, so it is assessed the same way: `tool` then holds the
 * resource's URI or the template's URI template. Absent means a tool (every assessment made
 * before resources could be assessed).
 */
export const ASSESSED_ITEM_KINDS = ["tool", "resource", "resource_template"] as const;
export const AssessedItemKindSchema = z.enum(ASSESSED_ITEM_KINDS);
export type AssessedItemKind = z.infer<typeof AssessedItemKindSchema>;

/** Samples of one item kept with its assessment (the newest last), and prose fields kept per sample. */
export const MAX_SAMPLES_KEPT = 3;
export const MAX_SAMPLE_FIELDS = 3;

/**
 * What one sample of an item showed about returned text (issue 32, lib/roles/sampled-text.ts):
 * when, who ran it, and whether prose came back, with the fields it came in. Only this: a sample's
 * arguments may hold secrets and its text is the server's, so neither is kept. Evidence for the
 * reviewer, never a role: nothing reads it to change one.
 */
export const SampleEvidenceSchema = z.object({
  at: z.iso.datetime(),
  /** Who ran it, as a pin names who pinned: the signed-in person's name, or "owner". */
  by: name(120),
  kind: z.enum(["prose", "names_only", "no_text"]),
  /** For prose: the fields it came in (paths cut and hidden characters revealed) and how many values. */
  fields: z
    .array(z.object({ path: z.string().max(80), values: count }))
    .max(MAX_SAMPLE_FIELDS)
    .optional(),
});
export type SampleEvidence = z.infer<typeof SampleEvidenceSchema>;

/**
 * The reviewer's assessment of one tool (or resource, or resource template, see `item`): the
 * sources whose text it returns (the tool → source map) and its roles. `rolesConfirmed: false`
 * means the roles are the app's suggestion, which the analysis may use but must report relying on.
 */
export const ToolAssessmentSchema = ToolRefSchema.extend({
  tool: name(2000),
  item: AssessedItemKindSchema.optional(),
  sourceIds: z.array(SourceIdSchema).max(1000).default([]),
  roles: z.array(ToolRoleSchema).max(TOOL_ROLES.length).default([]),
  rolesConfirmed: z.boolean().default(false),
  /**
   * The last MAX_SAMPLES_KEPT samples of the item from the workbench, oldest first; absent when it
   * was never sampled (and on every assessment made before samples were kept).
   */
  samples: z.array(SampleEvidenceSchema).max(MAX_SAMPLES_KEPT).optional(),
});
export type ToolAssessment = z.infer<typeof ToolAssessmentSchema>;

export const AgentSchema = z.object({
  id: AgentIdSchema,
  name: name(),
  description: note.default(""),
  tools: z.array(ToolRefSchema).max(10_000).default([]),
});
export type Agent = z.infer<typeof AgentSchema>;

export const CredentialConfigSchema = z.object({
  serverId: ServerIdSchema,
  scopes: z.array(z.string().trim().min(1).max(200)).max(200).default([]),
  projects: z.array(z.string().trim().min(1).max(200)).max(500).default([]),
  /** Projects the organisation treats as sensitive (e.g. SEC); granting any of them is a finding. */
  sensitiveProjects: z.array(z.string().trim().min(1).max(200)).max(500).default([]),
  identity: z.enum(["service", "person", "unknown"]).default("unknown"),
  ttlDays: z.number().int().min(1).max(3650).nullable().default(null),
  rotation: z.string().max(200).nullable().default(null),
});
export type CredentialConfig = z.infer<typeof CredentialConfigSchema>;

export const EgressConfigSchema = z.object({
  serverId: ServerIdSchema,
  /** A Kubernetes NetworkPolicy, as YAML text; evaluated, never trusted from a summary. */
  policyYaml: z.string().max(200_000),
});
export type EgressConfig = z.infer<typeof EgressConfigSchema>;

export const ApprovalConfigSchema = z.object({
  agentId: AgentIdSchema,
  /** The sink calls that need approval. */
  tools: z.array(ToolRefSchema).max(1000).default([]),
  outOfBand: z.boolean().default(false),
  showsResolvedArguments: z.boolean().default(false),
  promptsPerDay: z.number().min(0).max(100_000),
  medianSecondsToApprove: z.number().min(0).max(86_400),
});
export type ApprovalConfig = z.infer<typeof ApprovalConfigSchema>;

/** Prose such as "read-only reference only": recorded, shown, and given no position in the path. */
export const StatementOfIntentSchema = z.object({
  text: z.string().trim().min(1).max(4000),
  where: z.string().max(500).default(""),
});
export type StatementOfIntent = z.infer<typeof StatementOfIntentSchema>;

export const ControlsSchema = z.object({
  credentials: z.array(CredentialConfigSchema).max(1000).default([]),
  egress: z.array(EgressConfigSchema).max(1000).default([]),
  approvals: z.array(ApprovalConfigSchema).max(1000).default([]),
  statementsOfIntent: z.array(StatementOfIntentSchema).max(200).default([]),
});
export type Controls = z.infer<typeof ControlsSchema>;

/** A condition on an approval is a checkable item, not prose. */
export const DecisionConditionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tool_absent_from_agent"), tool: ToolRefSchema }),
  z.object({ kind: z.literal("egress_default_deny"), serverId: ServerIdSchema }),
  z.object({ kind: z.literal("credential_read_only"), serverId: ServerIdSchema }),
  z.object({ kind: z.literal("approval_out_of_band"), agentId: AgentIdSchema }),
  z.object({ kind: z.literal("surface_pinned_block"), serverId: ServerIdSchema }),
]);
export type DecisionCondition = z.infer<typeof DecisionConditionSchema>;

/** Severities, as lib/model/findings.ts SEVERITIES (a test keeps them equal; not imported: the schema stays free of the analysis). */
export const FINDING_SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;

/**
 * A finding an approval accepts (lib/decisions/findings.ts): what it was when accepted (kind,
 * severity, the text shown, the path's ends), by its stable id, and who owns the risk, why, and
 * until when. Past `until` the decision is stale.
 */
export const AcceptedRiskSchema = z.object({
  findingId: z.string().regex(/^fnd-[0-9a-f]{24}$/, "not a decision finding id"),
  kind: z.string().min(1).max(120),
  severity: z.enum(FINDING_SEVERITIES),
  text: z.string().min(1).max(2000),
  ends: z.object({ from: z.string().max(500), to: z.string().max(500) }).nullable(),
  owner: name(),
  why: z.string().trim().min(1, "say why the risk is accepted").max(4000),
  until: z.iso.datetime(),
});
export type AcceptedRisk = z.infer<typeof AcceptedRiskSchema>;

/** A person as a decision names them: their IdP issuer and subject, their name, and when they acted. */
export const DecisionPersonSchema = z.object({
  issuer: z.string().min(1).max(500),
  subject: z.string().min(1).max(255),
  name: name(),
  at: z.iso.datetime(),
});
export type DecisionPerson = z.infer<typeof DecisionPersonSchema>;

/**
 * Never a bare approve/reject of a server: a decision names the agent and tool set, and binds the
 * fingerprints it was made against so that a change to either half of the pair makes it stale.
 */
export const DecisionSchema = z.object({
  id: DecisionIdSchema,
  serverId: ServerIdSchema,
  agentId: AgentIdSchema,
  verdict: z.enum(["approved", "approved_with_conditions", "rejected"]),
  toolSet: z.array(ToolRefSchema).max(10_000),
  conditions: z.array(DecisionConditionSchema).max(100).default([]),
  reviewer: name(),
  rationale: z.string().trim().min(1, "a decision needs a rationale").max(20_000),
  decidedAt: z.iso.datetime(),
  /**
   * The server's pin when the decision was made (null: it had none); absent on decisions recorded
   * before decisions named their pin.
   */
  pin: SurfacePinSchema.pick({
    surfaceSha256: true,
    pinnedAt: true,
    pinnedBy: true,
    reason: true,
    onSurfaceChange: true,
  })
    .nullable()
    .optional(),
  bound: z.object({
    surfaceSha256: Sha256Schema.nullable(),
    imageDigest: ImageDigestSchema.nullable(),
    toolSetSha256: Sha256Schema,
    controlsSha256: Sha256Schema,
    revision: z.number().int().min(1),
    /**
     * The scopes the server's OAuth grant held when the decision was made (sorted set); absent
     * when the server was not reached through OAuth, and on decisions made before grants were bound.
     */
    grantedScopes: z.array(z.string().max(200)).max(64).optional(),
  }),
  /**
   * The open findings an approval accepts, each with its owner, reason and end date; absent on
   * decisions made before approvals said what they accept (and on rejections).
   */
  acceptedRisks: z.array(AcceptedRiskSchema).max(1000).optional(),
  /** The decision for the same server and agent this one replaced (null: none); absent on older decisions. */
  supersedes: DecisionIdSchema.nullable().optional(),
  /**
   * The person who made it, from the identity provider (absent: made with the owner token, or
   * before people signed in; `reviewer` then names who typed it).
   */
  author: DecisionPersonSchema.optional(),
  /** Four eyes (lib/decisions/four-eyes.ts): approvals needed from people other than the author. */
  requiredApprovals: z.number().int().min(0).max(5).optional(),
  /** The approvers so far, each a person other than the author, in the order they approved. */
  approvals: z.array(DecisionPersonSchema).max(5).optional(),
});
export type Decision = z.infer<typeof DecisionSchema>;

/** Field shapes only; `ReviewSchema` adds the cross-references. The share view reuses it with reduced transports. */
export const ReviewObjectSchema = z.object({
  schemaVersion: z.literal(REVIEW_SCHEMA_VERSION),
  title: name(200),
  summary: note.default(""),
  servers: z.array(RelayServerSchema).max(1000).default([]),
  sources: z.array(InputSourceSchema).max(1000).default([]),
  tools: z.array(ToolAssessmentSchema).max(20_000).default([]),
  agents: z.array(AgentSchema).max(1000).default([]),
  controls: ControlsSchema.default({
    credentials: [],
    egress: [],
    approvals: [],
    statementsOfIntent: [],
  }),
  decisions: z.array(DecisionSchema).max(1000).default([]),
});

function checkUnique<T>(
  ctx: z.RefinementCtx,
  items: readonly T[],
  key: (item: T) => string,
  path: string,
  what: string,
): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const k = key(item);
    if (seen.has(k))
      ctx.addIssue({
        code: "custom",
        path: [path, index],
        message: `duplicate ${what} ${JSON.stringify(k)}`,
      });
    seen.add(k);
  });
}

const toolKey = (ref: ToolRef) => `${ref.serverId}\u0000${ref.tool}`;
/** An assessment's identity: a resource and a tool of the same name are different items. */
const assessmentKey = (a: ToolAssessment) => `${toolKey(a)}\u0000${a.item ?? "tool"}`;

export const ReviewSchema = ReviewObjectSchema.superRefine((review, ctx) => {
  checkUnique(ctx, review.servers, (s) => s.id, "servers", "server id");
  checkUnique(ctx, review.sources, (s) => s.id, "sources", "source id");
  checkUnique(ctx, review.agents, (a) => a.id, "agents", "agent id");
  checkUnique(ctx, review.decisions, (d) => d.id, "decisions", "decision id");
  checkUnique(ctx, review.tools, assessmentKey, "tools", "tool assessment");

  const serverIds = new Set<string>(review.servers.map((s) => s.id));
  const sourceIds = new Set<string>(review.sources.map((s) => s.id));
  const agentIds = new Set<string>(review.agents.map((a) => a.id));
  const unknown = (path: (string | number)[], what: string, id: string) =>
    ctx.addIssue({ code: "custom", path, message: `unknown ${what} ${JSON.stringify(id)}` });

  review.tools.forEach((t, i) => {
    if (!serverIds.has(t.serverId)) unknown(["tools", i, "serverId"], "server", t.serverId);
    t.sourceIds.forEach((s, j) => {
      if (!sourceIds.has(s)) unknown(["tools", i, "sourceIds", j], "source", s);
    });
  });
  review.agents.forEach((a, i) =>
    a.tools.forEach((t, j) => {
      if (!serverIds.has(t.serverId))
        unknown(["agents", i, "tools", j, "serverId"], "server", t.serverId);
    }),
  );
  // Every control configuration names the server or agent it is attached to: it must exist.
  for (const [kind, list] of Object.entries(review.controls)) {
    (list as readonly { serverId?: string; agentId?: string }[]).forEach((c, i) => {
      if (c.serverId !== undefined && !serverIds.has(c.serverId))
        unknown(["controls", kind, i, "serverId"], "server", c.serverId);
      if (c.agentId !== undefined && !agentIds.has(c.agentId))
        unknown(["controls", kind, i, "agentId"], "agent", c.agentId);
    });
  }
  review.decisions.forEach((d, i) => {
    if (!serverIds.has(d.serverId)) unknown(["decisions", i, "serverId"], "server", d.serverId);
    if (!agentIds.has(d.agentId)) unknown(["decisions", i, "agentId"], "agent", d.agentId);
  });
});
export type Review = z.infer<typeof ReviewSchema>;
/** What a client sends: defaults may be omitted. */
export type ReviewInput = z.input<typeof ReviewSchema>;
