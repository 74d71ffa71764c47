/**
 * What the gate does with each request from the agent's client, as one table keyed by method:
 * answer it from the checked surface, forward it when the decision record names its target, or
 * refuse it. Pure: no SDK, no I/O. A method without a row is refused with a message naming it
 * and an event, never answered by a silent default, so a request the upstream session could send
 * but nobody wrote a rule for is visibly refused rather than quietly lost or quietly forwarded.
 */
import { GATE_ERROR, type GateEvent, type GatePolicy } from "@/lib/gate/policy";
import type { SurfaceList } from "@/lib/surface/types";

export type AuthorizeContext = {
  policy: GatePolicy;
  /** The tools the client is shown: the checked surface ∩ the record. */
  visibleTools: ReadonlySet<string>;
  /** Whether a URI matches one of the record's resource templates (the caller matches RFC 6570). */
  matchesTemplate: (uri: string) => boolean;
  /**
   * Task handles the server returned to a tools/call this gate forwarded (an approved tool's):
   * the only tasks the agent may follow or cancel. A handle from anywhere else (another session
   * on the server, a guessed id) is refused, so a task outlives its call only for its starter.
   */
  startedTasks: ReadonlySet<string>;
};

type Params = Record<string, unknown>;
/** Names the target a forwarded request acts on and says whether the record allows it. */
type Check = (params: Params, ctx: AuthorizeContext) => { isAllowed: boolean; target: string };
export type GateRule =
  /** Answered from the checked surface, filtered to the record; `field` is the result's list field. */
  | { serve: SurfaceList; field: string }
  /** Forwarded as sent when `check` allows it; otherwise refused as a `what` not in the record. */
  | { forward: Check; what: string };

const isResourceApproved = (uri: string, ctx: AuthorizeContext) =>
  ctx.policy.resources.has(uri) || ctx.matchesTemplate(uri);
const byUri: Check = (params, ctx) => ({
  isAllowed: typeof params.uri === "string" && isResourceApproved(params.uri, ctx),
  target: String(params.uri),
});

const byStartedTask: Check = (params, ctx) => ({
  isAllowed: typeof params.taskId === "string" && ctx.startedTasks.has(params.taskId),
  target: String(params.taskId),
});

/** The whole table (docs/gate.md, "What the client sees and may do"). */
export const GATE_RULES: Readonly<Record<string, GateRule>> = Object.freeze({
  "tools/list": { serve: "tools", field: "tools" },
  "resources/list": { serve: "resources", field: "resources" },
  "resources/templates/list": { serve: "resourceTemplates", field: "resourceTemplates" },
  "prompts/list": { serve: "prompts", field: "prompts" },
  "tools/call": {
    what: "tool",
    forward: (params, ctx) => ({
      isAllowed: typeof params.name === "string" && ctx.visibleTools.has(params.name),
      target: String(params.name),
    }),
  },
  "tasks/get": { what: "task", forward: byStartedTask },
  "tasks/result": { what: "task", forward: byStartedTask },
  "tasks/cancel": { what: "task", forward: byStartedTask },
  "resources/read": { what: "resource", forward: byUri },
  "resources/subscribe": { what: "resource", forward: byUri },
  "resources/unsubscribe": { what: "resource", forward: byUri },
  "prompts/get": {
    what: "prompt",
    forward: (params, ctx) => ({
      isAllowed: typeof params.name === "string" && ctx.policy.prompts.has(params.name),
      target: String(params.name),
    }),
  },
  "completion/complete": {
    what: "completion reference",
    forward: (params, ctx) => {
      const ref = (params.ref ?? {}) as Params;
      const p = ctx.policy;
      const isAllowed =
        (ref.type === "ref/prompt" && typeof ref.name === "string" && p.prompts.has(ref.name)) ||
        (ref.type === "ref/resource" &&
          typeof ref.uri === "string" &&
          (p.resourceTemplates.includes(ref.uri) || p.resources.has(ref.uri)));
      return { isAllowed, target: JSON.stringify(ref) };
    },
  },
});

export type GateVerdict =
  | { kind: "serve"; list: SurfaceList; field: string }
  | { kind: "forward" }
  /** A JSON-RPC error for the client (`code`, `message`, `data`) and one event for stderr. */
  | {
      kind: "refuse";
      code: number;
      message: string;
      data: Record<string, unknown>;
      event: GateEvent;
    };

/** The gate's verdict on one request; `rules` is the table (a parameter so tests can drop a row). */
export function authorizeRequest(
  method: string,
  params: unknown,
  ctx: AuthorizeContext,
  rules: Readonly<Record<string, GateRule>> = GATE_RULES,
): GateVerdict {
  const p = ctx.policy;
  const rule = Object.hasOwn(rules, method) ? rules[method] : undefined;
  if (!rule) {
    return {
      kind: "refuse",
      code: GATE_ERROR.NOT_RELAYED,
      message: `relay-review gate: ${method} is not relayed: the gate has no rule for it, so decision ${p.decisionId} (${p.serverName}) does not allow it`,
      data: { reason: "no_rule", method, decision: p.decisionId },
      event: {
        event: "refused_request",
        method,
        target: "",
        reason: "no_rule",
        server: p.serverName,
        decision: p.decisionId,
      },
    };
  }
  if ("serve" in rule) return { kind: "serve", list: rule.serve, field: rule.field };
  const checked = rule.forward(
    params !== null && typeof params === "object" ? (params as Params) : {},
    ctx,
  );
  if (checked.isAllowed) return { kind: "forward" };
  const isCall = method === "tools/call";
  const isTask = rule.what === "task";
  return {
    kind: "refuse",
    code: GATE_ERROR.NOT_APPROVED,
    message: isTask
      ? `relay-review gate: task ${JSON.stringify(checked.target)} was not started through this gate by a tool decision ${p.decisionId} approves (${p.serverName}); only such a task can be followed or cancelled`
      : `relay-review gate: ${rule.what} ${JSON.stringify(checked.target)} is not approved for ${p.agentName} by decision ${p.decisionId} (${p.serverName})`,
    data: {
      reason: isTask ? "foreign_task" : "not_approved",
      decision: p.decisionId,
      ...(isCall ? { approvedTools: [...ctx.visibleTools] } : {}),
    },
    event: isCall
      ? {
          event: "refused_call",
          tool: checked.target,
          server: p.serverName,
          decision: p.decisionId,
        }
      : {
          event: "refused_request",
          method,
          target: checked.target,
          server: p.serverName,
          decision: p.decisionId,
        },
  };
}
