/**
 * MCP Apps in the analysis: what a server's `ui://` resources and app-only tools mean for the
 * review's controls and tool sets.
 *
 * - `connectDomains` in a UI resource's CSP are the destinations the rendered UI may send data to
 *   (fetch, XHR, WebSocket) once a host renders it; `resourceDomains` where it loads scripts,
 *   styles, images and fonts from; `frameDomains` the origins it may embed. Each is egress, checked
 *   against the server's recorded egress policy; one the policy does not admit is a finding naming
 *   the domain, the directive and the resource.
 *   A NetworkPolicy matches addresses, so a hostname is admitted only by a rule that admits every
 *   destination on its port; a wildcard origin never is. The UI runs in the user's host, outside
 *   the server's pod: the finding says the review's egress boundary does not cover this path.
 * - An app-only tool (`visibility` without `"model"`) is called by the server's UI without the
 *   model. An agent that holds a tool rendering a UI of a server can, through that UI, call the
 *   server's app-only tools: those belong in the decision's tool set (the gate refuses any tool
 *   outside it), so each one missing is a finding.
 *
 * The declarations are server-authored claims: they say what the UI asks for, not what a host
 * grants; they never count as a control.
 */
import type { ServerId } from "@/lib/ids";
import type { Finding } from "@/lib/model/findings";
import { why } from "@/lib/model/findings";
import { findingId, nodeIds, toolKey } from "@/lib/model/ids";
import type { ServerToolList } from "@/lib/model/input";
import { serverName, type AnalysisModel, type ResolvedAgent } from "@/lib/model/model";
import { shownName } from "@/lib/model/prose";
import { wouldAllow, type WouldAllowResult } from "@/lib/controls/egress/evaluate";
import { parseNetworkPolicies } from "@/lib/controls/egress/policy";
import { isAppOnlyTool, uiDeclarations } from "@/lib/surface/apps";

/** Most CSP egress domains checked per server, all directives together (each list is bounded by the surface schema). */
export const MAX_CSP_DOMAINS_CHECKED = 1000;

const DEFAULT_PORT: Record<string, number> = { "https:": 443, "wss:": 443, "http:": 80, "ws:": 80 };

export type CspOrigin =
  { ok: true; host: string; port: number; isWildcard: boolean } | { ok: false; reason: string };

/**
 * One CSP source expression as a host and port: `https://api.example.com`, `wss://rt.example.com:8443`,
 * `https://*.example.com`, or a bare `api.example.com` (port 443). Anything else (`*`, a scheme
 * alone, a keyword) cannot name a destination a policy could admit.
 */
export function parseCspOrigin(entry: string): CspOrigin {
  const text = entry.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  const wildcard = /^([a-z][a-z0-9+.-]*:\/\/)\*\./i.exec(withScheme);
  let url: URL;
  try {
    url = new URL(wildcard ? withScheme.replace("*.", "wildcard.") : withScheme);
  } catch {
    return { ok: false, reason: `${JSON.stringify(entry)} is not an origin` };
  }
  const port = url.port ? Number(url.port) : DEFAULT_PORT[url.protocol];
  if (port === undefined)
    return { ok: false, reason: `${JSON.stringify(entry)} has no port for ${url.protocol}` };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return {
    ok: true,
    host: wildcard ? host.replace(/^wildcard\./, "*.") : host,
    port,
    isWildcard: Boolean(wildcard),
  };
}

function notAdmittedReason(v: WouldAllowResult): string {
  if (v.outcome === "depends_on_dns")
    return `${v.reason}; no rule admits every destination on this port, so the policy does not admit the name`;
  return v.reason;
}

/** The CSP directives of a UI resource that are egress from the user's host, and what each lets the UI do. */
type EgressDirective = "connectDomains" | "resourceDomains" | "frameDomains";
const EGRESS_DIRECTIVES: Record<
  EgressDirective,
  { kind: string; verb: string; what: string; why: string }
> = {
  connectDomains: {
    kind: "apps.connect_domain_not_admitted",
    verb: "connects to",
    what: "connectDomains are where the rendered UI may send data",
    why: "connectDomains are where the rendered UI may send data (fetch, XHR, WebSocket), from the user's host rather than the server's pod",
  },
  resourceDomains: {
    kind: "apps.resource_domain_not_admitted",
    verb: "loads scripts, styles, images or fonts from",
    what: "resourceDomains are where the rendered UI may load scripts and media from",
    why: "resourceDomains are where the rendered UI may load scripts, styles, images and fonts from, from the user's host rather than the server's pod: a script from there runs with the UI's authority (it can call the server's tools, app-only ones included, through the host), and every load carries whatever the UI puts in its URL to that domain",
  },
  frameDomains: {
    kind: "apps.frame_domain_not_admitted",
    verb: "frames content from",
    what: "frameDomains are the origins the rendered UI may embed",
    why: "frameDomains are the origins the rendered UI may embed in the user's host: a framed page runs under its own origin's policy, not the UI's declared CSP, so it may load and send anything, and shows whatever its operator serves inside the host",
  },
};

/**
 * One finding per egress domain (connectDomains, resourceDomains, frameDomains), per `ui://`
 * resource, that the server's egress policy does not admit. All three are high: each lets a
 * party the policy does not admit receive the UI's data (a connection, a loaded script or image's
 * URL, a framed page's own requests) or run code beside it; the review's egress boundary covers
 * none of them, since the UI runs in the user's host.
 */
export function cspDomainFindings(
  model: AnalysisModel,
  toolLists: readonly ServerToolList[],
): Finding[] {
  const out: Finding[] = [];
  const egress = model.review.controls.egress;
  for (const list of toolLists) {
    if (!list.uiResources?.length) continue;
    const declarations = uiDeclarations(list.uiResources, list.resources ?? [], list.tools);
    const server = shownName(serverName(model, list.serverId));
    const policyIndex = egress.findIndex((e) => e.serverId === list.serverId);
    const parsed = policyIndex >= 0 ? parseNetworkPolicies(egress[policyIndex]!.policyYaml) : null;
    const policyPath = `controls.egress.${policyIndex}.policyYaml`;
    let checked = 0;
    for (const d of declarations) {
      for (const directive of Object.keys(EGRESS_DIRECTIVES) as EgressDirective[]) {
        const words = EGRESS_DIRECTIVES[directive];
        for (const domain of d.csp[directive] ?? []) {
          if (++checked > MAX_CSP_DOMAINS_CHECKED) break;
          const base: Pick<Finding, "kind" | "controlId" | "subject" | "nodeIds" | "pathIds"> = {
            kind: words.kind,
            controlId: "egress",
            subject: { serverId: list.serverId },
            nodeIds: [],
            pathIds: [],
          };
          const id = findingId(words.kind, list.serverId, d.uri, domain);
          const declares = `The UI ${shownName(d.uri)} of ${server} declares it ${words.verb} ${shownName(domain)}`;
          const declared = {
            path: `uiResources[${JSON.stringify(d.uri)}]._meta.ui.csp.${directive}`,
            value: domain,
          };
          if (!parsed || !parsed.ok) {
            out.push({
              ...base,
              id,
              severity: "medium",
              title: parsed
                ? `${declares}; the egress policy cannot be evaluated to check it`
                : `${declares}; no egress policy is recorded to check it`,
              why: why(
                `${words.what}; with no policy that evaluates, nothing in the review bounds them`,
                { config: [declared] },
              ),
            });
            continue;
          }
          const origin = parseCspOrigin(domain);
          const verdict: WouldAllowResult | null =
            origin.ok && !origin.isWildcard
              ? wouldAllow(parsed.policies, { host: origin.host, port: origin.port })
              : null;
          if (verdict?.outcome === "allowed") continue;
          const reason = !origin.ok
            ? origin.reason
            : origin.isWildcard
              ? `${shownName(domain)} is a wildcard: it names every subdomain, which no policy rule can admit by name`
              : notAdmittedReason(verdict!);
          out.push({
            ...base,
            id,
            severity: "high",
            title: `${declares}, which its egress policy does not admit`,
            why: why(`${words.why}; ${reason}`, {
              config: [declared, { path: policyPath, value: `${domain} → not admitted` }],
            }),
          });
        }
      }
    }
  }
  return out;
}

/**
 * One finding per agent and server: the agent holds a tool that renders a UI of the server, and
 * the server's app-only tools that UI can call without the model are not all in its tool set.
 */
export function appOnlyToolFindings(model: AnalysisModel, agent: ResolvedAgent): Finding[] {
  const out: Finding[] = [];
  const rendering = new Map<ServerId, string[]>(); // server → held tools that render a UI
  // The model read each listed tool's `_meta` once (`rendersUi`): looking the listing up here, per
  // held tool, was a scan of the server's list for every tool of every agent.
  for (const t of agent.held) {
    if (!t.rendersUi) continue;
    const names = rendering.get(t.serverId);
    if (names) names.push(t.name);
    else rendering.set(t.serverId, [t.name]);
  }
  if (rendering.size === 0) return out;
  const heldNames = new Set(agent.held.filter((t) => t.item === "tool").map((t) => t.key));
  for (const [serverId, uiTools] of rendering) {
    const list = model.toolLists.find((l) => l.serverId === serverId);
    const missing = (list?.tools ?? []).filter(
      (x) => isAppOnlyTool(x._meta) && !heldNames.has(toolKey(serverId, x.name)),
    );
    if (missing.length === 0) continue;
    const server = shownName(serverName(model, serverId));
    out.push({
      id: findingId("apps.app_only_tool_outside_tool_set", agent.id, serverId),
      kind: "apps.app_only_tool_outside_tool_set",
      severity: "medium",
      title: `${agent.name} renders ${server}'s UI (${uiTools.map(shownName).join(", ")}), whose app-only tool${missing.length === 1 ? "" : "s"} ${missing.map((m) => shownName(m.name)).join(", ")} ${missing.length === 1 ? "is" : "are"} not in its tool set`,
      controlId: null,
      subject: { agentId: agent.id, serverId },
      why: why(
        "an app-only tool is called by the server's UI without the model; it is a tool the agent holds once the UI renders, so the decision must name it to review it (the gate refuses a tool outside the tool set, and the UI's call fails)",
        { tools: missing.map((m) => toolKey(serverId, m.name)) },
      ),
      nodeIds: [nodeIds.agent(agent.id)],
      pathIds: [],
    });
  }
  return out;
}
