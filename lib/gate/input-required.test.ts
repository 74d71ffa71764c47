import { describe, expect, test } from "vitest";
import {
  MAX_INPUT_REQUESTS,
  asLegacyRequest,
  isInputRequired,
  judgeInputRequired,
  type InputPolicy,
} from "@/lib/gate/input-required";

const policy = (caps: string[], domains: string[] = []): InputPolicy => ({
  declaredCapabilities: new Set(caps),
  elicitationUrlDomains: domains,
});
const RECORDED = policy(["elicitation", "roots", "sampling"], ["login.example.com"]);
const elicitUrl = (url: unknown) => ({
  method: "elicitation/create",
  params: { mode: "url", message: "sign in", url },
});

describe("judgeInputRequired", () => {
  test("a form elicitation is relayed when the record's inspection declared elicitation", () => {
    const r = judgeInputRequired(
      {
        resultType: "input_required",
        inputRequests: { c: { method: "elicitation/create", params: { message: "ok?" } } },
        requestState: "s1",
      },
      RECORDED,
    );
    expect(r).toEqual({
      ok: true,
      requests: [{ key: "c", method: "elicitation/create", mode: "form" }],
      requestState: "s1",
    });
    const none = judgeInputRequired(
      { inputRequests: { c: { method: "elicitation/create", params: {} } } },
      policy(["roots"]),
    );
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.message).toContain("did not declare elicitation");
  });

  test("URL mode: https to a recorded host exactly; a subdomain, another host or http is refused", () => {
    const judge = (url: unknown) =>
      judgeInputRequired({ inputRequests: { u: elicitUrl(url) } }, RECORDED);
    expect(judge("https://login.example.com/a?b=c")).toMatchObject({
      ok: true,
      requests: [{ mode: "url", host: "login.example.com" }],
    });
    expect(judge("https://LOGIN.example.com/")).toMatchObject({ ok: true });
    for (const [url, why] of [
      ["https://evil.login.example.com/", "evil.login.example.com, which is not among"],
      ["https://login.example.com.evil.net/", "login.example.com.evil.net, which is not among"],
      ["http://login.example.com/", "only https URLs are relayed"],
      ["not a url", "without a URL"],
      [42, "without a URL"],
    ] as const) {
      const r = judge(url);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toContain(why);
    }
    const noDomains = judgeInputRequired(
      { inputRequests: { u: elicitUrl("https://login.example.com/") } },
      policy(["elicitation"]),
    );
    if (noDomains.ok) throw new Error("expected a refusal");
    expect(noDomains.message).toContain("elicitation_url_domains (none)");
  });

  test("sampling and unknown methods are refused; one refusal refuses the whole result", () => {
    const r = judgeInputRequired(
      {
        inputRequests: {
          a: { method: "elicitation/create", params: { message: "fine" } },
          b: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } },
          c: { method: "tools/call" },
          d: "not an object",
        },
      },
      RECORDED,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.requests.map((q) => [q.key, q.refused === undefined])).toEqual([
      ["a", true],
      ["b", false],
      ["c", false],
      ["d", false],
    ]);
    expect(r.message).toContain('"b" (sampling/createMessage): sampling');
    expect(r.message).toContain('"c" (tools/call): not an input request the gate knows');
  });

  test("roots need the declared capability; malformed results are refused", () => {
    expect(
      judgeInputRequired({ inputRequests: { r: { method: "roots/list" } } }, RECORDED).ok,
    ).toBe(true);
    expect(
      judgeInputRequired({ inputRequests: { r: { method: "roots/list" } } }, policy([])).ok,
    ).toBe(false);
    expect(judgeInputRequired({ inputRequests: [] }, RECORDED).ok).toBe(false);
    expect(judgeInputRequired({}, RECORDED).ok).toBe(false);
    expect(judgeInputRequired({ requestState: "only-state" }, RECORDED)).toEqual({
      ok: true,
      requests: [],
      requestState: "only-state",
    });
    const many = Object.fromEntries(
      Array.from({ length: MAX_INPUT_REQUESTS + 1 }, (_, i) => [`k${i}`, { method: "roots/list" }]),
    );
    expect(judgeInputRequired({ inputRequests: many }, RECORDED).ok).toBe(false);
  });

  test("isInputRequired reads the discriminator only", () => {
    expect(isInputRequired({ resultType: "input_required" })).toBe(true);
    expect(isInputRequired({ resultType: "complete", content: [] })).toBe(false);
    expect(isInputRequired(null)).toBe(false);
  });

  test("asLegacyRequest gives URL-mode elicitation the elicitationId the 2025 era requires", () => {
    const url = elicitUrl("https://login.example.com/");
    expect(asLegacyRequest(url.method, url.params, () => "id-1")).toEqual({
      method: "elicitation/create",
      params: { ...url.params, elicitationId: "id-1" },
    });
    expect(asLegacyRequest("roots/list", undefined, () => "x")).toEqual({ method: "roots/list" });
  });
});
