/**
 * What a gate enforces, derived from a verified decision record, and the checks it can make
 * offline. Pure: no SDK, no I/O. Read by the gate (lib/mcp/node/gate.ts) and its authorization
 * table (lib/gate/authorize.ts).
 *
 * Invariants:
 * - Only a record of an approval made against a live surface can run a gate: a rejected decision
 *   has nothing to forward, and a decision made against declared tools has no fingerprint to
 *   compare the server with at startup.
 * - The approved tools are the record's `decision.toolSet` entries for the record's own server
 *   (the tool set names the agent's whole session, other servers' tools included).
 * - Resources, resource templates and prompts pass only when the record's registration block
 *   names them: a resource URI admits exactly itself, a template the URIs it strictly matches
 *   (lib/gate/uri-template.ts). A URI with braces in it is a URI, not a template: only
 *   `surface.resourceTemplates` names templates, or, in a record written before that field,
 *   the entries its signed `item_sha256.resourceTemplates` names (none when it has no hashes).
 * - "Stale", as far as the gate can tell without the workbench: the live surface does not match
 *   the record's fingerprint, the inspection could not declare the record's client capabilities,
 *   the record is older than `--max-age-days`, or an acceptance the record carries
 *   (`decision.acceptedRisks[].until`) has ended. Whether a newer decision superseded this one is
 *   known only to the workbench that issued it; the gate cannot see that offline.
 */
import type { ContentFlaggedEvent, ContentReleasedEvent } from "@/lib/detection/gate-scan";
import type { DecisionRecord } from "@/lib/decisions/record";
import type { InputRequiredEvent } from "@/lib/gate/input-required";

export type GatePolicy = {
  decisionId: string;
  serverId: string;
  serverName: string;
  agentName: string;
  surfaceSha256: string;
  declaredCapabilities: string[];
  onSurfaceChange: "block" | "warn";
  tools: ReadonlySet<string>;
  /** Resource URIs named by the record (exact match). */
  resources: ReadonlySet<string>;
  /** Resource templates (matched strictly, lib/gate/uri-template.ts) and prompts named by the record. */
  resourceTemplates: readonly string[];
  prompts: ReadonlySet<string>;
};

export type GateRefusal = { reason: GateRefusalReason; message: string };
export type GateRefusalReason =
  | "unsigned"
  | "tampered"
  | "wrong_key"
  | "malformed"
  | "bad_key"
  | "rejected_decision"
  | "no_live_surface"
  | "stale"
  | "surface_mismatch"
  | "incomparable"
  | "upstream_failed";

/** The record's resource URIs and templates, apart (see the header for older records). */
function resourcesOf(reg: NonNullable<DecisionRecord["registration"]>): {
  resources: string[];
  templates: string[];
} {
  const { resources, resourceTemplates } = reg.surface;
  if (resourceTemplates !== undefined) return { resources, templates: resourceTemplates };
  const named = new Set((reg.item_sha256?.resourceTemplates ?? []).map((t) => t.key));
  return {
    resources: resources.filter((r) => !named.has(r)),
    templates: resources.filter((r) => named.has(r)),
  };
}

/** The gate's policy from a verified record, or why this record cannot run a gate. */
export function gatePolicyFromRecord(
  record: DecisionRecord,
): { ok: true; policy: GatePolicy } | { ok: false; refusal: GateRefusal } {
  const d = record.decision;
  if (d.verdict === "rejected") {
    return {
      ok: false,
      refusal: {
        reason: "rejected_decision",
        message: `decision ${d.id} rejected ${record.server.name} for ${record.agent.name}; a gate forwards only approved decisions`,
      },
    };
  }
  const reg = record.registration;
  if (reg === null || d.bound.surfaceSha256 === null) {
    return {
      ok: false,
      refusal: {
        reason: "no_live_surface",
        message: `decision ${d.id} was ${record.basis.statement}; the gate needs a decision bound to a live surface fingerprint to check the server against`,
      },
    };
  }
  const { resources, templates } = resourcesOf(reg);
  const tools = new Set(
    d.toolSet.filter((t) => t.serverId === record.server.id).map((t) => t.tool),
  );
  return {
    ok: true,
    policy: {
      decisionId: d.id,
      serverId: record.server.id,
      serverName: record.server.name,
      agentName: record.agent.name,
      surfaceSha256: reg.surface_sha256,
      declaredCapabilities: [...reg.declared_capabilities],
      onSurfaceChange: reg.on_surface_change,
      tools,
      resources: new Set(resources),
      resourceTemplates: templates,
      prompts: new Set(reg.surface.prompts),
    },
  };
}

/**
 * The age past which `gate` and `verify-record` refuse a record unless `--max-age-days` says
 * otherwise: a quarter, so a decision nobody looked at again for three months stops vouching
 * (the workbench issues a fresh record of a current decision at any time).
 */
export const DEFAULT_MAX_RECORD_AGE_DAYS = 90;

/** `--max-age-days`: a record issued longer ago is refused as stale. Null: fresh enough. */
export function checkRecordAge(
  record: Pick<DecisionRecord, "issuedAt">,
  now: Date,
  maxAgeDays: number | null,
): GateRefusal | null {
  if (maxAgeDays === null) return null;
  const ageMs = now.getTime() - new Date(record.issuedAt).getTime();
  const days = ageMs / 86_400_000;
  if (days <= maxAgeDays) return null;
  return {
    reason: "stale",
    message: `the record was issued ${record.issuedAt}, ${Math.floor(days)} days ago, beyond --max-age-days ${maxAgeDays}; export a fresh record from the workbench`,
  };
}

/**
 * The acceptances in the record that have ended by `now`, named (finding id, kind, severity, end),
 * earliest first: the approval vouched for each finding only until then, so from that moment the
 * record vouches for nothing (the workbench calls the decision stale with the same reason). Null:
 * none has ended (a version 1 record, or a rejection, accepts nothing).
 */
export function endedAcceptances(
  record: Pick<DecisionRecord, "decision">,
  now: Date,
): string | null {
  const ended = (record.decision.acceptedRisks ?? [])
    .filter((a) => new Date(a.until).getTime() <= now.getTime())
    .sort((a, b) => new Date(a.until).getTime() - new Date(b.until).getTime());
  if (ended.length === 0) return null;
  return `decision ${record.decision.id} accepted risk only until a date that has passed: ${ended
    .map((a) => `${a.findingId} (${a.kind}, ${a.severity}) ended ${a.until}`)
    .join("; ")}`;
}

/** At start (`gate`, `verify-record`): a record with an ended acceptance is refused as stale. */
export function checkAcceptedRisks(
  record: Pick<DecisionRecord, "decision">,
  now: Date,
): GateRefusal | null {
  const ended = endedAcceptances(record, now);
  return ended === null
    ? null
    : {
        reason: "stale",
        message: `${ended}; decide again in the workbench and export a fresh record`,
      };
}

/** Events the gate writes to stderr, one JSON object per line. */
export type GateEvent =
  /** A relayed result lib/detection flagged (issue 31): a count, never a refusal. */
  | ContentFlaggedEvent
  /** An input_required result (2026-07-28) relayed to the agent or refused (lib/gate/input-required.ts). */
  | InputRequiredEvent
  /** A held result a reviewer released, answered to the agent's repeated request. */
  | ContentReleasedEvent
  | {
      event: "gate_started";
      server: string;
      decision: string;
      surface_sha256: string;
      tools: string[];
      /** The protocol era the gate speaks upstream (the record's, unless --era). */
      era?: "2025" | "2026";
      /** Hosts URL-mode elicitation may send the agent's user to (the record's; none when empty). */
      elicitation_url_domains?: string[];
      transport: string;
      listen?: string;
      /** A stdio server started in the sandbox (`relay-review gate --sandbox`): its network grants, none for loopback only. */
      sandbox?: { egress: string[] };
    }
  | { event: "refused_start"; reason: GateRefusalReason; message: string }
  | { event: "refused_call"; tool: string; server: string; decision: string }
  /** An acceptance in the record ended while the gate ran: nothing is forwarded any more. */
  | { event: "acceptance_ended"; server: string; decision: string; message: string }
  | {
      event: "refused_request";
      method: string;
      target: string;
      reason?: "no_rule";
      server: string;
      decision: string;
    }
  | {
      event: "surface_changed";
      server: string;
      decision: string;
      expected: string;
      actual: string;
      on_surface_change: "block" | "warn";
    }
  | { event: "upstream_closed"; server: string; message: string }
  /** The gate ended the agent's session (its line passed MAX_STDIO_LINE_BYTES). */
  | { event: "downstream_closed"; server: string; message: string }
  | {
      /** A relayed request met 403 insufficient_scope and the gate asked for a wider grant. */
      event: "step_up";
      server: string;
      method: string;
      outcome: "granted" | "refused";
      /** The OAuth step that failed, when refused. */
      step?: string;
      message?: string;
    };

/** One stderr line for an event, with the time it happened. */
export function formatGateEvent(event: GateEvent, now: Date = new Date()): string {
  return JSON.stringify({ ...event, time: now.toISOString() }) + "\n";
}

/** JSON-RPC error codes the gate answers with. */
export const GATE_ERROR = {
  /** A tool, resource or prompt outside the record: the spec's code for an unknown tool. */
  NOT_APPROVED: -32602,
  /** The server's surface changed after start under `block`: nothing is forwarded any more. */
  SURFACE_CHANGED: -32001,
  /** An acceptance in the record ended while the gate ran: nothing is forwarded any more. */
  ACCEPTANCE_ENDED: -32004,
  /** A method the authorization table has no rule for (lib/gate/authorize.ts). */
  NOT_RELAYED: -32601,
  /**
   * The server refused the gate's OAuth grant and getting a sufficient one failed (a step-up that
   * was refused, timed out or went past the session's limit); `data.step` names the OAuth step.
   */
  UNAUTHORIZED: -32003,
} as const;
