/**
 * Reading a server's MCP Apps `ui://` resources during an inspection. Their CSP and permissions
 * are declared on the content `resources/read` returns (a listing MAY repeat them, and a server
 * MAY leave a UI-only resource out of `resources/list`), so the inspection reads every `ui://`
 * URI a tool names or the server lists, at most MAX_UI_RESOURCE_READS of them. A read that fails
 * is recorded as unreadable with the reason, not as a failed inspection: the server's lists were
 * read, and an unreadable UI is itself something the reviewer must see (and the fingerprint
 * covers). Bytes and the deadline stay bounded by the session's guard, through `read`.
 */
import { GuardTripped } from "@/lib/mcp/guard";
import {
  MAX_MIME_TYPE_LENGTH,
  MAX_UI_RESOURCE_READS,
  resourceAppsMeta,
  type UiResourceItem,
} from "@/lib/surface/apps";

/** Longest reason kept for an unreadable resource (the server's error text is attacker-controlled). */
const MAX_REASON_LENGTH = 512;

const clip = (text: string) =>
  text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH - 1)}…` : text;

/**
 * Read each URI (in the order given, already sorted) with `read`, which sends `resources/read`
 * and resolves to the result object, or rejects: with GuardTripped when a bound of the whole
 * inspection tripped (rethrown: the session ends), with anything else when this read failed.
 */
export async function readUiResources(
  uris: readonly string[],
  read: (uri: string) => Promise<Record<string, unknown>>,
): Promise<UiResourceItem[]> {
  const out: UiResourceItem[] = [];
  for (const [i, uri] of uris.entries()) {
    if (i >= MAX_UI_RESOURCE_READS) {
      out.push({
        uri,
        unreadable: true,
        unreadableReason: `not read: more than ${MAX_UI_RESOURCE_READS} ui:// resources`,
      });
      continue;
    }
    let result: Record<string, unknown>;
    try {
      result = await read(uri);
    } catch (error) {
      if (error instanceof GuardTripped) throw error; // a bound of the whole inspection tripped
      out.push({
        uri,
        unreadable: true,
        unreadableReason: clip(
          `resources/read failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      });
      continue;
    }
    out.push(uiResourceFromRead(uri, result));
  }
  return out;
}

/** One read result as a UI resource item: the content with the same URI (or the only one). */
export function uiResourceFromRead(uri: string, result: Record<string, unknown>): UiResourceItem {
  const contents = Array.isArray(result.contents) ? (result.contents as unknown[]) : [];
  const isObject = (c: unknown): c is Record<string, unknown> =>
    typeof c === "object" && c !== null && !Array.isArray(c);
  const content =
    contents.find((c) => isObject(c) && c.uri === uri) ??
    (contents.length === 1 ? contents[0] : undefined);
  if (!isObject(content))
    return { uri, unreadable: true, unreadableReason: "resources/read returned no content for it" };
  const meta = resourceAppsMeta(Object.hasOwn(content, "_meta") ? content._meta : undefined);
  if (!meta.ok) return { uri, unreadable: true, unreadableReason: clip(meta.reason) };
  const mimeType = typeof content.mimeType === "string" ? content.mimeType : undefined;
  if (mimeType !== undefined && mimeType.length > MAX_MIME_TYPE_LENGTH)
    return {
      uri,
      unreadable: true,
      unreadableReason: `mimeType longer than ${MAX_MIME_TYPE_LENGTH}`,
    };
  return {
    uri,
    ...(mimeType !== undefined ? { mimeType } : {}),
    ...(meta.meta ? { _meta: meta.meta } : {}),
  };
}
