/**
 * What the gate does with an `input_required` result (the 2026-07-28 revision's multi-round
 * requests, SEP-2322, which replace server→client requests): a server answering tools/call,
 * prompts/get or resources/read with `{ resultType: "input_required", inputRequests, requestState }`
 * asks the client for elicitation, sampling or roots before it completes. Each embedded request
 * reaches the agent (or its user) only when the signed decision record allows it:
 *
 * - `elicitation/create`, form mode: the record's inspection declared `elicitation` (the reviewed
 *   surface is the one a client that answers forms sees);
 * - `elicitation/create`, URL mode: the URL is https and its host is one of the record's
 *   `elicitation_url_domains`, exactly (a subdomain is another host, another party). The gate
 *   never opens the URL; it decides whether the agent's user is sent there;
 * - `roots/list`: the inspection declared `roots`;
 * - `sampling/createMessage`: never. The record speaks to no sampling, and the gate does not hand a
 *   server's prompt to the agent's model (as the session refuses it in the 2025 era);
 * - anything else: refused, unknown.
 *
 * One refused request refuses the whole result: the server would wait for every key, and a
 * partial answer is not one the protocol has. The agent gets a JSON-RPC error naming each refused
 * key and why. Pure: no SDK, no I/O.
 */
import type { DecisionRecord } from "@/lib/decisions/record";

/** Rounds of input one relayed request may take through the gate (the v2 client's own default cap). */
export const MAX_INPUT_ROUNDS = 10;
/** Embedded requests in one result the gate looks at; more is refused as malformed. */
export const MAX_INPUT_REQUESTS = 32;
/** The JSON-RPC error code for an input_required result the record does not allow. */
export const INPUT_REFUSED = -32005;

export type InputPolicy = {
  declaredCapabilities: ReadonlySet<string>;
  /** Hosts admitted for URL-mode elicitation, lowercase. */
  elicitationUrlDomains: readonly string[];
};

export function inputPolicyFromRecord(record: Pick<DecisionRecord, "registration">): InputPolicy {
  const reg = record.registration;
  return {
    declaredCapabilities: new Set(reg?.declared_capabilities ?? []),
    elicitationUrlDomains: (reg?.elicitation_url_domains ?? []).map((d) => d.toLowerCase()),
  };
}

/** One embedded request, as judged; `host` for URL-mode elicitation. */
export type InputRequestVerdict = {
  key: string;
  method: string;
  mode?: "form" | "url";
  host?: string;
  /** Why it is refused; absent: allowed. */
  refused?: string;
};

export type InputRequiredJudgement =
  | { ok: true; requests: InputRequestVerdict[]; requestState?: string }
  | { ok: false; requests: InputRequestVerdict[]; message: string };

/** The event a judged input_required result writes to the gate's log. */
export type InputRequiredEvent = {
  event: "input_required";
  server: string;
  decision: string;
  method: string;
  outcome: "relayed" | "refused";
  requests: InputRequestVerdict[];
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a relayed result asks for input (the discriminator the 2026-07-28 revision defines). */
export function isInputRequired(result: unknown): result is Record<string, unknown> {
  return isObject(result) && result.resultType === "input_required";
}

/**
 * One request the server asks the client, judged against the record: an entry of an
 * input_required result, or a 2025-era server's own server→client request (the gate relays its
 * elicitation under the same rules).
 */
export function judgeInputRequest(
  key: string,
  entry: unknown,
  policy: InputPolicy,
): InputRequestVerdict {
  if (!isObject(entry) || typeof entry.method !== "string")
    return { key, method: "(none)", refused: "not a request object with a method" };
  const method = entry.method.slice(0, 100);
  const params = isObject(entry.params) ? entry.params : {};
  const declared = (cap: string) => policy.declaredCapabilities.has(cap);
  switch (method) {
    case "elicitation/create": {
      if (!declared("elicitation"))
        return {
          key,
          method,
          refused: "the reviewed inspection did not declare elicitation, so the record covers none",
        };
      const mode = params.mode ?? "form";
      if (mode === "form") return { key, method, mode: "form" };
      if (mode !== "url")
        return { key, method, refused: `elicitation mode ${JSON.stringify(mode)} is not known` };
      let url: URL | null = null;
      try {
        url = typeof params.url === "string" ? new URL(params.url) : null;
      } catch {
        url = null;
      }
      if (!url) return { key, method, mode: "url", refused: "URL-mode elicitation without a URL" };
      const host = url.hostname.toLowerCase();
      if (url.protocol !== "https:")
        return {
          key,
          method,
          mode: "url",
          host,
          refused: `URL-mode elicitation to ${url.protocol}//${host}: only https URLs are relayed`,
        };
      if (!policy.elicitationUrlDomains.includes(host))
        return {
          key,
          method,
          mode: "url",
          host,
          refused: `URL-mode elicitation to ${host}, which is not among the record's elicitation_url_domains (${policy.elicitationUrlDomains.join(", ") || "none"})`,
        };
      return { key, method, mode: "url", host };
    }
    case "roots/list":
      return declared("roots")
        ? { key, method }
        : { key, method, refused: "the reviewed inspection did not declare roots" };
    case "sampling/createMessage":
      return {
        key,
        method,
        refused: "sampling: the decision record approves no use of the agent's model by the server",
      };
    default:
      return { key, method, refused: "not an input request the gate knows" };
  }
}

/** Judge every embedded request of an input_required result against the record. */
export function judgeInputRequired(
  result: Record<string, unknown>,
  policy: InputPolicy,
): InputRequiredJudgement {
  const requestState = typeof result.requestState === "string" ? result.requestState : undefined;
  const raw = result.inputRequests;
  if (raw !== undefined && !isObject(raw))
    return { ok: false, requests: [], message: "its inputRequests is not an object" };
  const entries = Object.entries(raw ?? {});
  if (entries.length === 0 && requestState === undefined)
    return {
      ok: false,
      requests: [],
      message: "it carries neither inputRequests nor requestState",
    };
  if (entries.length > MAX_INPUT_REQUESTS)
    return {
      ok: false,
      requests: [],
      message: `it carries ${entries.length} input requests (the gate relays at most ${MAX_INPUT_REQUESTS})`,
    };
  const requests = entries.map(([key, entry]) =>
    judgeInputRequest(key.slice(0, 256), entry, policy),
  );
  const refused = requests.filter((r) => r.refused !== undefined);
  if (refused.length === 0)
    return { ok: true, requests, ...(requestState !== undefined ? { requestState } : {}) };
  return {
    ok: false,
    requests,
    message: refused.map((r) => `${JSON.stringify(r.key)} (${r.method}): ${r.refused}`).join("; "),
  };
}

/**
 * An embedded request as the 2025-era server→client request it stands for: URL-mode elicitation
 * there carries an `elicitationId` (the 2026-07-28 shape dropped it; the server correlates through
 * `requestState`), so one is made up for the agent's client, which requires it.
 */
export function asLegacyRequest(
  method: string,
  params: Record<string, unknown> | undefined,
  newId: () => string,
): { method: string; params?: Record<string, unknown> } {
  if (
    method === "elicitation/create" &&
    params?.mode === "url" &&
    params.elicitationId === undefined
  )
    return { method, params: { ...params, elicitationId: newId() } };
  return { method, ...(params ? { params } : {}) };
}

/** The agent's error text for a refused input_required result. */
export function inputRefusedMessage(server: string, method: string, why: string): string {
  return `${server} asked for input to finish ${method}, and the gate did not relay it: ${why}`;
}
