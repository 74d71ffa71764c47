/**
 * The lethal trifecta as the graph draws it: for each agent, its three legs (untrusted input,
 * private data, outbound communication), each with the tools that make it, from the analysis's
 * own `AgentAnalysis.trifecta` (not recomputed here). The graph marks each leg beside the agent's
 * session and lists the same words under the graph, so what is drawn has a text equivalent.
 * Pure: the section data, the share view and the tests build from it.
 */
import type { Leg } from "@/lib/analysis/analyze";
import type { ToolKey } from "@/lib/model/ids";
import { shownName } from "@/lib/model/prose";

/** At most this many tools are sent with a leg: the 5,000-tool review holds thousands in one. */
export const TRIFECTA_LEG_TOOLS_MAX = 12;

/** A leg as the section sends it: whether it is held, by how many tools, and the first of them. */
export type GraphTrifectaLeg = { present: boolean; count: number; tools: ToolKey[] };

export const graphLeg = (l: Leg): GraphTrifectaLeg => ({
  present: l.present,
  count: l.tools.length,
  tools: l.tools.slice(0, TRIFECTA_LEG_TOOLS_MAX),
});

export type TrifectaLegKey = "untrustedInput" | "privateData" | "outboundCommunication";

/** The three legs in the order the graph draws them, with their short (drawn) and full names. */
export const TRIFECTA_LEGS: readonly {
  key: TrifectaLegKey;
  short: string;
  name: string;
  held: string;
}[] = [
  {
    key: "untrustedInput",
    short: "untrusted",
    name: "Untrusted input",
    held: "returning text from outside writers",
  },
  { key: "privateData", short: "private data", name: "Private data", held: "reading private data" },
  {
    key: "outboundCommunication",
    short: "outbound",
    name: "Outbound",
    held: "sending data out or sharing",
  },
];

/** A tool's name without its server (a key is `serverId/tool`). */
export const toolNameOf = (key: string): string => {
  const slash = key.indexOf("/");
  return slash < 0 ? key : key.slice(slash + 1);
};

export type TrifectaLegView = {
  key: TrifectaLegKey;
  short: string;
  present: boolean;
  /** One sentence: the leg, and the tools that make it or that none does. */
  text: string;
};

/** An agent's three legs in words, e.g. "Private data: 2 tools reading private data (get_file_contents, search_code)". */
export function trifectaLegViews(
  trifecta: Record<TrifectaLegKey, GraphTrifectaLeg>,
): TrifectaLegView[] {
  return TRIFECTA_LEGS.map((d) => {
    const l = trifecta[d.key];
    if (!l.present || l.count === 0)
      return { key: d.key, short: d.short, present: false, text: `${d.name}: not held` };
    const names = l.tools.map((k) => shownName(toolNameOf(k)));
    const more = l.count > names.length ? `, and ${l.count - names.length} more` : "";
    const tools = l.count === 1 ? "1 tool" : `${l.count} tools`;
    return {
      key: d.key,
      short: d.short,
      present: true,
      text: `${d.name}: ${tools} ${d.held} (${names.join(", ")}${more})`,
    };
  });
}
