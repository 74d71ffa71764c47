import { describe, expect, test } from "vitest";
import { ListDecisionsResponseSchema, type DecisionView } from "@/lib/decisions/api";
import { decisionBasis } from "@/lib/decisions/binding";
import { decisionStatus } from "@/lib/decisions/staleness";
import {
  checkRecordAgainstWorkbench,
  decisionsEndpoint,
  parseWorkbenchBase,
  sendsCredentialInClear,
  shareEndpoint,
  workbenchHttpFailure,
} from "@/lib/decisions/workbench-check";
import type { Decision, Review, ToolRef } from "@/lib/review/schema";
import { SURFACE_SHA, reviewWithDecision, unsignedOnCallRecord } from "@/tests/decisions/fixtures";

/** The decisions list as the workbench would send it (through JSON and the shared schema), after `change`. */
function workbenchViews(
  change: (review: Review) => void = () => undefined,
  decision: (d: Decision) => Decision = (d) => d,
): DecisionView[] {
  const { review } = reviewWithDecision();
  change(review);
  const decisions = review.decisions.map((d) => {
    const shown = decision(d);
    return {
      decision: shown,
      status: decisionStatus(shown, { review, currentSurfaceSha256: SURFACE_SHA }),
      conditionChecks: [],
      basis: { kind: decisionBasis(shown).kind, label: decisionBasis(shown).label },
    };
  });
  const wire = JSON.parse(JSON.stringify({ revision: 7, decisions, surfaces: [] })) as unknown;
  return ListDecisionsResponseSchema.parse(wire).decisions;
}

const record = unsignedOnCallRecord();

describe("checkRecordAgainstWorkbench", () => {
  test("current when the workbench holds the same decision and nothing it is bound to changed", () => {
    expect(checkRecordAgainstWorkbench(record, workbenchViews())).toMatchObject({
      kind: "current",
    });
  });

  test.each<[string, (r: Review) => void, string, RegExp]>([
    [
      "a tool added to the agent",
      (r) => {
        r.servers[1]!.declaredTools.push({ name: "share_file", description: "" });
        r.agents[0]!.tools.push({ serverId: "deploy-tools", tool: "share_file" } as ToolRef);
      },
      "tool_set",
      /added share_file on deploy-tools \(not under review\)/,
    ],
    [
      "the credential's scopes",
      (r) => void r.controls.credentials[0]!.scopes.push("write:issue"),
      "controls",
      /the controls changed/,
    ],
    [
      "the image digest",
      (r) =>
        void (r.servers[0]!.imageDigest = `ghcr.io/atlas/knowledge-mcp@sha256:${"4".repeat(64)}`),
      "image_digest",
      /4444/,
    ],
  ])("stale after %s, with the workbench's message", (_label, change, what, message) => {
    const check = checkRecordAgainstWorkbench(record, workbenchViews(change));
    expect(check.kind).toBe("stale");
    if (check.kind !== "stale") return;
    expect(check.changes.map((c) => c.what)).toEqual([what]);
    expect(check.changes[0]!.message).toMatch(message);
  });

  test("not_found when the workbench lists no decision with the record's id", () => {
    const views = workbenchViews(undefined, (d) => ({ ...d, id: "dec-other" as Decision["id"] }));
    expect(checkRecordAgainstWorkbench(record, views)).toEqual({
      kind: "not_found",
      decisionId: "dec-on-call",
    });
    expect(checkRecordAgainstWorkbench(record, [])).toMatchObject({ kind: "not_found" });
  });

  test("differs when the workbench's decision by that id is bound to other fingerprints", () => {
    const other = "c0ffee".padEnd(64, "0");
    const views = workbenchViews(undefined, (d) => ({
      ...d,
      rationale: "another rationale",
      bound: { ...d.bound, controlsSha256: other as Decision["bound"]["controlsSha256"] },
    }));
    const check = checkRecordAgainstWorkbench(record, views);
    expect(check.kind).toBe("differs");
    if (check.kind !== "differs") return;
    expect(check.differences).toEqual([
      { field: "rationale", record: null, workbench: null },
      {
        field: "bound.controlsSha256",
        record: record.decision.bound.controlsSha256,
        workbench: other,
      },
    ]);
  });

  test("the order of the workbench's stored tool set is not a difference", () => {
    const views = workbenchViews(undefined, (d) => ({ ...d, toolSet: [...d.toolSet].reverse() }));
    expect(checkRecordAgainstWorkbench(record, views)).toMatchObject({ kind: "current" });
  });
});

describe("where to ask", () => {
  test.each([
    ["http://127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["http://127.0.0.1:3000/", "http://127.0.0.1:3000"],
    ["https://review.example/relay//", "https://review.example/relay"],
  ])("workbench %s → base %s", (input, base) => {
    expect(parseWorkbenchBase(input)).toEqual({ ok: true, base });
  });

  test.each([
    ["127.0.0.1:3000", /is not a URL|http\(s\)/],
    ["file:///etc/passwd", /http\(s\)/],
    ["http://owner:secret@127.0.0.1:3000", /credentials/],
    ["http://127.0.0.1:3000/?x=1", /without a query/],
  ])("workbench %s is refused", (input, message) => {
    const parsed = parseWorkbenchBase(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  test("the decisions list of the record's review, id escaped", () => {
    expect(decisionsEndpoint("http://h:1/p", "rev-a")).toEqual({
      apiUrl: "http://h:1/p/api/reviews/rev-a/decisions",
      shown: "http://h:1/p",
    });
  });

  const TOKEN = "A".repeat(21) + "_-" + "z".repeat(20);
  test.each([
    [
      `http://127.0.0.1:3000/share/${TOKEN}`,
      `http://127.0.0.1:3000/api/share/${TOKEN}`,
      "http://127.0.0.1:3000/share/…",
    ],
    [
      `https://h.example/relay/share/${TOKEN}/?utm=x#top`,
      `https://h.example/relay/api/share/${TOKEN}`,
      "https://h.example/relay/share/…",
    ],
  ])("share link %s → its API, shown without the token", (link, apiUrl, shown) => {
    expect(shareEndpoint(link)).toEqual({ ok: true, endpoint: { apiUrl, shown } });
  });

  test.each([
    "http://127.0.0.1:3000/reviews/rev-a",
    "http://127.0.0.1:3000/share/",
    "http://127.0.0.1:3000/share/a%2F..%2Fb",
    "http://127.0.0.1:3000/share/abc/extra",
    "javascript:alert(1)",
  ])("%s is not a share link", (link) => {
    expect(shareEndpoint(link).ok).toBe(false);
  });
});

describe("workbenchHttpFailure", () => {
  test.each<[Parameters<typeof workbenchHttpFailure>, RegExp]>([
    [
      ["share", 404, "there is no shared review at this link", "rev-a"],
      /^the share link is not valid \(revoked, expired or unknown\)$/,
    ],
    [
      ["owner", 404, 'no review with id "rev-a"', "rev-a"],
      /no review rev-a \(404: no review with id "rev-a"\)/,
    ],
    [
      ["owner", 401, "the bearer token is not the owner token", "rev-a"],
      /refused the token \(401: the bearer token/,
    ],
    [
      ["owner", 401, null, "rev-a", "/data/owner-token"],
      /refused the token from \/data\/owner-token \(401\);/,
    ],
    [["owner", 307, null, "rev-a"], /307 \(a redirect, not followed/],
    [["owner", 500, "boom", "rev-a"], /answered 500: boom/],
    [["share", 502, null, "rev-a"], /answered 502$/],
  ])("%j", (input, message) => {
    expect(workbenchHttpFailure(...input)).toMatch(message);
  });
});

describe("sendsCredentialInClear", () => {
  test.each([
    { url: "http://127.0.0.1:3000/api/x", clear: false },
    { url: "http://localhost:3000/api/x", clear: false },
    { url: "http://[::1]:3000/api/x", clear: false },
    { url: "https://review.corp.example/api/x", clear: false },
    { url: "http://review.corp.example/api/x", clear: true },
    { url: "http://10.0.0.5:3000/api/x", clear: true },
    { url: "http://127.0.0.1.evil.example/api/x", clear: true },
  ])("$url → $clear", ({ url, clear }) => {
    expect(sendsCredentialInClear(url)).toBe(clear);
  });
});
