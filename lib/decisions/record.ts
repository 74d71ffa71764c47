/**
 * The exportable decision record: a strict, versioned, signed statement of one decision, readable
 * without the workbench. Strict so that what was signed is exactly what the schema describes (an
 * unknown field is malformed, not ignored); no defaults or transforms, so parsing never changes a
 * record. The signature is Ed25519 over the RFC 8785 canonical JSON of the record without its
 * `signature` field, so key order and whitespace do not matter and any other change does.
 * Secrets never appear: transports are reduced to their kind and the names of the environment
 * variables and headers they use. Pure: crypto computation only, no I/O (keys come from node/keys.ts).
 * Format documented in docs/decision-record.md; JSON Schema in public/schemas/decision-record.v1.json.
 */
import { createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { ServerTransportKindSchema } from "@/lib/transport-kind";
import { z } from "zod";
import { AppError, fieldIssuesFromZod, type FieldIssue } from "@/lib/errors";
import {
  AgentIdSchema,
  DecisionIdSchema,
  ReviewIdSchema,
  ServerIdSchema,
  Sha256Schema,
} from "@/lib/ids";
import {
  FINDING_SEVERITIES,
  ImageDigestSchema,
  type Decision,
  type Review,
  type Transport,
} from "@/lib/review/schema";
import { decisionBasis, normalizeToolSet, toolSetSha256 } from "@/lib/decisions/binding";
import { canonicalJson, sha256Hex } from "@/lib/hash";
import { transportVariableNames } from "@/lib/review/transport-variables";
import { parseStrictJson } from "@/lib/strict-json";
import type { RegistrationRecord } from "@/lib/surface/registration";
import type { DecisionFinding } from "@/lib/decisions/findings";
import {
  checkConditions,
  decisionStatus,
  type EgressDefaultDenyEvaluator,
} from "@/lib/decisions/staleness";

/**
 * The version this build writes. Version 2 added what an approval accepts (`decision.acceptedRisks`)
 * and what it supersedes (`decision.supersedes`); a version 1 record has neither, and still verifies.
 */
export const DECISION_RECORD_VERSION = 3;
/**
 * Every version this build reads. Version 3 names people instead of a typed reviewer: the
 * `author` (issuer, subject, name, time), every approver in `approvals` and the approvals the
 * decision needed (`requiredApprovals`, four eyes); a record with fewer approvals than needed is a
 * pending proposal, never in force. Versions 1 and 2 keep verifying with their `reviewer`.
 */
export const READABLE_RECORD_VERSIONS: readonly number[] = [1, 2, 3];
/** The issuer that names the owner token (break-glass) as a v3 record's author: not a person. */
export const OWNER_TOKEN_ISSUER = "urn:relay-review:owner-token";
export const DECISION_RECORD_KIND = "relay-review.decision";
export const SIGNATURE_ALG = "Ed25519";

const text = (max: number) => z.string().min(1).max(max);
const datetime = () => z.iso.datetime();
const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/);
const HeaderNameSchema = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/);

const RecordToolRefSchema = z.strictObject({ serverId: ServerIdSchema, tool: text(256) });

const RecordConditionSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("tool_absent_from_agent"), tool: RecordToolRefSchema }),
  z.strictObject({ kind: z.literal("egress_default_deny"), serverId: ServerIdSchema }),
  z.strictObject({ kind: z.literal("credential_read_only"), serverId: ServerIdSchema }),
  z.strictObject({ kind: z.literal("approval_out_of_band"), agentId: AgentIdSchema }),
  z.strictObject({ kind: z.literal("surface_pinned_block"), serverId: ServerIdSchema }),
]);

const RecordPersonSchema = z.strictObject({
  issuer: text(500),
  subject: text(255),
  name: text(120),
  at: datetime(),
});

const RecordDecisionSchema = z.strictObject({
  id: DecisionIdSchema,
  serverId: ServerIdSchema,
  agentId: AgentIdSchema,
  verdict: z.enum(["approved", "approved_with_conditions", "rejected"]),
  toolSet: z
    .array(RecordToolRefSchema)
    .max(10_000)
    .describe("The agent's whole tool set, sorted by serverId then tool, no duplicates."),
  conditions: z.array(RecordConditionSchema).max(100),
  reviewer: text(120)
    .optional()
    .describe("Versions 1 and 2: who decided, as typed. Version 3 names the author instead."),
  author: RecordPersonSchema.optional().describe(
    `Version 3: who made the decision, from the identity provider (issuer, subject, name, time); the owner token (break-glass) has issuer ${"urn:relay-review:owner-token"}.`,
  ),
  requiredApprovals: z
    .number()
    .int()
    .min(0)
    .max(5)
    .optional()
    .describe("Version 3: approvals needed from people other than the author (four eyes)."),
  approvals: z
    .array(RecordPersonSchema)
    .max(5)
    .optional()
    .describe(
      "Version 3: every approver, each a person other than the author. Fewer than requiredApprovals: a pending proposal, not in force.",
    ),
  rationale: text(20_000),
  decidedAt: datetime(),
  pin: z
    .strictObject({
      surfaceSha256: Sha256Schema,
      pinnedAt: datetime(),
      pinnedBy: text(120),
      reason: z.string().max(4000),
      onSurfaceChange: z.enum(["block", "warn"]),
    })
    .nullable()
    .optional()
    .describe(
      "The server's surface pin when the decision was made, with when, by whom and why it was pinned; null when it had none. Absent in records of decisions made before records named their pin.",
    ),
  acceptedRisks: z
    .array(
      z.strictObject({
        findingId: z
          .string()
          .regex(/^fnd-[0-9a-f]{24}$/)
          .describe("Stable id: fnd- and 24 hex of SHA-256 of the finding's kind and subject."),
        kind: text(120),
        severity: z.enum(FINDING_SEVERITIES),
        text: text(2000).describe("The finding as the reviewer was shown it."),
        ends: z
          .strictObject({ from: z.string().max(500), to: z.string().max(500) })
          .nullable()
          .describe("A path's ends: where the untrusted text is written, the sink it reaches."),
        owner: text(120).describe("Who owns the accepted risk."),
        why: text(4000),
        until: datetime().describe("The acceptance ends here; after it the decision is stale."),
      }),
    )
    .max(1000)
    .optional()
    .describe(
      "Version 2, approvals only: the open findings the approval accepts, with owner, reason and end date. Empty: it accepts none.",
    ),
  supersedes: DecisionIdSchema.nullable()
    .optional()
    .describe(
      "Version 2: the earlier decision for the same server and agent this one replaced; null when none.",
    ),
  bound: z
    .strictObject({
      surfaceSha256: Sha256Schema.nullable().describe(
        "Live surface fingerprint; null when the decision was made against declared tools.",
      ),
      imageDigest: ImageDigestSchema.nullable(),
      toolSetSha256: Sha256Schema.describe("SHA-256 of the RFC 8785 JSON of toolSet."),
      controlsSha256: Sha256Schema,
      revision: z.number().int().min(1).describe("The review revision the decision was made at."),
      grantedScopes: z
        .array(z.string().max(200))
        .max(64)
        .optional()
        .describe(
          "The scopes the server's OAuth grant held when the decision was made, sorted, no duplicates; a wider grant later makes the decision stale. Absent when the server was not reached through OAuth, and in records of decisions made before decisions bound their grant.",
        ),
    })
    .describe(
      "What the decision was made against; a change to any of it makes the decision stale.",
    ),
});

const RecordTransportSchema = z
  .strictObject({
    kind: ServerTransportKindSchema,
    envNames: z
      .array(EnvNameSchema)
      .max(128)
      .describe(
        "Environment variables the server needs (stdio), or that hold header values (http/sse).",
      ),
    headerEnv: z
      .record(HeaderNameSchema, EnvNameSchema)
      .describe("HTTP header name → environment variable holding its value."),
  })
  .describe(
    "How the server is reached, reduced to its kind and the names (never values) of what it needs.",
  );

/** Fingerprint algorithm version of `surface_sha256` (lib/surface/fingerprint.ts FINGERPRINT_VERSION; a test keeps them equal). */
export const RECORD_FINGERPRINT_VERSION = 1;

const ItemHashEntrySchema = z.strictObject({ key: z.string().max(2000), sha256: Sha256Schema });

/**
 * The seed's registration shape, which a gate compares against the live surface at every startup;
 * the same fields as lib/surface/registration.ts RegistrationRecord, so `comparePin` reads it.
 */
const RegistrationSchema = z.strictObject({
  server: text(120),
  image: ImageDigestSchema.nullable(),
  surface_sha256: Sha256Schema,
  surface: z.strictObject({
    tools: z.array(text(256)).max(10_000),
    resources: z
      .array(text(2000))
      .max(10_000)
      .describe(
        "Resource URIs, each admitting exactly itself. In records without resourceTemplates (written before it existed), URIs and templates together; a reader then takes as templates only the entries item_sha256.resourceTemplates names, and every other entry as an exact URI.",
      ),
    resourceTemplates: z
      .array(text(2000))
      .max(10_000)
      .optional()
      .describe(
        "Resource templates (RFC 6570), matched strictly (docs/gate.md). Absent in records written before templates were kept apart from URIs.",
      ),
    prompts: z.array(text(256)).max(10_000),
  }),
  on_surface_change: z.enum(["block", "warn"]),
  declared_capabilities: z
    .array(z.string().max(64))
    .max(16)
    .describe("The client capabilities the fingerprinted inspection declared."),
  fingerprint_version: z.literal(RECORD_FINGERPRINT_VERSION),
  item_sha256: z
    .strictObject({
      tools: z.array(ItemHashEntrySchema).max(10_000),
      resources: z.array(ItemHashEntrySchema).max(10_000),
      resourceTemplates: z.array(ItemHashEntrySchema).max(10_000),
      prompts: z.array(ItemHashEntrySchema).max(10_000),
      instructions: Sha256Schema.nullable(),
      uiResources: z
        .array(ItemHashEntrySchema)
        .max(10_000)
        .optional()
        .describe(
          "MCP Apps ui:// resources as read (docs/fingerprint.md §1.1); only when the surface has one.",
        ),
    })
    .optional()
    .describe("Per-item hashes, so a mismatch can name the changed item."),
  era: z
    .enum(["2025", "2026"])
    .optional()
    .describe(
      "The protocol era the fingerprinted inspection spoke (2026: the 2026-07-28 revision); a gate speaks it upstream. Absent in records written before the 2026 era was spoken.",
    ),
  elicitation_url_domains: z
    .array(
      z
        .string()
        .max(253)
        .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/),
    )
    .max(100)
    .optional()
    .describe(
      "Hosts a URL-mode elicitation may send the user to (an input_required request through the gate); absent or empty: none.",
    ),
});
export type Registration = z.infer<typeof RegistrationSchema>;

const ConditionCheckRecordSchema = z.strictObject({
  holds: z.boolean().nullable(),
  reason: text(2000),
});

const SignatureSchema = z.strictObject({
  alg: z.literal(SIGNATURE_ALG),
  keyId: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .describe("First 16 hex of SHA-256 of the raw 32-byte Ed25519 public key."),
  value: z
    .string()
    .regex(/^[A-Za-z0-9+/]{86}==$/)
    // The 86th character carries 4 bits the 64 bytes do not use: without this, 16 spellings of
    // one signature would verify, and a record could be changed without breaking it.
    .refine((v) => Buffer.from(v, "base64").toString("base64") === v, {
      message: "must be canonical base64 (the unused bits of the last character zero)",
    })
    .describe("Canonical base64 of the 64-byte Ed25519 signature (unused bits zero)."),
});

const unsignedShape = {
  recordVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  kind: z.literal(DECISION_RECORD_KIND),
  issuedAt: datetime(),
  review: z.strictObject({
    id: ReviewIdSchema,
    title: text(200),
    revision: z.number().int().min(1).describe("The review revision at issue time."),
  }),
  decision: RecordDecisionSchema,
  basis: z.strictObject({ kind: z.enum(["live_surface", "declared_tools"]), statement: text(200) }),
  server: z.strictObject({
    id: ServerIdSchema,
    name: text(120),
    transport: RecordTransportSchema,
    imageDigest: ImageDigestSchema.nullable(),
  }),
  agent: z.strictObject({ id: AgentIdSchema, name: text(120) }),
  conditionChecks: z
    .array(ConditionCheckRecordSchema)
    .max(100)
    .describe("Each condition as checked at issue time, in the order of decision.conditions."),
  registration: RegistrationSchema.nullable(),
};

type UnsignedShape = z.infer<z.ZodObject<typeof unsignedShape>>;

/** Cross-field invariants a well-formed record keeps (not expressible in the JSON Schema). */
function checkConsistency(r: UnsignedShape, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path, message });
  const d = r.decision;
  if (r.server.id !== d.serverId) issue(["server", "id"], "must equal decision.serverId");
  if (r.agent.id !== d.agentId) issue(["agent", "id"], "must equal decision.agentId");
  if (r.server.imageDigest !== d.bound.imageDigest)
    issue(["server", "imageDigest"], "must equal decision.bound.imageDigest");
  if (canonicalJson(normalizeToolSet(d.toolSet)) !== canonicalJson(d.toolSet))
    issue(["decision", "toolSet"], "must be sorted by serverId then tool, without duplicates");
  if (toolSetSha256(d.toolSet) !== d.bound.toolSetSha256)
    issue(["decision", "bound", "toolSetSha256"], "does not match decision.toolSet");
  if (r.recordVersion === 3) {
    if (d.reviewer !== undefined)
      issue(["decision", "reviewer"], "a version 3 record names its author, not a typed reviewer");
    if (d.author === undefined)
      issue(["decision", "author"], "a version 3 record names its author");
    if (d.requiredApprovals === undefined || d.approvals === undefined)
      issue(
        ["decision", "approvals"],
        "a version 3 record lists its approvals and how many it needs",
      );
    const key = (p: { issuer: string; subject: string }) => JSON.stringify([p.issuer, p.subject]);
    const seen = new Set(d.author ? [key(d.author)] : []);
    for (const [i, a] of (d.approvals ?? []).entries()) {
      if (seen.has(key(a)))
        issue(
          ["decision", "approvals", i],
          "an approver is a person other than the author and the other approvers",
        );
      if (a.issuer === OWNER_TOKEN_ISSUER)
        issue(["decision", "approvals", i], "the owner token is not a person and cannot approve");
      seen.add(key(a));
    }
  } else {
    if (d.reviewer === undefined)
      issue(["decision", "reviewer"], "versions 1 and 2 name the reviewer");
    for (const f of ["author", "requiredApprovals", "approvals"] as const)
      if (d[f] !== undefined) issue(["decision", f], "appears only in version 3 records");
  }
  if (r.recordVersion === 1) {
    if (d.acceptedRisks !== undefined)
      issue(["decision", "acceptedRisks"], "appears only in version 2 records");
    if (d.supersedes !== undefined)
      issue(["decision", "supersedes"], "appears only in version 2 records");
  } else {
    if (d.supersedes === undefined)
      issue(
        ["decision", "supersedes"],
        "a version 2 or 3 record names what it supersedes (or null)",
      );
    if (d.verdict === "rejected" && d.acceptedRisks !== undefined)
      issue(["decision", "acceptedRisks"], "a rejection accepts no risk");
    if (d.verdict !== "rejected" && d.acceptedRisks === undefined)
      issue(["decision", "acceptedRisks"], "a version 2 approval says what it accepts (or [])");
  }
  if (r.conditionChecks.length !== d.conditions.length)
    issue(["conditionChecks"], "must have one entry per decision condition");
  if (
    d.pin?.onSurfaceChange === "block" &&
    d.verdict !== "rejected" &&
    d.bound.surfaceSha256 !== null &&
    d.pin.surfaceSha256 !== d.bound.surfaceSha256
  )
    issue(
      ["decision", "pin", "surfaceSha256"],
      "an approval under a blocking pin must be bound to the pinned surface",
    );
  const basis = decisionBasis(d);
  if (r.basis.kind !== basis.kind || r.basis.statement !== basis.label)
    issue(["basis"], "does not match decision.bound.surfaceSha256");
  if (r.registration) {
    if (r.registration.surface_sha256 !== d.bound.surfaceSha256)
      issue(["registration", "surface_sha256"], "must equal decision.bound.surfaceSha256");
    if (r.registration.image !== d.bound.imageDigest)
      issue(["registration", "image"], "must equal decision.bound.imageDigest");
    if (r.registration.server !== r.server.name)
      issue(["registration", "server"], "must equal server.name");
  }
}

/** A decision record before signing. */
export const UnsignedDecisionRecordSchema = z
  .strictObject(unsignedShape)
  .superRefine(checkConsistency);
export type UnsignedDecisionRecord = z.infer<typeof UnsignedDecisionRecordSchema>;

/** A signed decision record, as exported. Parse with `parseDecisionRecord`; check with `verifyRecord`. */
export const DecisionRecordSchema = z
  .strictObject({ ...unsignedShape, signature: SignatureSchema })
  .superRefine(checkConsistency)
  .meta({
    title: "Relay Review decision record",
    description:
      "A signed decision: a server approved (or rejected) into a named agent with a named tool set.",
  });
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;
export type RecordSignature = z.infer<typeof SignatureSchema>;

/**
 * What the decision's live inspection contributes to the registration block. Build it from a
 * snapshot with lib/surface/registration.ts: `const r = buildRegistrationRecord(snapshot)` →
 * `{ surfaceSha256: r.surface_sha256, ...r.surface, declaredCapabilities: r.declared_capabilities, itemSha256: r.item_sha256 }`.
 */
export type RecordSurface = {
  /** Must be the surface the decision is bound to. */
  surfaceSha256: string;
  tools: string[];
  /**
   * Resource URIs. With `resourceTemplates` omitted, URIs and templates together (the registration
   * record's list), told apart by `itemSha256.resourceTemplates`.
   */
  resources: string[];
  /** Resource templates, when the caller has them apart from the URIs. */
  resourceTemplates?: string[];
  prompts: string[];
  declaredCapabilities: string[];
  itemSha256?: Registration["item_sha256"];
  /** The era the inspection spoke (the snapshot's `era`). */
  era?: "2025" | "2026";
  /** Hosts the reviewer admits for URL-mode elicitation through the gate. */
  elicitationUrlDomains?: string[];
};

/** The `RecordSurface` of a registration record built from the decision's snapshot. */
export function recordSurfaceOf(
  r: RegistrationRecord,
  more: Pick<RecordSurface, "era" | "elicitationUrlDomains"> = {},
): RecordSurface {
  return {
    surfaceSha256: r.surface_sha256,
    ...r.surface,
    declaredCapabilities: r.declared_capabilities,
    ...(r.item_sha256 ? { itemSha256: r.item_sha256 } : {}),
    ...(more.era ? { era: more.era } : {}),
    ...(more.elicitationUrlDomains ? { elicitationUrlDomains: more.elicitationUrlDomains } : {}),
  };
}

/**
 * The surface's resource URIs and templates, in separate sorted lists: a URI with braces in it is
 * still one URI, and only a template the server listed as one admits other URIs (issue 28).
 */
function resourcesApart(surface: RecordSurface): {
  resources: string[];
  resourceTemplates: string[];
} {
  const templates =
    surface.resourceTemplates ?? surface.itemSha256?.resourceTemplates.map((t) => t.key) ?? [];
  const uris =
    surface.resourceTemplates !== undefined || !surface.itemSha256
      ? surface.resources
      : surface.itemSha256.resources.map((r) => r.key);
  return {
    resources: [...new Set(uris)].sort(),
    resourceTemplates: [...new Set(templates)].sort(),
  };
}

function recordTransport(t: Transport): UnsignedDecisionRecord["server"]["transport"] {
  const names = (xs: readonly string[]) => [...new Set(xs)].sort();
  switch (t.kind) {
    // Every name the server is given, `${NAME}`s in its arguments or URL included (lib/review/transport-variables.ts).
    case "stdio":
      return { kind: "stdio", envNames: names(transportVariableNames(t)), headerEnv: {} };
    case "http":
    case "sse":
      return {
        kind: t.kind,
        envNames: names(transportVariableNames(t)),
        headerEnv: { ...t.headerEnv },
      };
    case "manual":
      return { kind: "manual", envNames: [], headerEnv: {} };
  }
}

export type BuildDecisionRecordInput = {
  review: Review;
  reviewId: string;
  /** The review's revision now. */
  revision: number;
  decision: Decision;
  issuedAt: Date | string;
  /** Fingerprint of the server's latest live inspection, null when never inspected. */
  currentSurfaceSha256: string | null;
  /** The scopes the server's current inspection was granted (null: no OAuth grant); omitted: not checked. */
  currentGrantedScopes?: readonly string[] | null;
  /** The latest inspection's listed names; gives the record its registration block. */
  surface?: RecordSurface | null;
  evaluateEgressDefaultDeny?: EgressDefaultDenyEvaluator;
  /** The open findings of the decision's agent and server now; omitted: not checked. */
  openFindings?: readonly DecisionFinding[];
  /** The newer decision for the same pair that replaced this one, if any: a superseded decision gets no record. */
  supersededBy?: string | null;
};

/**
 * The unsigned record of a decision that is still current. Throws AppError CONFLICT when the
 * decision is stale (a signed record of a stale decision would vouch for a pair that no longer
 * exists: decide again first), BAD_REQUEST when the decision is not in the review.
 */
export function buildDecisionRecord(input: BuildDecisionRecordInput): UnsignedDecisionRecord {
  const { review, decision } = input;
  if (!review.decisions.some((d) => d.id === decision.id)) {
    throw new AppError("BAD_REQUEST", `decision ${decision.id} is not in this review`);
  }
  if (input.supersededBy) {
    throw new AppError(
      "CONFLICT",
      `decision ${decision.id} was superseded by decision ${input.supersededBy} for the same server and agent; only the decision in force gets a signed record`,
      { details: { reason: "superseded", supersededBy: input.supersededBy } },
    );
  }
  const issuedAt = typeof input.issuedAt === "string" ? new Date(input.issuedAt) : input.issuedAt;
  const status = decisionStatus(decision, {
    review,
    currentSurfaceSha256: input.currentSurfaceSha256,
    currentRevision: input.revision,
    ...(input.openFindings ? { openFindings: input.openFindings } : {}),
    ...(Number.isNaN(issuedAt.getTime()) ? {} : { now: issuedAt }),
    ...(input.currentGrantedScopes !== undefined
      ? { currentGrantedScopes: input.currentGrantedScopes }
      : {}),
  });
  if (status.state === "stale") {
    throw new AppError(
      "CONFLICT",
      `the decision is stale (${status.changes.map((c) => c.message).join("; ")}); decide again before exporting it`,
      {
        details: { changes: status.changes },
      },
    );
  }
  // Not stale, so both exist.
  const server = review.servers.find((s) => s.id === decision.serverId)!;
  const agent = review.agents.find((a) => a.id === decision.agentId)!;
  const basis = decisionBasis(decision);
  const surface = input.surface ?? null;
  if (surface !== null && surface.surfaceSha256 !== decision.bound.surfaceSha256) {
    throw new AppError(
      "BAD_REQUEST",
      "the surface given for the registration is not the one the decision is bound to",
      {
        details: { bound: decision.bound.surfaceSha256, given: surface.surfaceSha256 },
      },
    );
  }
  const registration: Registration | null =
    decision.bound.surfaceSha256 !== null && surface !== null
      ? {
          server: server.name,
          image: server.imageDigest,
          surface_sha256: decision.bound.surfaceSha256,
          surface: {
            tools: [...surface.tools].sort(),
            ...resourcesApart(surface),
            prompts: [...surface.prompts].sort(),
          },
          on_surface_change: server.pin?.onSurfaceChange ?? "block",
          declared_capabilities: [...surface.declaredCapabilities].sort(),
          fingerprint_version: RECORD_FINGERPRINT_VERSION,
          ...(surface.itemSha256 ? { item_sha256: surface.itemSha256 } : {}),
          ...(surface.era ? { era: surface.era } : {}),
          ...(surface.elicitationUrlDomains
            ? { elicitation_url_domains: [...new Set(surface.elicitationUrlDomains)].sort() }
            : {}),
        }
      : null;
  const checks = checkConditions(decision, review, {
    evaluateEgressDefaultDeny: input.evaluateEgressDefaultDeny,
  });
  const parsed = UnsignedDecisionRecordSchema.safeParse({
    recordVersion: DECISION_RECORD_VERSION,
    kind: DECISION_RECORD_KIND,
    issuedAt: Number.isNaN(issuedAt.getTime()) ? String(input.issuedAt) : issuedAt.toISOString(),
    review: { id: input.reviewId, title: review.title, revision: input.revision },
    decision: {
      id: decision.id,
      serverId: decision.serverId,
      agentId: decision.agentId,
      verdict: decision.verdict,
      toolSet: normalizeToolSet(decision.toolSet),
      conditions: decision.conditions,
      author: decision.author
        ? {
            issuer: decision.author.issuer,
            subject: decision.author.subject,
            name: decision.author.name,
            at: decision.author.at,
          }
        : {
            issuer: OWNER_TOKEN_ISSUER,
            subject: "owner",
            name: "owner token",
            at: decision.decidedAt,
          },
      requiredApprovals: decision.requiredApprovals ?? 0,
      approvals: (decision.approvals ?? []).map((a) => ({
        issuer: a.issuer,
        subject: a.subject,
        name: a.name,
        at: a.at,
      })),
      rationale: decision.rationale,
      decidedAt: decision.decidedAt,
      ...(decision.pin !== undefined ? { pin: decision.pin } : {}),
      ...(decision.verdict !== "rejected" ? { acceptedRisks: decision.acceptedRisks ?? [] } : {}),
      supersedes: decision.supersedes ?? null,
      bound: decision.bound,
    },
    basis: { kind: basis.kind, statement: basis.label },
    server: {
      id: server.id,
      name: server.name,
      transport: recordTransport(server.transport),
      imageDigest: server.imageDigest,
    },
    agent: { id: agent.id, name: agent.name },
    conditionChecks: checks.map((c) => ({ holds: c.holds, reason: c.reason })),
    registration,
  } satisfies z.input<typeof UnsignedDecisionRecordSchema>);
  if (!parsed.success) {
    throw new AppError("BAD_REQUEST", "the decision cannot be written as a record", {
      issues: fieldIssuesFromZod(parsed.error.issues),
    });
  }
  return parsed.data;
}

/** Whether a record is a proposal still waiting for approvers (never in force). */
export function isPendingRecord(r: {
  decision: { requiredApprovals?: number; approvals?: readonly unknown[] };
}): boolean {
  return (r.decision.approvals?.length ?? 0) < (r.decision.requiredApprovals ?? 0);
}

/** The raw 32-byte Ed25519 public key. */
function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: "jwk" });
  if (typeof jwk.x !== "string") throw new TypeError("not an Ed25519 key");
  return Buffer.from(jwk.x, "base64url");
}

function asPublicKey(key: KeyObject | string): KeyObject {
  const k =
    typeof key === "string"
      ? createPublicKey(key)
      : key.type === "private"
        ? createPublicKey(key)
        : key;
  if (k.asymmetricKeyType !== "ed25519")
    throw new TypeError(`expected an Ed25519 key, got ${k.asymmetricKeyType ?? k.type}`);
  return k;
}

/** First 16 hex of SHA-256 of the raw public key (a private key is reduced to its public half). */
export function signingKeyId(key: KeyObject | string): string {
  return sha256Hex(rawPublicKey(asPublicKey(key))).slice(0, 16);
}

/**
 * SHA-256 (64 hex) of the raw 32-byte public key: the trust anchor a client config pins
 * (`gate --key-sha256`), whole, unlike the 16-hex keyId that only labels a signature.
 */
export function signingKeySha256(key: KeyObject | string): string {
  return sha256Hex(rawPublicKey(asPublicKey(key)));
}

/** The bytes a signature covers: RFC 8785 canonical JSON of the record without `signature`. */
export function signingInput(record: object): Buffer {
  const { signature: _signature, ...rest } = record as { signature?: unknown };
  return Buffer.from(canonicalJson(rest), "utf8");
}

/** Sign a record (re-validated first). Throws when the record is invalid or keyId is not the key's id. */
export function signRecord(
  unsigned: UnsignedDecisionRecord,
  privateKey: KeyObject,
  keyId: string = signingKeyId(privateKey),
): DecisionRecord {
  const record = UnsignedDecisionRecordSchema.parse(unsigned);
  if (keyId !== signingKeyId(privateKey))
    throw new TypeError(`keyId ${keyId} is not the id of this key (${signingKeyId(privateKey)})`);
  const value = sign(null, signingInput(record), privateKey).toString("base64");
  return { ...record, signature: { alg: SIGNATURE_ALG, keyId, value } };
}

export type VerifyFailureReason = "unsigned" | "tampered" | "wrong_key" | "malformed" | "bad_key";
export type VerifyResult =
  | { ok: true; record: DecisionRecord; keyId: string }
  | { ok: false; reason: VerifyFailureReason; message: string; issues?: FieldIssue[] };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Check a record's signature with `publicKey`. Never throws: `input` may be anything (a JSON text
 * is parsed first, strictly: a duplicate key at any depth is malformed). Pass the text as read: a
 * parsed value has already lost its duplicates. Reasons: `malformed` (not a v1 record), `unsigned` (no signature), `wrong_key`
 * (signed by another key), `tampered` (signed by this key, changed since), `bad_key` (the key given
 * is not a usable Ed25519 key). The signature is checked before the schema, so a changed record
 * reads as tampered rather than as a schema error.
 */
export function verifyRecord(input: unknown, publicKey: KeyObject | string): VerifyResult {
  const fail = (
    reason: VerifyFailureReason,
    message: string,
    issues?: FieldIssue[],
  ): VerifyResult => ({ ok: false, reason, message, ...(issues ? { issues } : {}) });
  let key: KeyObject;
  let ourKeyId: string;
  try {
    key = asPublicKey(publicKey);
    ourKeyId = signingKeyId(key);
  } catch (error) {
    return fail(
      "bad_key",
      `the public key cannot be used: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let value: unknown = input;
  if (typeof input === "string") {
    // Strict: with a duplicate key the signature would cover the last value while a reader keeping the first sees another record.
    const parsed = parseStrictJson(input);
    if (!parsed.ok) return fail("malformed", `the record is not valid JSON: ${parsed.message}`);
    value = parsed.value;
  }
  if (!isPlainObject(value)) return fail("malformed", "the record is not a JSON object");
  if (value.kind !== DECISION_RECORD_KIND)
    return fail(
      "malformed",
      `not a decision record (kind must be ${JSON.stringify(DECISION_RECORD_KIND)})`,
    );
  if (
    typeof value.recordVersion !== "number" ||
    !READABLE_RECORD_VERSIONS.includes(value.recordVersion)
  ) {
    return fail(
      "malformed",
      `unsupported recordVersion ${JSON.stringify(value.recordVersion)} (this build reads versions ${READABLE_RECORD_VERSIONS.join(" and ")})`,
    );
  }
  if (value.signature === undefined || value.signature === null)
    return fail("unsigned", "the record has no signature");
  const signature = SignatureSchema.safeParse(value.signature);
  if (!signature.success)
    return fail(
      "malformed",
      "the signature field is malformed",
      fieldIssuesFromZod(signature.error.issues, "signature."),
    );

  let isValid: boolean;
  try {
    isValid = verify(null, signingInput(value), key, Buffer.from(signature.data.value, "base64"));
  } catch (error) {
    return fail(
      "malformed",
      `the record cannot be canonicalised: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!isValid) {
    return signature.data.keyId === ourKeyId
      ? fail("tampered", `the record was changed after it was signed by key ${ourKeyId}`)
      : fail(
          "wrong_key",
          `the record was signed by key ${signature.data.keyId}, not by the given key ${ourKeyId}`,
        );
  }
  if (signature.data.keyId !== ourKeyId) {
    return fail(
      "tampered",
      `the signature verifies with key ${ourKeyId}, but its keyId was changed to ${signature.data.keyId}`,
    );
  }
  const parsed = DecisionRecordSchema.safeParse(value);
  if (!parsed.success)
    return fail(
      "malformed",
      `the record is signed but is not a valid version ${String(value.recordVersion)} decision record`,
      fieldIssuesFromZod(parsed.error.issues),
    );
  return { ok: true, record: parsed.data, keyId: ourKeyId };
}

export type ParseDecisionRecordResult =
  { ok: true; record: DecisionRecord } | { ok: false; error: AppError };

/**
 * Parse a signed record (a JSON text or a parsed value) against the v1 schema. Checks the shape
 * only; use `verifyRecord` to check the signature. A failure is a BAD_REQUEST AppError whose
 * `details.reason` is `malformed` or `unsigned`.
 */
export function parseDecisionRecord(json: unknown): ParseDecisionRecordResult {
  const failure = (
    reason: "malformed" | "unsigned",
    userMessage: string,
    issues?: FieldIssue[],
  ): ParseDecisionRecordResult => ({
    ok: false,
    error: new AppError("BAD_REQUEST", userMessage, {
      details: { reason },
      ...(issues ? { issues } : {}),
    }),
  });
  let value: unknown = json;
  if (typeof json === "string") {
    const parsed = parseStrictJson(json);
    if (!parsed.ok)
      return failure("malformed", `the decision record is not valid JSON: ${parsed.message}`);
    value = parsed.value;
  }
  if (isPlainObject(value) && (value.signature === undefined || value.signature === null)) {
    return failure("unsigned", "the decision record has no signature");
  }
  const parsed = DecisionRecordSchema.safeParse(value);
  if (!parsed.success) {
    const issues = fieldIssuesFromZod(parsed.error.issues);
    return failure(
      "malformed",
      `invalid decision record: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
  return { ok: true, record: parsed.data };
}
