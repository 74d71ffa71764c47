import { describe, expect, test } from "vitest";
import { GATE_RULES, authorizeRequest, type AuthorizeContext } from "@/lib/gate/authorize";
import { GATE_ERROR, type GatePolicy } from "@/lib/gate/policy";

const POLICY: GatePolicy = {
  decisionId: "dec-1",
  serverId: "knowledge-mcp",
  serverName: "knowledge-mcp",
  agentName: "docs agent",
  surfaceSha256: "a".repeat(64),
  declaredCapabilities: [],
  onSurfaceChange: "block",
  tools: new Set(["knowledge_search", "read_page", "gone_tool"]),
  resources: new Set(["atlas://readme"]),
  resourceTemplates: ["atlas://spaces/{key}"],
  prompts: new Set(["summarise"]),
};
// The record names gone_tool, but the server no longer lists it: only listed tools are callable.
const CTX: AuthorizeContext = {
  policy: POLICY,
  visibleTools: new Set(["knowledge_search", "read_page"]),
  matchesTemplate: (uri) => /^atlas:\/\/spaces\/[^/]+$/.test(uri),
  startedTasks: new Set(["task-started-here"]),
};

describe("authorizeRequest", () => {
  test.each([
    ["tools/list", {}, "tools"],
    ["resources/list", {}, "resources"],
    ["resources/templates/list", {}, "resourceTemplates"],
    ["prompts/list", {}, "prompts"],
  ])("%s is answered from the checked surface (%s)", (method, params, list) => {
    expect(authorizeRequest(method, params, CTX)).toEqual({ kind: "serve", list, field: list });
  });

  test.each([
    ["tools/call", { name: "knowledge_search", arguments: {} }],
    ["resources/read", { uri: "atlas://readme" }],
    ["resources/read", { uri: "atlas://spaces/ENG" }],
    ["resources/subscribe", { uri: "atlas://spaces/ENG" }],
    ["resources/unsubscribe", { uri: "atlas://readme" }],
    ["prompts/get", { name: "summarise" }],
    ["completion/complete", { ref: { type: "ref/prompt", name: "summarise" } }],
    ["completion/complete", { ref: { type: "ref/resource", uri: "atlas://spaces/{key}" } }],
  ])("%s %o is forwarded", (method, params) => {
    expect(authorizeRequest(method, params, CTX)).toEqual({ kind: "forward" });
  });

  test.each([
    [
      "tools/call",
      { name: "get_comment" },
      'tool "get_comment"',
      { event: "refused_call", tool: "get_comment" },
    ],
    [
      "tools/call",
      { name: "gone_tool" },
      'tool "gone_tool"',
      { event: "refused_call", tool: "gone_tool" },
    ],
    ["tools/call", {}, 'tool "undefined"', { event: "refused_call", tool: "undefined" }],
    [
      "resources/read",
      { uri: "file:///etc/passwd" },
      'resource "file:///etc/passwd"',
      { event: "refused_request", method: "resources/read" },
    ],
    [
      "resources/subscribe",
      { uri: "atlas://spaces/ENG/secret" },
      'resource "atlas://spaces/ENG/secret"',
      { event: "refused_request" },
    ],
    [
      "prompts/get",
      { name: "exfiltrate" },
      'prompt "exfiltrate"',
      { event: "refused_request", target: "exfiltrate" },
    ],
    [
      "completion/complete",
      { ref: { type: "ref/prompt", name: "exfiltrate" } },
      "completion reference",
      { event: "refused_request" },
    ],
  ])("%s %o is refused as not approved", (method, params, named, event) => {
    const v = authorizeRequest(method, params, CTX);
    expect(v.kind).toBe("refuse");
    if (v.kind !== "refuse") return;
    expect(v.code).toBe(GATE_ERROR.NOT_APPROVED);
    expect(v.message.startsWith(`relay-review gate: ${named} `)).toBe(true);
    expect(v.message).toContain("is not approved for docs agent by decision dec-1 (knowledge-mcp)");
    expect(v.event).toMatchObject({ ...event, server: "knowledge-mcp", decision: "dec-1" });
    expect(v.data.reason).toBe("not_approved");
  });

  test("a refused call names the tools that are approved", () => {
    const v = authorizeRequest("tools/call", { name: "get_comment" }, CTX);
    expect(v.kind === "refuse" && v.data.approvedTools).toEqual(["knowledge_search", "read_page"]);
  });

  test.each(["tasks/list", "sampling/createMessage", "constructor", "toString", "no/such/method"])(
    "%s has no rule: refused by name, with an event",
    (method) => {
      const v = authorizeRequest(method, {}, CTX);
      expect(v).toMatchObject({
        kind: "refuse",
        code: GATE_ERROR.NOT_RELAYED,
        data: { reason: "no_rule", method },
        event: {
          event: "refused_request",
          method,
          reason: "no_rule",
          server: "knowledge-mcp",
          decision: "dec-1",
        },
      });
      if (v.kind === "refuse") expect(v.message).toContain(`${method} is not relayed`);
    },
  );

  test("dropping a row from the table refuses that method by name instead of forwarding it", () => {
    const { "tools/call": _dropped, ...rest } = GATE_RULES;
    const v = authorizeRequest("tools/call", { name: "knowledge_search" }, CTX, rest);
    expect(v).toMatchObject({
      kind: "refuse",
      code: GATE_ERROR.NOT_RELAYED,
      message: expect.stringContaining("tools/call is not relayed") as unknown,
    });
  });

  test("params that are not an object are checked as empty", () => {
    expect(authorizeRequest("tools/call", "knowledge_search", CTX).kind).toBe("refuse");
    expect(authorizeRequest("tools/call", null, CTX).kind).toBe("refuse");
  });

  test.each(["tasks/get", "tasks/result", "tasks/cancel"])(
    "%s is forwarded for a task this gate started, refused for any other handle",
    (method) => {
      expect(authorizeRequest(method, { taskId: "task-started-here" }, CTX)).toEqual({
        kind: "forward",
      });
      for (const params of [{ taskId: "task-of-someone-else" }, {}, { taskId: 7 }]) {
        const v = authorizeRequest(method, params, CTX);
        expect(v.kind).toBe("refuse");
        if (v.kind !== "refuse") continue;
        expect(v.code).toBe(GATE_ERROR.NOT_APPROVED);
        expect(v.data.reason).toBe("foreign_task");
        expect(v.message).toMatch(/was not started through this gate/);
        expect(v.event).toMatchObject({ event: "refused_request", method });
      }
    },
  );

  test("tasks/list is not relayed: it would name handles the gate did not start", () => {
    expect(authorizeRequest("tasks/list", {}, CTX)).toMatchObject({
      kind: "refuse",
      code: GATE_ERROR.NOT_RELAYED,
    });
  });
});
