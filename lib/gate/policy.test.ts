import { describe, expect, test } from "vitest";
import { checkRecordAge, formatGateEvent, gatePolicyFromRecord } from "@/lib/gate/policy";
import { newKeyPair, unsignedOnCallRecord } from "@/tests/decisions/fixtures";
import { signRecord } from "@/lib/decisions/record";

const signed = (input: Parameters<typeof unsignedOnCallRecord>[0] = {}) =>
  signRecord(unsignedOnCallRecord(input), newKeyPair().privateKey);

describe("gatePolicyFromRecord", () => {
  test("approves only the record's own server's tools; resources split into URIs and templates", () => {
    const r = gatePolicyFromRecord(signed());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // the on-call tool set also holds deploy-tools/trigger_deploy: not this server's, not forwarded
    expect([...r.policy.tools].sort()).toEqual([
      "get_comment",
      "knowledge_search",
      "list_spaces",
      "read_page",
    ]);
    expect(r.policy.resourceTemplates).toEqual(["atlas://spaces/{key}"]);
    expect([...r.policy.resources]).toEqual([]);
    expect(r.policy.onSurfaceChange).toBe("block");
  });

  test.each([
    [{ verdict: "rejected" as const, conditions: [] }, "rejected_decision"],
    [{ surfaceSha256: null }, "no_live_surface"],
  ])("refuses %o as %s", (input, reason) => {
    const r = gatePolicyFromRecord(signed(input));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.refusal.reason).toBe(reason);
  });
});

describe("checkRecordAge", () => {
  const issuedAt = "2026-01-01T00:00:00.000Z";
  test.each([
    [null, "2030-01-01T00:00:00.000Z", false],
    [30, "2026-01-20T00:00:00.000Z", false],
    [30, "2026-02-15T00:00:00.000Z", true],
  ])("max %s days, now %s → stale %s", (max, now, isStale) => {
    const r = checkRecordAge({ issuedAt }, new Date(now), max);
    expect(r !== null).toBe(isStale);
    if (r) expect(r.reason).toBe("stale");
  });
});

test("events are one JSON line each, with a time", () => {
  const line = formatGateEvent(
    { event: "refused_call", tool: "get_comment", server: "knowledge-mcp", decision: "d" },
    new Date("2026-01-01T00:00:00Z"),
  );
  expect(line.endsWith("\n")).toBe(true);
  expect(line.trim().split("\n")).toHaveLength(1);
  expect(JSON.parse(line)).toEqual({
    event: "refused_call",
    tool: "get_comment",
    server: "knowledge-mcp",
    decision: "d",
    time: "2026-01-01T00:00:00.000Z",
  });
});
