/**
 * The scoped-credential control, evaluated from the token's configuration: scopes, projects,
 * identity kind, TTL and rotation. It sits at the server's credential and bounds what a compromised
 * server could do beyond reading; it does nothing about the payload path, since a read-only token is
 * exactly what fetches a poisoned ticket. Rules (docs/analysis.md § Controls, `credential`): read-only scopes, named
 * projects and none of the sensitive ones, a service identity, a bounded TTL with rotation.
 */
import { findingId, type NodeId } from "@/lib/model/ids";
import { why, type Finding, type Severity } from "@/lib/model/findings";
import { sortedSet } from "@/lib/model/tool-set";
import type { ServerId } from "@/lib/ids";
import type { CredentialConfig } from "@/lib/review/schema";
import { CONTROLS_SECTION, SEED_DOCUMENT, type ControlCatalogEntry } from "./catalog";
import { grantedScopeEvidence, scopesBeyondReview } from "./granted-scopes";
import {
  absentRule,
  type ControlEvaluationBase,
  type ControlFindingRule,
  defineControl,
  perRelayServer,
} from "./types";

export const CREDENTIAL_ENTRY = {
  id: "credential",
  name: "Scoped credential",
  sitsAt: "server_credential",
  acts: "source_end",
  canCutPath: false,
  stops: "what a compromised server could do beyond reading",
  residue: "everything the server legitimately reads",
  source: {
    document: SEED_DOCUMENT,
    section: CONTROLS_SECTION,
    quote:
      "The token the server holds should be read-only, project-scoped, and issued to a service identity that is not a person",
  },
} as const satisfies ControlCatalogEntry;

/**
 * Read scopes that still reach people's data: `read:user` reads accounts and their e-mail addresses,
 * which the server needs for none of its tools (the seed: "not write:*, not read:user").
 */
export const PRIVATE_READ_SCOPES: readonly string[] = [
  "read:user",
  "read:org",
  "read:email",
  "read:members",
];

/**
 * Longest TTL still counted as bounded. The seed's token lives 30 days; 90 is the longest common
 * vault/IdP maximum for service tokens, and beyond it a leaked token outlives most incident reviews.
 */
export const CREDENTIAL_MAX_TTL_DAYS = 90;

export type ScopeVerdict = {
  scope: string;
  verdict: "read_only" | "private_read" | "write" | "admin" | "not_read_only" | "wildcard";
  reason: string;
};

export type CredentialEvaluation = ControlEvaluationBase & {
  controlId: "credential";
  scope: { kind: "server"; serverId: ServerId };
  scopes: ScopeVerdict[];
  grantedSensitiveProjects: string[];
};

/** Classify one scope string. Only `read:<resource>` with a concrete resource is read-only. */
export function classifyScope(scope: string): ScopeVerdict {
  const s = scope.trim().toLowerCase();
  if (/(^|[:_.-])admin($|[:_.-])/.test(s) || s === "admin")
    return { scope, verdict: "admin", reason: "administrative scope" };
  if (s.startsWith("write:") || s === "write" || /(^|:)write$/.test(s))
    return { scope, verdict: "write", reason: "grants writes" };
  if (s.includes("*"))
    return {
      scope,
      verdict: "wildcard",
      reason: "a wildcard scope grants whatever the resource server adds to it later",
    };
  if (PRIVATE_READ_SCOPES.includes(s))
    return {
      scope,
      verdict: "private_read",
      reason: "reads people's accounts, which no tool of a knowledge server needs",
    };
  if (/^read:[a-z0-9_.-]+$/.test(s)) return { scope, verdict: "read_only", reason: "read-only" };
  return { scope, verdict: "not_read_only", reason: "not a read scope, so it is not read-only" };
}

const SCOPE_SEVERITY: Record<Exclude<ScopeVerdict["verdict"], "read_only">, Severity> = {
  admin: "critical",
  write: "high",
  wildcard: "high",
  not_read_only: "high",
  private_read: "medium",
};

/** One scope the token holds, and the configuration field that says so (a finding cites it). */
export type ScopeEvidence = { scope: string; path: string };

/**
 * The scopes a credential is evaluated on, each with where it comes from: what the reviewer
 * recorded (`controls.credentials[i].scopes`), then the scopes the server's OAuth grant holds that
 * the reviewer did not type (`inspections.<server>.authorization.scopes[j]`), so every check below
 * reads a granted `write:*` as it reads a typed one, and a scope both typed and granted is one
 * piece of evidence (one finding).
 */
export function credentialScopeEvidence(
  config: CredentialConfig,
  index: number,
  granted?: readonly string[] | null,
): ScopeEvidence[] {
  const typed = config.scopes.map((scope, i) => ({
    scope,
    path: `controls.credentials.${index}.scopes.${i}`,
  }));
  if (!granted) return typed;
  const named = new Set(config.scopes);
  return [
    ...typed,
    ...grantedScopeEvidence(config.serverId, granted).filter((e) => !named.has(e.scope)),
  ];
}

/** Evaluate the credential configured for one server. */
export function evaluateCredential(
  config: CredentialConfig,
  index: number,
  attachesTo: NodeId[] = [],
  grantedScopes: readonly string[] | null = null,
): CredentialEvaluation {
  const evidence = credentialScopeEvidence(config, index, grantedScopes);
  const entry = CREDENTIAL_ENTRY;
  const at = (field: string) => `controls.credentials.${index}.${field}`;
  const findings: Finding[] = [];
  const add = (
    kind: string,
    severity: Severity,
    title: string,
    summary: string,
    field: string,
    value: string,
    key = kind,
    path = at(field),
  ) =>
    findings.push({
      id: findingId(`credential.${kind}`, config.serverId, key),
      kind: `credential.${kind}`,
      severity,
      title,
      controlId: "credential",
      subject: { serverId: config.serverId },
      why: why(summary, { config: [{ path, value }] }),
      nodeIds: [],
      pathIds: [],
    });

  const scopes = evidence.map((e) => classifyScope(e.scope));
  scopes.forEach((v, i) => {
    if (v.verdict === "read_only") return;
    add(
      `scope_${v.verdict}`,
      SCOPE_SEVERITY[v.verdict],
      `Token scope ${v.scope} is not read-only`,
      `${v.scope}: ${v.reason}`,
      "scopes",
      v.scope,
      v.scope,
      evidence[i]!.path,
    );
  });
  // A grant wider than what was reviewed: the token can do what the review never looked at.
  const beyond = grantedScopes ? scopesBeyondReview(config.scopes, grantedScopes) : [];
  if (beyond.length > 0)
    add(
      "grant_beyond_review",
      "medium",
      `The OAuth grant is wider than the reviewed scopes: ${beyond.map((s) => `+${s}`).join(" ")}`,
      `the authorization server granted ${beyond.join(", ")}, which the reviewed credential does not name; the token can do what was not reviewed`,
      "scopes",
      beyond.join(" "),
      "grant",
      `inspections.${config.serverId}.authorization.scopes`,
    );
  if (evidence.length === 0)
    add(
      "no_scopes",
      "medium",
      "No scopes recorded",
      "with no scopes recorded, the token's reach cannot be checked",
      "scopes",
      "[]",
    );

  const sensitive = new Set(config.sensitiveProjects.map((p) => p.toUpperCase()));
  const granted = config.projects.filter((p) => sensitive.has(p.toUpperCase()));
  for (const p of granted) {
    const i = config.projects.indexOf(p);
    add(
      "sensitive_project",
      "high",
      `Token is granted the sensitive project ${p}`,
      `${p} is listed among the sensitive projects and granted to the token`,
      `projects.${i}`,
      p,
      p,
    );
  }
  if (config.projects.length === 0)
    add(
      "no_projects",
      "medium",
      "Token is not scoped to named projects",
      "no projects are named, so the token may read every project, the sensitive ones included",
      "projects",
      "[]",
    );

  if (config.identity === "person")
    add(
      "person_identity",
      "high",
      "Token belongs to a person",
      "a person's token carries everything that person may do, and leaves with them",
      "identity",
      "person",
    );
  if (config.identity === "unknown")
    add(
      "unknown_identity",
      "low",
      "Token identity not recorded",
      "whether the token belongs to a service identity or a person is not recorded",
      "identity",
      "unknown",
    );

  if (config.ttlDays === null)
    add(
      "no_expiry",
      "high",
      "Token never expires",
      "no TTL is recorded, so a leaked token stays valid indefinitely",
      "ttlDays",
      "null",
    );
  else if (config.ttlDays > CREDENTIAL_MAX_TTL_DAYS)
    add(
      "long_ttl",
      "medium",
      `Token lives ${config.ttlDays} days`,
      `a TTL above ${CREDENTIAL_MAX_TTL_DAYS} days is not counted as bounded`,
      "ttlDays",
      String(config.ttlDays),
    );
  if (config.rotation === null || config.rotation.trim() === "")
    add(
      "no_rotation",
      "medium",
      "Token is not rotated",
      "no rotation is recorded",
      "rotation",
      String(config.rotation),
    );

  const ok = findings.every((f) => f.severity === "low" || f.severity === "info");
  return {
    controlId: "credential",
    scope: { kind: "server", serverId: config.serverId },
    status: ok ? "holds" : "fails",
    sitsAt: entry.sitsAt,
    cutsPath: false,
    stops: entry.stops,
    residue: entry.residue,
    summary: ok
      ? `read-only scopes (${evidence.map((e) => e.scope).join(", ")}) on named projects, a ${config.identity} identity, ${config.ttlDays ?? "no"}-day TTL, rotated`
      : `${findings.length} problem(s) with the token: ${findings.map((f) => f.title).join("; ")}`,
    findings,
    attachesTo,
    scopes,
    grantedSensitiveProjects: granted,
  };
}

/** Its finding kinds, as the SARIF export describes them. */
const CREDENTIAL_FINDING_RULES: readonly ControlFindingRule[] = [
  absentRule("ScopedCredential", "scoped credential"),
  {
    kind: "scope_admin",
    name: "CredentialScopeAdmin",
    severity: "critical",
    short: "The server's token has an administrative scope",
    help: "An administrative scope lets a compromised server do far more than read. Issue a read-only, project-scoped token.",
  },
  {
    kind: "scope_write",
    name: "CredentialScopeWrite",
    severity: "high",
    short: "The server's token can write",
    help: "A write scope is not needed to return text. Issue a read-only token.",
  },
  {
    kind: "scope_wildcard",
    name: "CredentialScopeWildcard",
    severity: "high",
    short: "The server's token has a wildcard scope",
    help: "A wildcard scope grants whatever the resource server adds to it later. Name the read scopes the server needs.",
  },
  {
    kind: "scope_not_read_only",
    name: "CredentialScopeNotReadOnly",
    severity: "high",
    short: "The server's token has a scope that is not read-only",
    help: "Only read:… scopes count as read-only. Replace the others.",
  },
  {
    kind: "scope_private_read",
    name: "CredentialScopePrivateRead",
    severity: "medium",
    short: "The server's token reads people's accounts",
    help: "read:user reads people, not the content the server serves. Drop it.",
  },
  {
    kind: "no_scopes",
    name: "CredentialNoScopes",
    severity: "medium",
    short: "No scopes are recorded for the server's token",
    help: "Without the scopes, the token's reach cannot be checked. Record them.",
  },
  {
    kind: "sensitive_project",
    name: "CredentialSensitiveProject",
    severity: "high",
    short: "The server's token is granted a sensitive project",
    help: "A project listed as sensitive is granted to the token. Exclude it.",
  },
  {
    kind: "no_projects",
    name: "CredentialNoProjects",
    severity: "medium",
    short: "The server's token is not scoped to named projects",
    help: "With no projects named, the token may read every project, the sensitive ones included. Name them.",
  },
  {
    kind: "person_identity",
    name: "CredentialPersonIdentity",
    severity: "high",
    short: "The server's token belongs to a person",
    help: "A person's token carries everything that person may do, and leaves with them. Issue it to a service identity.",
  },
  {
    kind: "unknown_identity",
    name: "CredentialUnknownIdentity",
    severity: "low",
    short: "The identity holding the server's token is not recorded",
    help: "Record whether the token belongs to a service identity or a person.",
  },
  {
    kind: "no_expiry",
    name: "CredentialNoExpiry",
    severity: "high",
    short: "The server's token never expires",
    help: "A leaked token without a TTL stays valid indefinitely. Give it a bounded TTL.",
  },
  {
    kind: "long_ttl",
    name: "CredentialLongTtl",
    severity: "medium",
    short: "The server's token lives longer than the bound",
    help: "A TTL above the bound is not counted as bounded. Shorten it.",
  },
  {
    kind: "no_rotation",
    name: "CredentialNoRotation",
    severity: "medium",
    short: "The server's token is not rotated",
    help: "No rotation is recorded. Rotate the token on a schedule.",
  },
];

/**
 * The scoped-credential control in the registry: one evaluation per recorded credential, "absent"
 * on a relay server with none, present in the residue when every relay server's credential holds.
 */
export const credentialControl = defineControl({
  entry: CREDENTIAL_ENTRY,
  scope: "server",
  output: { key: "credentials", single: false },
  config: {
    key: "credentials",
    withoutServer: (c: CredentialConfig, serverId) => (c.serverId === serverId ? null : c),
    withoutAgent: (c: CredentialConfig) => c,
    revisionItem: {
      key: (c: CredentialConfig) => `credential:${c.serverId}`,
      label: (c: CredentialConfig, names) => `Credential of ${names.server(c.serverId)}`,
    },
  },
  evaluate: (ctx) =>
    ctx.model.review.controls.credentials.map((c, i) =>
      evaluateCredential(
        c,
        i,
        ctx.serverNodes(c.serverId),
        ctx.model.toolLists.find((l) => l.serverId === c.serverId)?.grantedScopes ?? null,
      ),
    ),
  ...perRelayServer((ctx) => ctx.model.review.controls.credentials, "credential configuration"),
  // With an egress boundary too, the egress clause speaks for both ("a payload already in the source").
  residue: (isPresent) =>
    isPresent("credential")
      ? isPresent("egress")
        ? []
        : [
            {
              at: 0,
              controlIds: ["credential"],
              present: true,
              text: "a payload in what the server legitimately reads",
            },
          ]
      : [
          {
            at: 1,
            controlIds: [],
            present: false,
            text: "behind a server token that can do more than read",
          },
        ],
  caveat: (e, ctx) => `credential for ${ctx.serverName(e.scope.serverId)}: ${e.summary}`,
  binding: {
    key: "credentials",
    select: (review, serverId) =>
      review.controls.credentials
        .filter((c) => c.serverId === serverId)
        .map((c): CredentialConfig => ({
          ...c,
          scopes: sortedSet(c.scopes),
          projects: sortedSet(c.projects),
          sensitiveProjects: sortedSet(c.sensitiveProjects),
        })),
  },
  conditions: [{ kind: "credential_read_only", on: "server" }],
  findingRules: CREDENTIAL_FINDING_RULES,
  graph: { kind: "server_group" },
});
