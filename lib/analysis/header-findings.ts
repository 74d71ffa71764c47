/**
 * Arguments a tool mirrors into HTTP headers (protocol 2026-07-28, `x-mcp-header` on a property
 * of its input schema): the client copies the argument's value into a request header so
 * intermediaries can route on it. A header is not the body: load balancers, proxies, CDNs and
 * access logs record headers routinely, and a value there leaves the protection a request body
 * gets. A mirrored argument whose name or description says it carries a secret or personal data
 * is a finding; any other mirrored argument is not (routing on a region or tenant is the point).
 * Detection from the listed schema, never a control.
 */
import type { Finding } from "@/lib/model/findings";
import { why } from "@/lib/model/findings";
import { findingId, nodeIds } from "@/lib/model/ids";
import { serverName, type AnalysisModel, type ResolvedAgent } from "@/lib/model/model";
import { shownName } from "@/lib/model/prose";

/** The schema keyword of the 2026-07-28 revision (SEP-2243). */
export const MCP_HEADER_KEYWORD = "x-mcp-header";

const SENSITIVE =
  /pass(word|phrase)?|secret|token|api[_ -]?key|credential|private[_ -]?key|auth|cookie|session|ssn|social[_ -]?security|card[_ -]?number|cvv|iban|otp|pin\b/i;

/** Most properties read per tool schema (a schema is server-authored and bounded by the inspection). */
const MAX_PROPERTIES = 500;

export type MirroredArgument = { argument: string; header: string; sensitive: boolean };

/** The arguments of one input schema mirrored into headers, with whether each looks sensitive. */
export function mirroredArguments(inputSchema: unknown): MirroredArgument[] {
  if (!inputSchema || typeof inputSchema !== "object") return [];
  const props = (inputSchema as { properties?: unknown }).properties;
  if (!props || typeof props !== "object" || Array.isArray(props)) return [];
  const out: MirroredArgument[] = [];
  for (const [argument, schema] of Object.entries(props).slice(0, MAX_PROPERTIES)) {
    if (!schema || typeof schema !== "object") continue;
    const header = (schema as Record<string, unknown>)[MCP_HEADER_KEYWORD];
    if (typeof header !== "string" || header.length === 0) continue;
    const description = (schema as { description?: unknown }).description;
    const text = `${argument} ${header} ${typeof description === "string" ? description : ""}`;
    out.push({ argument, header, sensitive: SENSITIVE.test(text) });
  }
  return out;
}

/**
 * The sensitive mirrored arguments of every listed tool that has any, by server id then name (the
 * first listing of a name, as the model's): each schema is read once per analysis, not once per
 * agent holding the tool, and most reviews have none, so the per-agent loop finds an empty map.
 */
const SENSITIVE_MIRRORS = new WeakMap<
  AnalysisModel["toolLists"],
  Map<string, Map<string, MirroredArgument[]>>
>();
function sensitiveMirrorsOf(
  toolLists: AnalysisModel["toolLists"],
): Map<string, Map<string, MirroredArgument[]>> {
  let byServer = SENSITIVE_MIRRORS.get(toolLists);
  if (byServer) return byServer;
  byServer = new Map();
  const seenServers = new Set<string>();
  for (const list of toolLists) {
    if (seenServers.has(list.serverId)) continue; // the first list of a server, as `find` took
    seenServers.add(list.serverId);
    const seenNames = new Set<string>();
    for (const tool of list.tools) {
      if (seenNames.has(tool.name)) continue;
      seenNames.add(tool.name);
      const sensitive = mirroredArguments(tool.inputSchema).filter((m) => m.sensitive);
      if (sensitive.length === 0) continue;
      let byName = byServer.get(list.serverId);
      if (!byName) byServer.set(list.serverId, (byName = new Map<string, MirroredArgument[]>()));
      byName.set(tool.name, sensitive);
    }
  }
  SENSITIVE_MIRRORS.set(toolLists, byServer);
  return byServer;
}

/** One finding per held tool that mirrors a sensitive-looking argument into a header. */
export function headerFindings(model: AnalysisModel, agent: ResolvedAgent): Finding[] {
  const out: Finding[] = [];
  const mirrors = sensitiveMirrorsOf(model.toolLists);
  if (mirrors.size === 0) return out;
  for (const t of agent.held) {
    if (t.item !== "tool") continue;
    const sensitive = mirrors.get(t.serverId)?.get(t.name);
    if (!sensitive) continue;
    const named = sensitive.map(
      (m) => `${shownName(m.argument)} (header Mcp-Param-${shownName(m.header)})`,
    );
    out.push({
      id: findingId("surface.header_mirrors_sensitive_argument", agent.id, t.key),
      kind: "surface.header_mirrors_sensitive_argument",
      severity: "medium",
      title: `${shownName(t.name)} on ${shownName(serverName(model, t.serverId))} copies ${named.join(", ")} into an HTTP header of every call ${agent.name} makes`,
      controlId: null,
      subject: { agentId: agent.id, serverId: t.serverId, tool: t.key },
      why: why(
        "the tool's input schema marks the argument x-mcp-header, so the client sends its value as a request header; proxies, load balancers and access logs record headers, and a secret or personal value there leaves the protection the request body gets",
        { tools: [t.key] },
      ),
      nodeIds: [nodeIds.agent(agent.id)],
      pathIds: [],
    });
  }
  return out;
}
