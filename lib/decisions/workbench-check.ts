/**
 * Is a signed decision record still the workbench's current decision? A record carries what was
 * decided and the fingerprints it was bound to, but not the review, so only the workbench can say
 * whether the agent's tool set, the image digest, the controls or the live surface have changed
 * since (lib/decisions/staleness.ts, computed server side). Before the workbench's status may speak
 * for a record, the record's decision must be one the workbench lists, with the same signed content:
 * otherwise the record is not the workbench's decision, and its status would vouch for another one.
 * Pure: the CLI (`relay-review verify-record --workbench | --share`) fetches and prints.
 * Issue 5: "stale shows everywhere the decision shows: UI, API, share view, CLI".
 */
import {
  ShareViewResponseSchema,
  type DecisionView,
  type StaleChangeView,
} from "@/lib/decisions/api";
import { normalizeToolSet } from "@/lib/decisions/binding";
import { OWNER_TOKEN_ISSUER, type DecisionRecord } from "@/lib/decisions/record";
import { canonicalJson } from "@/lib/hash";
import type { Decision } from "@/lib/review/schema";

/** One signed field of the decision that the workbench holds differently; values only for short scalars. */
export type DecisionDifference = { field: string; record: string | null; workbench: string | null };

/** What the workbench says about the record's decision, now. */
export type WorkbenchDecisionCheck =
  | { kind: "current"; view: DecisionView }
  | { kind: "stale"; view: DecisionView; changes: StaleChangeView[] }
  /** The workbench lists no decision with the record's id. */
  | { kind: "not_found"; decisionId: string }
  /** A decision with the record's id, but not the one the record signed. */
  | { kind: "differs"; view: DecisionView; differences: DecisionDifference[] };

type RecordDecision = DecisionRecord["decision"];

/**
 * The part of the share view (`GET /api/share/{token}`) a staleness check reads: its decisions with
 * their status, and the revision the link shows. The review and its analysis are not parsed here.
 */
export const ShareViewStatusSchema = ShareViewResponseSchema.pick({
  revision: true,
  frozen: true,
  expiresAt: true,
  decisions: true,
});

const scalar = (v: string | number | null) => (v === null ? "null" : String(v));

/** Every signed field of a decision, how to compare it, and whether its value is short enough to show. */
const FIELDS: readonly {
  field: string;
  get: (d: RecordDecision | Decision) => unknown;
  isShown: boolean;
}[] = [
  { field: "serverId", get: (d) => d.serverId, isShown: true },
  { field: "agentId", get: (d) => d.agentId, isShown: true },
  { field: "verdict", get: (d) => d.verdict, isShown: true },
  { field: "toolSet", get: (d) => normalizeToolSet(d.toolSet), isShown: false },
  { field: "conditions", get: (d) => d.conditions, isShown: false },
  // Version 3 records name the author instead of a typed reviewer; a v1/v2 record keeps its reviewer.
  // Compared only when the record has one (versions 1 and 2); version 3 names the author instead.
  { field: "reviewer", get: (d) => d.reviewer ?? null, isShown: false },
  {
    field: "author",
    // The owner token (break-glass) is no person: a v3 record names it, the workbench leaves it out.
    get: (d) =>
      d.author && d.author.issuer !== OWNER_TOKEN_ISSUER
        ? [d.author.issuer, d.author.subject]
        : null,
    isShown: false,
  },
  {
    field: "approvals",
    get: (d) => (d.approvals ?? []).map((a) => [a.issuer, a.subject, a.at]),
    isShown: false,
  },
  { field: "rationale", get: (d) => d.rationale, isShown: false },
  { field: "decidedAt", get: (d) => d.decidedAt, isShown: true },
  { field: "bound.surfaceSha256", get: (d) => d.bound.surfaceSha256, isShown: true },
  { field: "bound.imageDigest", get: (d) => d.bound.imageDigest, isShown: true },
  { field: "bound.toolSetSha256", get: (d) => d.bound.toolSetSha256, isShown: true },
  { field: "bound.controlsSha256", get: (d) => d.bound.controlsSha256, isShown: true },
  { field: "bound.revision", get: (d) => d.bound.revision, isShown: true },
  // A version 1 record and a decision made before acceptance was recorded both read as none.
  { field: "acceptedRisks", get: (d) => d.acceptedRisks ?? [], isShown: false },
  { field: "supersedes", get: (d) => d.supersedes ?? null, isShown: true },
];

/** The signed fields in which the workbench's decision differs from the record's (empty: the same decision). */
export function decisionDifferences(
  record: RecordDecision,
  workbench: Decision,
): DecisionDifference[] {
  const out: DecisionDifference[] = [];
  for (const { field, get, isShown } of FIELDS) {
    if (field === "reviewer" && record.reviewer === undefined) continue;
    const a = get(record);
    const b = get(workbench);
    if (canonicalJson(a) === canonicalJson(b)) continue;
    out.push({
      field,
      record: isShown ? scalar(a as string | number | null) : null,
      workbench: isShown ? scalar(b as string | number | null) : null,
    });
  }
  return out;
}

/**
 * Match the record's decision among the workbench's decisions (from `GET /api/reviews/{id}/decisions`
 * or a share view) and report its status there: `current`, `stale` with the workbench's changes,
 * `not_found`, or `differs` when the workbench's decision by that id is not the signed one.
 */
export function checkRecordAgainstWorkbench(
  record: Pick<DecisionRecord, "decision">,
  decisions: readonly DecisionView[],
): WorkbenchDecisionCheck {
  const view = decisions.find((v) => v.decision.id === record.decision.id);
  if (!view) return { kind: "not_found", decisionId: record.decision.id };
  const differences = decisionDifferences(record.decision, view.decision);
  if (differences.length > 0) return { kind: "differs", view, differences };
  return view.status.state === "current"
    ? { kind: "current", view }
    : { kind: "stale", view, changes: view.status.changes };
}

/** Where to ask, and how to name it on a terminal without its credentials. */
export type WorkbenchEndpoint = { apiUrl: string; shown: string };

const isHttp = (u: URL) => u.protocol === "http:" || u.protocol === "https:";

function parseHttpUrl(
  text: string,
  option: string,
): { ok: true; url: URL } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // A share link's path is its credential: name the option, never echo the link.
    return { ok: false, message: `${option} is not a URL` };
  }
  if (!isHttp(url)) return { ok: false, message: `${option} must be an http(s) URL` };
  if (url.username !== "" || url.password !== "")
    return { ok: false, message: `${option} must not carry credentials in the URL` };
  return { ok: true, url };
}

/**
 * The workbench's base URL (`http://127.0.0.1:3000`, or with a path prefix behind a proxy), without
 * a trailing slash. No query or fragment: they would be silently dropped.
 */
export function parseWorkbenchBase(
  workbench: string,
): { ok: true; base: string } | { ok: false; message: string } {
  const parsed = parseHttpUrl(workbench, "--workbench");
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  if (url.search !== "" || url.hash !== "")
    return {
      ok: false,
      message: "--workbench must be the workbench's base URL, without a query or fragment",
    };
  return { ok: true, base: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}

/**
 * Whether a request to `url` would carry a credential (the owner token, a share link's token) in
 * clear text off this machine: plain http to anything but a loopback address.
 */
export function sendsCredentialInClear(url: string): boolean {
  const u = new URL(url);
  if (u.protocol !== "http:") return false;
  const host = u.hostname.replace(/^\[|\]$/g, "");
  return !(host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host));
}

/** The owner API listing a review's decisions with their status, under a base from `parseWorkbenchBase`. */
export function decisionsEndpoint(base: string, reviewId: string): WorkbenchEndpoint {
  return { apiUrl: `${base}/api/reviews/${encodeURIComponent(reviewId)}/decisions`, shown: base };
}

/** A share token as it may appear in a link: URL-safe characters only, so it can never add a path segment. */
const SHARE_TOKEN_SEGMENT = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * A read-only share link (`http://host/share/<token>`, as the workbench hands it out) → its JSON
 * API (`/api/share/<token>`). `shown` names the link without its token: the token is the credential.
 */
export function shareEndpoint(
  link: string,
): { ok: true; endpoint: WorkbenchEndpoint } | { ok: false; message: string } {
  const parsed = parseHttpUrl(link, "--share");
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  const m = /^(.*)\/share\/([^/]+)\/?$/.exec(url.pathname);
  if (!m || !SHARE_TOKEN_SEGMENT.test(m[2]!))
    return {
      ok: false,
      message: "--share must be a share link as the workbench gives it: http(s)://HOST/share/TOKEN",
    };
  const prefix = m[1]!;
  return {
    ok: true,
    endpoint: {
      apiUrl: `${url.origin}${prefix}/api/share/${m[2]!}`,
      shown: `${url.origin}${prefix}/share/…`,
    },
  };
}

/**
 * A non-2xx answer, in words. `serverMessage` is the `error.message` of the workbench's JSON body,
 * if any (attacker-controlled text: print it escaped); `tokenFrom` names where the owner token came
 * from (never the token). A share link that is revoked, expired or unknown answers 404 exactly like
 * one that never existed, and is named as such.
 */
export function workbenchHttpFailure(
  via: "owner" | "share",
  status: number,
  serverMessage: string | null,
  reviewId: string,
  tokenFrom: string | null = null,
): string {
  const said = serverMessage ? `: ${serverMessage}` : "";
  if (via === "share" && status === 404)
    return "the share link is not valid (revoked, expired or unknown)";
  if (via === "owner" && status === 404)
    return `the workbench has no review ${reviewId} (404${said})`;
  if (status === 401)
    return `the workbench refused the token${tokenFrom ? ` from ${tokenFrom}` : ""} (401${said}); use the owner token it printed at start (RELAY_REVIEW_TOKEN, or the owner-token file in its data folder)`;
  if (status >= 300 && status < 400)
    return `the workbench answered ${status} (a redirect, not followed: is the URL the workbench's own?)`;
  return `the workbench answered ${status}${said}`;
}
