/**
 * Loading a stored review: every document carries `schemaVersion`, and a review saved by an older
 * version is upgraded step by step before it is validated against the current schema. Each step is
 * a pure function of the previous version's shape; nothing here touches storage.
 *
 * History:
 * - v1 kept the tool → source map as `toolSources` with no roles, and a single `decision`.
 * - v2 merges the map into `tools` (tool assessments with roles) and keeps a list of `decisions`,
 *   since a decision names one agent and a server may be decided into several.
 */
import { z } from "zod";
import { isRemote } from "@/lib/transport-kind";
import { REVIEW_SCHEMA_VERSION, ReviewSchema, type Review } from "@/lib/review/schema";
import { makeNamer, redactArgs, redactUrl, variablePart } from "@/lib/secrets/redact";

type Json = Record<string, unknown>;

const V1ToolSourceSchema = z.looseObject({
  serverId: z.string(),
  tool: z.string(),
  sourceIds: z.array(z.string()).default([]),
});

function upgradeV1(doc: Json): Json {
  const { toolSources, decision, ...rest } = doc;
  const mapped = z.array(V1ToolSourceSchema).default([]).safeParse(toolSources);
  return {
    ...rest,
    schemaVersion: 2,
    tools: mapped.success
      ? mapped.data.map((t) => ({
          serverId: t.serverId,
          tool: t.tool,
          sourceIds: t.sourceIds,
          roles: t.sourceIds.length > 0 ? ["returns_untrusted_text"] : [],
          rolesConfirmed: false,
        }))
      : toolSources, // left as is, so validation names the bad field
    decisions: decision === null || decision === undefined ? [] : [decision],
  };
}

const UPGRADES: Record<number, (doc: Json) => Json> = { 1: upgradeV1 };

/**
 * Revisions saved before the schema refused secret values in arguments and URLs (issue 15) still
 * open, with each such value read as a `${NAME}` reference and URL credentials dropped, so what
 * is shown, shared or exported from them holds none. The stored row itself is not rewritten.
 */
function scrubTransports(doc: Json): Json {
  if (!Array.isArray(doc.servers)) return doc;
  const servers = doc.servers.map((s: unknown) => {
    if (typeof s !== "object" || s === null) return s;
    const server = s as Json;
    const t = server.transport as Json | undefined;
    if (typeof t !== "object" || t === null) return s;
    const namer = makeNamer(
      `RR_${variablePart(typeof server.id === "string" ? server.id : "server").slice(0, 60)}_`,
    );
    if (t.kind === "stdio" && Array.isArray(t.args) && t.args.every((a) => typeof a === "string")) {
      const r = redactArgs(t.args, namer);
      return r.redactions.length ? { ...server, transport: { ...t, args: r.args } } : s;
    }
    if (typeof t.kind === "string" && isRemote(t.kind) && typeof t.url === "string") {
      const r = redactUrl(t.url, namer, { userinfo: "remove" });
      return r.url !== t.url ? { ...server, transport: { ...t, url: r.url } } : s;
    }
    return s;
  });
  return { ...doc, servers };
}

export type ReviewLoadResult =
  | { ok: true; review: Review; upgradedFrom: number | null }
  | { ok: false; issues: z.core.$ZodIssue[] };

/** Upgrades `raw` to the current schema version and validates it. Never throws on bad input. */
export function loadReviewDocument(raw: unknown): ReviewLoadResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      issues: [{ code: "custom", path: [], message: "a review must be a JSON object", input: raw }],
    };
  }
  let doc = raw as Json;
  const original = doc.schemaVersion;
  if (
    typeof original !== "number" ||
    !Number.isInteger(original) ||
    original < 1 ||
    original > REVIEW_SCHEMA_VERSION
  ) {
    return {
      ok: false,
      issues: [
        {
          code: "custom",
          path: ["schemaVersion"],
          message: `unsupported schemaVersion ${JSON.stringify(original)}; this version reads 1 to ${REVIEW_SCHEMA_VERSION}`,
          input: original,
        },
      ],
    };
  }
  for (let v = original; v < REVIEW_SCHEMA_VERSION; v++) {
    const step = UPGRADES[v];
    if (!step) throw new Error(`no upgrade from review schemaVersion ${v}`); // a programming error
    doc = step(doc);
  }
  const scrubbed = scrubTransports(doc);
  let parsed = ReviewSchema.safeParse(scrubbed);
  if (!parsed.success && parsed.error.issues.every(isControlCharacterIssue)) {
    // Saved before names refused control characters: read with each one shown as U+FFFD rather than lose the review.
    const cleaned = structuredClone(scrubbed);
    for (const issue of parsed.error.issues) replaceControlCharacters(cleaned, issue.path);
    parsed = ReviewSchema.safeParse(cleaned);
  }
  if (!parsed.success) return { ok: false, issues: parsed.error.issues };
  return {
    ok: true,
    review: parsed.data,
    upgradedFrom: original === REVIEW_SCHEMA_VERSION ? null : original,
  };
}

const isControlCharacterIssue = (issue: { message: string }) =>
  issue.message.startsWith("must not contain control characters");

function replaceControlCharacters(doc: Json, path: readonly PropertyKey[]): void {
  let parent: unknown = doc;
  for (const key of path.slice(0, -1))
    parent = (parent as Record<PropertyKey, unknown> | null)?.[key];
  const last = path.at(-1);
  if (last === undefined || typeof parent !== "object" || parent === null) return;
  const holder = parent as Record<PropertyKey, unknown>;
  const value = holder[last];
  if (typeof value === "string")
    // eslint-disable-next-line no-control-regex -- the characters the review schema refuses in names
    holder[last] = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "\ufffd");
}
