import { describe, expect, test } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { WriterPopulationSchema } from "@/lib/review/schema";
import {
  MIN_ACCOUNTS_AN_ATTACK_NEEDS,
  sourceWriterBound,
  writerBound,
} from "@/lib/sources/writer-bound";

const demo = createDemoReview();
const source = (id: string) => {
  const s = demo.sources.find((x) => x.id === id);
  if (!s) throw new Error(`demo has no source ${id}`);
  return s;
};

describe("writer bound — the seed's numbers", () => {
  test("the support portal: open signup makes the bound everyone with an email address, 31,400 a floor", () => {
    const r = sourceWriterBound(source("support-portal"));
    expect(r.bound).toEqual({
      kind: "everyone_with_an_email_address",
      label: "everyone with an email address",
      floor: 31_400,
    });
    expect(r.reachesOutsideBoundary).toBe(true);
    expect(r.minAccountsAnAttackNeeds).toBe(1);
  });

  test("2,100 of 31,400 active is a usage fact (about one in fifteen), never part of the bound", () => {
    const r = sourceWriterBound(source("support-portal"));
    expect(r.usage?.label).toBe("2,100 of 31,400 external accounts wrote in the last year");
    expect(Math.round(1 / (r.usage?.ratio ?? 0))).toBe(15);
    expect(r.usage?.note).toMatch(/not part of the bound/);
    // Changing activity never moves the bound.
    const quieter = writerBound(
      WriterPopulationSchema.parse({ ...source("support-portal").writers, activeLastYear: 3 }),
    );
    expect(quieter.bound).toEqual(r.bound);
  });

  test("internal tracker projects: 412 writers, 38 contractors and 9 partner-org accounts among them", () => {
    const r = sourceWriterBound(source("tracker-internal"));
    expect(r.bound).toEqual({ kind: "counted", label: "412 accounts", count: 412 });
    expect(r.reachesOutsideBoundary).toBe(true);
    expect(r.reasons).toEqual(
      expect.arrayContaining(["9 partner-org accounts may write", "38 contractors may write"]),
    );
  });

  test.each([
    ["wiki", 380, false],
    ["wiki-partner", 24, true],
    ["wiki-comments", 404, true],
  ] as const)("wiki source %s: %i writers, outside boundary %s", (id, count, outside) => {
    const r = sourceWriterBound(source(id));
    expect(r.bound).toMatchObject({ kind: "counted", count });
    expect(r.reachesOutsideBoundary).toBe(outside);
  });

  test("a source that fetches linked external pages is writable by anyone with a web server (v4.2)", () => {
    const r = writerBound(
      WriterPopulationSchema.parse({
        ...source("support-portal").writers,
        fetchesLinkedExternalPages: true,
      }),
    );
    expect(r.bound).toEqual({
      kind: "anyone_with_a_web_server",
      label: "anyone with a web server",
      floor: 31_400,
    });
  });

  test("the smallest number of accounts an attack needs is one", () => {
    expect(MIN_ACCOUNTS_AN_ATTACK_NEEDS).toBe(1);
    for (const s of demo.sources) expect(sourceWriterBound(s).minAccountsAnAttackNeeds).toBe(1);
  });
});

describe("writer population validation", () => {
  test.each([
    [{ internalAccounts: 10, contractors: 8, partnerAccounts: 5 }, "contractors"],
    [{ externalAccounts: 10, activeLastYear: 11 }, "activeLastYear"],
    [{ internalAccounts: -1 }, "internalAccounts"],
    [{ internalAccounts: 1.5 }, "internalAccounts"],
  ])("%o is rejected at %s", (input, path) => {
    const r = WriterPopulationSchema.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });
});
