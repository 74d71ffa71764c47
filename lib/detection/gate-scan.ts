/**
 * The gate's one call into detection (issue 31 item 2): the text of a result about to pass to the
 * agent (a tools/call result, resources/read contents, a prompts/get message) is scanned within the
 * detector's budget. A flag becomes a `content.flagged` event; in `flag` mode (the default) the
 * result passes unchanged, in `hold` mode the agent gets a notice naming why instead of the text.
 * Detection is not a control: nothing here refuses a call, changes a path or a decision.
 */
import { randomBytes } from "node:crypto";
import { detectDetailed, type Verdict } from "./detect";
import { DEFAULT_BUDGET } from "./text";

export type ContentScanMode = "flag" | "hold";

export type ContentFlaggedEvent = {
  event: "content.flagged";
  /** The flag's id: the workbench logs a retried report once by it, and a held result is released by it. */
  id: string;
  server: string;
  /** The record's server id: the workbench names the sources the review maps the tool to by it. */
  serverId?: string;
  method: string;
  /** The tool called, the resource URI read or the prompt got. */
  tool: string;
  score: number;
  reasons: Verdict["reasons"];
  /** At most 240 characters around the strongest signal, hidden characters shown. */
  excerpt: string;
  mode: ContentScanMode;
};

export type ContentReleasedEvent = {
  event: "content.released";
  /** The held result's id, as the hold notice and its `content.flagged` event named it. */
  id: string;
  server: string;
  method: string;
};

/** The texts a relayed result carries to the agent, up to the budget (structured content as JSON). */
export function relayedTexts(
  method: string,
  result: Record<string, unknown>,
  budget = DEFAULT_BUDGET,
): string {
  const parts: string[] = [];
  let size = 0;
  const add = (v: unknown) => {
    if (typeof v === "string" && size < budget) {
      parts.push(v);
      size += v.length;
    }
  };
  const items = (v: unknown): Record<string, unknown>[] =>
    Array.isArray(v)
      ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === "object").slice(0, 1000)
      : [];
  const block = (c: Record<string, unknown>) => {
    add(c.text);
    const resource = c.resource as Record<string, unknown> | undefined;
    if (resource && typeof resource === "object") add(resource.text);
  };
  if (method === "tools/call") {
    items(result.content).forEach(block);
    if (result.structuredContent !== undefined)
      add(JSON.stringify(result.structuredContent).slice(0, budget));
  } else if (method === "resources/read") {
    items(result.contents).forEach((c) => add(c.text));
  } else if (method === "prompts/get") {
    add(result.description);
    for (const m of items(result.messages))
      if (m.content && typeof m.content === "object") block(m.content as Record<string, unknown>);
  } else if (method === "elicitation/create") {
    // The message and the form's own words (titles, descriptions, choices) are put before a person.
    add(result.message);
    const schema = result.requestedSchema as Record<string, unknown> | undefined;
    const props = schema && typeof schema === "object" ? schema.properties : undefined;
    if (props && typeof props === "object")
      for (const f of Object.values(props as Record<string, unknown>).slice(0, 100)) {
        if (!f || typeof f !== "object") continue;
        const field = f as Record<string, unknown>;
        add(field.title);
        add(field.description);
        if (Array.isArray(field.enumNames)) field.enumNames.slice(0, 100).forEach(add);
      }
  }
  return parts.join("\n");
}

export const newFlagId = () => randomBytes(12).toString("base64url");

function targetOf(method: string, params: unknown): string {
  const p = (params ?? {}) as Record<string, unknown>;
  const name = method === "resources/read" ? p.uri : p.name;
  return typeof name === "string" ? name.slice(0, 200) : method;
}

export type ScanContext = {
  server: string;
  serverId?: string;
  tools: readonly string[];
  mode?: ContentScanMode;
};

function flaggedEvent(
  method: string,
  tool: string,
  verdict: ReturnType<typeof detectDetailed>,
  context: ScanContext,
  mode: ContentScanMode,
): ContentFlaggedEvent {
  return {
    event: "content.flagged",
    id: newFlagId(),
    server: context.server,
    ...(context.serverId !== undefined ? { serverId: context.serverId } : {}),
    method,
    tool,
    score: verdict.score,
    reasons: verdict.reasons
      .slice(0, 8)
      .map((r) => ({ signal: r.signal, detail: r.detail.slice(0, 300) })),
    excerpt: verdict.excerpt,
    mode,
  };
}

/**
 * The text of an elicitation a server asks for, scanned and counted before the gate relays it to
 * the agent's user (as the record allows) or declines it: a server that aims a paragraph at the
 * client there is worth knowing about. Mode is always `flag`: the user answers it, so it is never
 * held.
 */
export function scanElicitation(
  params: Record<string, unknown>,
  context: ScanContext,
): ContentFlaggedEvent | null | undefined {
  const text = relayedTexts("elicitation/create", params);
  if (!text) return undefined;
  const verdict = detectDetailed(text, { tools: context.tools });
  return verdict.flagged
    ? flaggedEvent("elicitation/create", "elicitation", verdict, context, "flag")
    : null;
}

/**
 * Scans a result on its way to the agent. Returns the result to send (the same object unless held)
 * and the event to log when it was flagged.
 */
export function scanRelayed(
  method: string,
  params: unknown,
  result: Record<string, unknown>,
  context: ScanContext,
): { result: Record<string, unknown>; event: ContentFlaggedEvent | null } {
  if (method !== "tools/call" && method !== "resources/read" && method !== "prompts/get")
    return { result, event: null };
  const text = relayedTexts(method, result);
  if (!text) return { result, event: null };
  const verdict = detectDetailed(text, { tools: context.tools });
  if (!verdict.flagged) return { result, event: null };
  const mode = context.mode ?? "flag";
  const event = flaggedEvent(method, targetOf(method, params), verdict, context, mode);
  if (mode === "flag") return { result, event };
  const notice = `relay-review gate held this ${method === "tools/call" ? "tool result" : method === "resources/read" ? "resource" : "prompt"}: it was flagged as possibly carrying instructions aimed at a model (score ${verdict.score}; ${verdict.reasons.map((r) => r.signal).join(", ")}). A reviewer can release it (held result ${event.id}); ask again once it is released.`;
  const held =
    method === "tools/call"
      ? { content: [{ type: "text", text: notice }], isError: true }
      : method === "resources/read"
        ? { contents: [{ uri: targetOf(method, params), mimeType: "text/plain", text: notice }] }
        : { messages: [{ role: "user", content: { type: "text", text: notice } }] };
  return { result: held, event };
}
