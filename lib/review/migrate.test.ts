import { describe, expect, test } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { loadReviewDocument } from "@/lib/review/migrate";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";

describe("loading stored reviews", () => {
  test("the current version loads unchanged", () => {
    const demo = createDemoReview();
    const r = loadReviewDocument(JSON.parse(JSON.stringify(demo)));
    expect(r).toEqual({ ok: true, review: demo, upgradedFrom: null });
  });

  test("a v1 document (toolSources, single decision) loads upgraded to the current version", () => {
    const v1 = {
      schemaVersion: 1,
      title: "old review",
      servers: [{ id: "srv", name: "srv", transport: { kind: "manual" } }],
      sources: [{ id: "portal", name: "portal", writers: { externalAccounts: 5 } }],
      toolSources: [{ serverId: "srv", tool: "search", sourceIds: ["portal"] }],
      decision: null,
    };
    const r = loadReviewDocument(v1);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.upgradedFrom).toBe(1);
    expect(r.review.schemaVersion).toBe(REVIEW_SCHEMA_VERSION);
    expect(r.review.tools).toEqual([
      {
        serverId: "srv",
        tool: "search",
        sourceIds: ["portal"],
        roles: ["returns_untrusted_text"],
        rolesConfirmed: false,
      },
    ]);
    expect(r.review.decisions).toEqual([]);
    expect(r.review).not.toHaveProperty("toolSources");
  });

  test.each([
    [null, "(root)"],
    [[], "(root)"],
    [{ title: "x" }, "schemaVersion"],
    [{ schemaVersion: 99, title: "x" }, "schemaVersion"],
  ])("%o is refused with an issue at %s", (raw, path) => {
    const r = loadReviewDocument(raw);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => (i.path.length ? i.path.join(".") : "(root)"))).toContain(path);
  });

  test("a dangling reference names its path", () => {
    const demo = createDemoReview();
    const broken = {
      ...demo,
      agents: [{ ...demo.agents[0]!, tools: [{ serverId: "nope", tool: "x" }] }],
    };
    const r = loadReviewDocument(broken);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]?.path.join(".")).toBe("agents.0.tools.0.serverId");
    expect(r.issues[0]?.message).toMatch(/unknown server "nope"/);
  });
});

describe("names saved before control characters were refused", () => {
  test("load with each control character shown as U+FFFD instead of failing; other faults still fail", () => {
    const doc = JSON.parse(JSON.stringify(createDemoReview())) as {
      agents: { name: string }[];
      title: string;
      servers: unknown[];
    };
    doc.agents[0]!.name = "on-call\u001b[2J agent";
    doc.title = "Line\nbreak";
    const loaded = loadReviewDocument(doc);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.review.agents[0]!.name).toBe("on-call\ufffd[2J agent");
    expect(loaded.review.title).toBe("Line\ufffdbreak");
    doc.servers = "not a list" as unknown as unknown[];
    expect(loadReviewDocument(doc).ok).toBe(false);
  });
});
