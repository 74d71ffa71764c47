/**
 * Enforceable exports from a decision: files a platform applies, each validated before it is
 * returned, so a download is never a document that no process reads. Pure.
 *
 * - `networkpolicy`: the reviewed egress NetworkPolicy for the server, exactly as evaluated (the
 *   decision's controls fingerprint binds that text), exported only when it is an allowlist: a
 *   denylist or a default-allow rule admits destinations nobody named, and generating an
 *   allowlist from it would be a guess. Validated: it re-parses as NetworkPolicies and classifies
 *   as an allowlist.
 * - `client-config`: an `mcpServers` config (Claude Desktop, Cursor, generic) that starts the
 *   server through `npx --no-install relay-review gate --record …` (never a registry fetch), so the approved tool set is enforced in the
 *   path, with `--key-sha256` pinning the workbench's public key (the files sit where the agent may write). Variables the server needs appear as `${NAME}` placeholders, never values. Validated: it
 *   re-imports with lib/import to the same server.
 * - `credential-request`: the credential scope request (YAML): service identity, scopes,
 *   projects, TTL and rotation, with the review's findings about it. Validated: it re-parses.
 * Refusals are values with a reason.
 */
import { parse as parseYaml, parseAllDocuments, stringify as stringifyYaml } from "yaml";
import { classifyEgress } from "@/lib/controls/egress/evaluate";
import { formatPolicyIssue, parseNetworkPolicies } from "@/lib/controls/egress/policy";
import { parseClientConfig } from "@/lib/import/config";
import { sameServer } from "@/lib/import/merge";
import { mcpServerEntry } from "@/lib/import/write";
import type { Decision, RelayServer, Review } from "@/lib/review/schema";

export { clientConfigForServers, mcpServerEntry } from "@/lib/import/write";

export const EXPORT_KINDS = ["networkpolicy", "client-config", "credential-request"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export type ExportFile = { kind: ExportKind; fileName: string; contentType: string; text: string };
export type ExportResult = { ok: true; file: ExportFile } | { ok: false; reason: string };

export type ExportOptions = {
  /** Where the client will find the decision record (default `relay-review/<decision>.record.json`). */
  recordPath?: string;
  /** The workbench's public key file for the gate (default `relay-review/signing-key.pub.pem`). */
  publicKeyPath?: string;
  /** SHA-256 of the workbench's raw public key (signingKeySha256): pinned in the gate's arguments. */
  publicKeySha256?: string;
};

const refuse = (reason: string): ExportResult => ({ ok: false, reason });
const safeName = (s: string) =>
  s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "server";

function networkPolicy(review: Review, decision: Decision, server: RelayServer): ExportResult {
  const policies = review.controls.egress.filter((e) => e.serverId === server.id);
  if (policies.length === 0)
    return refuse(
      `no egress policy is recorded for ${server.name}: there is no reviewed egress to export; enter the NetworkPolicy in Controls first`,
    );
  const text = policies.map((p) => p.policyYaml.trim()).join("\n---\n");
  const parsed = parseNetworkPolicies(text);
  if (!parsed.ok)
    return refuse(
      `the recorded policy does not parse: ${parsed.issues.slice(0, 3).map(formatPolicyIssue).join("; ")}`,
    );
  const shape = classifyEgress(parsed.policies);
  if (shape.kind !== "allowlist") {
    return refuse(
      `the recorded policy is not an allowlist (${shape.kind}: ${shape.reason}); it admits destinations nobody named, so there is no reviewed allowlist to export — rewrite it as default-deny with the destinations the server needs`,
    );
  }
  // Written through the yaml library: the header is a comment it writes (every line of it behind
  // `#`), so no name, reviewer or id can end the comment and add YAML of its own.
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.length === 0 || docs.some((d) => d.errors.length > 0))
    return refuse("internal: the recorded policy does not parse as YAML documents");
  docs[0]!.commentBefore = ` Reviewed egress for ${server.name}: decision ${decision.id} (${decision.verdict}) by ${decision.reviewer}, ${decision.decidedAt}\n Allowlist: every destination not listed below is denied.`;
  docs.forEach((d, i) => {
    if (i > 0) d.directives.docStart = true;
  });
  const out = docs.map((d) => d.toString()).join("");
  const check = parseNetworkPolicies(out);
  if (!check.ok || classifyEgress(check.policies).kind !== "allowlist")
    return refuse("internal: the exported policy did not re-validate as an allowlist");
  const values = (ds: readonly { toJS(): unknown }[]) => JSON.stringify(ds.map((d) => d.toJS()));
  if (values(parseAllDocuments(out)) !== values(docs))
    return refuse("internal: the exported policy does not re-parse to the reviewed one");
  return {
    ok: true,
    file: {
      kind: "networkpolicy",
      fileName: `${safeName(server.name)}-egress.networkpolicy.yaml`,
      contentType: "application/yaml; charset=utf-8",
      text: out,
    },
  };
}

/**
 * `npx relay-review` on a host without relay-review installed fetches whatever the registry serves
 * under that name and runs it as the gate. `npx --no-install` runs only an installed relay-review
 * (the project's node_modules/.bin or a global install) and otherwise stops with an error; the
 * importer still reads the entry as gated.
 */
function withoutRegistryFetch(
  entry: Record<string, unknown> | null,
): Record<string, unknown> | null {
  if (
    !entry ||
    entry.command !== "npx" ||
    !Array.isArray(entry.args) ||
    entry.args[0] !== "relay-review"
  )
    return entry;
  return { ...entry, args: ["--no-install", ...(entry.args as unknown[])] };
}

function clientConfig(
  decision: Decision,
  server: RelayServer,
  options: ExportOptions,
): ExportResult {
  if (decision.verdict === "rejected")
    return refuse("the decision rejected this server: there is nothing to start");
  if (decision.bound.surfaceSha256 === null)
    return refuse(
      "the decision was made against declared tools, not a live surface: the gate has no fingerprint to check the server against; inspect the server and decide again",
    );
  const gate = {
    recordPath: options.recordPath ?? `relay-review/${safeName(decision.id)}.record.json`,
    publicKeyPath: options.publicKeyPath ?? "relay-review/signing-key.pub.pem",
    ...(options.publicKeySha256 ? { publicKeySha256: options.publicKeySha256 } : {}),
  };
  const entry = withoutRegistryFetch(mcpServerEntry(server.transport, gate));
  if (!entry)
    return refuse(
      `${server.name} is entered by hand (no command or URL): there is no server to start through the gate`,
    );
  const text = JSON.stringify({ mcpServers: { [server.name]: entry } }, null, 2) + "\n";
  const reimported = parseClientConfig(text, { fileName: "mcp.json" });
  if (!reimported.ok)
    return refuse(
      `internal: the client config did not re-import: ${reimported.issues.map((i) => i.message).join("; ")}`,
    );
  const s = reimported.config.servers[0];
  if (!s || s.gatedBy?.record !== gate.recordPath || !sameServer(s.transport, server.transport))
    return refuse("internal: the client config re-imports to a different server");
  return {
    ok: true,
    file: {
      kind: "client-config",
      fileName: `${safeName(server.name)}.mcp.json`,
      contentType: "application/json; charset=utf-8",
      text,
    },
  };
}

function credentialRequest(review: Review, decision: Decision, server: RelayServer): ExportResult {
  const creds = review.controls.credentials.filter((c) => c.serverId === server.id);
  if (creds.length === 0)
    return refuse(
      `no credential is recorded for ${server.name}: enter its scopes, projects and TTL in Controls first`,
    );
  const requests = creds.map((c) => {
    const findings = [
      ...c.scopes.filter((s) => !/^read:\S+/.test(s)).map((s) => `scope ${s} is not read-only`),
      ...c.scopes
        .filter((s) => s === "read:user")
        .map(() => "read:user reads people, not the content the server serves"),
      ...c.projects
        .filter((p) => c.sensitiveProjects.includes(p))
        .map((p) => `project ${p} is marked sensitive`),
      ...(c.identity === "service"
        ? []
        : [
            `the credential is held by ${c.identity === "person" ? "a person" : "an unknown identity"}, not a service identity`,
          ]),
      ...(c.ttlDays === null ? ["no TTL: the token does not expire"] : []),
    ];
    return {
      service_identity: `${safeName(server.name)}-service`,
      identity_kind: c.identity,
      scopes: [...c.scopes],
      projects: [...c.projects],
      excluded_projects: c.sensitiveProjects.filter((p) => !c.projects.includes(p)),
      ttl: c.ttlDays === null ? null : `${c.ttlDays}d`,
      rotation: c.rotation,
      review_findings: findings,
    };
  });
  const doc = {
    kind: "relay-review.credential-request",
    version: 1,
    server: server.name,
    decision: {
      id: decision.id,
      verdict: decision.verdict,
      reviewer: decision.reviewer,
      decided_at: decision.decidedAt,
      agent: decision.agentId,
    },
    requests,
  };
  const text = `# Credential scope request for ${server.name}, from decision ${decision.id}\n${stringifyYaml(doc)}`;
  const back = parseYaml(text) as typeof doc;
  if (JSON.stringify(back) !== JSON.stringify(doc))
    return refuse("internal: the credential request did not re-parse to itself");
  return {
    ok: true,
    file: {
      kind: "credential-request",
      fileName: `${safeName(server.name)}-credential-request.yaml`,
      contentType: "application/yaml; charset=utf-8",
      text,
    },
  };
}

/** One export of a decision in the review, validated, or the reason it cannot be made. */
export function buildExport(
  kind: ExportKind,
  review: Review,
  decision: Decision,
  options: ExportOptions = {},
): ExportResult {
  const server = review.servers.find((s) => s.id === decision.serverId);
  if (!server) return refuse(`server ${decision.serverId} is no longer in the review`);
  switch (kind) {
    case "networkpolicy":
      return networkPolicy(review, decision, server);
    case "client-config":
      return clientConfig(decision, server, options);
    case "credential-request":
      return credentialRequest(review, decision, server);
  }
}
