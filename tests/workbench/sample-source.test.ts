/**
 * Sampling a source from the workbench (issue 31 item 3), through the real route handler: a real
 * stdio server (tests/fixtures/servers/tickets-server.ts), allowlisted in the launcher file and
 * started in the sandbox exactly as an inspection starts it, returns a planted ticket and a clean
 * one. The planted one is flagged with its reasons and an excerpt whose hidden character is shown;
 * both count into the source's "k flagged of n scanned"; a tool the review says writes, and one
 * the server itself annotates destructive, are refused with a clear error and never run. The same
 * goes for its resources: a listed URI and a template expanded with the reviewer's variables are
 * read and scanned, a variable that would reach another path is refused before anything starts.
 * What each sample showed about returned text is kept with the item's assessment (its last three,
 * one revision each, nothing on a refusal) and read back from the store (issue 32).
 * On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REVIEW_SCHEMA_VERSION, type ReviewInput } from "@/lib/review/schema";
import { sandboxStatus } from "@/lib/sandbox/node/sandbox";
import type * as StoreDb from "@/lib/store/db";
import { SampleResultSchema } from "@/lib/workbench/sample-api";
import { BACKENDS, useProcessStore } from "@/tests/store/support/backends";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ARGS = ["--import", "tsx", "tests/fixtures/servers/tickets-server.ts"];

const base = mkdtempSync(path.join(tmpdir(), "rr-sample-"));
const dataDir = path.join(base, "data");
mkdirSync(dataDir);
writeFileSync(
  path.join(dataDir, "launchers.json"),
  JSON.stringify({
    version: 1,
    launchers: [{ id: "tickets", command: "node", args: ARGS, fixture: false }],
  }),
);
process.env.RELAY_REVIEW_DATA = dataDir;
process.env.RELAY_REVIEW_ROOT = ROOT;
delete process.env.DATABASE_URL;
delete process.env.RELAY_REVIEW_UNSANDBOXED;

const review: ReviewInput = {
  schemaVersion: REVIEW_SCHEMA_VERSION,
  title: "support portal",
  servers: [
    {
      id: "tickets",
      name: "tickets",
      transport: { kind: "stdio", command: "node", args: ARGS, envNames: [] },
    },
  ],
  sources: [
    {
      id: "portal",
      name: "Support portal",
      kind: "support_portal",
      writers: { externalAccounts: 31_400 },
    },
  ],
  tools: [
    {
      serverId: "tickets",
      tool: "get_ticket",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    // Read-only, confirmed, and not assessed as returning untrusted text: sampling checks that.
    {
      serverId: "tickets",
      tool: "list_queues",
      sourceIds: [],
      roles: ["reads_private_data"],
      rolesConfirmed: true,
    },
    {
      serverId: "tickets",
      tool: "close_ticket",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text", "writes"],
      rolesConfirmed: true,
    },
    {
      serverId: "tickets",
      tool: "purge_ticket",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "tickets",
      tool: "tickets://queue/latest",
      item: "resource",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "tickets",
      tool: "tickets://ticket/{id}",
      item: "resource_template",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "tickets",
      tool: "tickets://archive/2019",
      item: "resource",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "tickets",
      tool: "tickets://audit/trail",
      item: "resource",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text", "writes"],
      rolesConfirmed: true,
    },
  ],
  agents: [
    {
      id: "support",
      name: "support-agent",
      tools: [{ serverId: "tickets", tool: "get_ticket" }],
    },
  ],
};

type Handler = (
  request: Request,
  context: { params: Promise<{ id: string; serverId: string }> },
) => Promise<Response>;

let post: Handler;
let store: typeof StoreDb;

beforeAll(async () => {
  post = (await import("@/app/api/reviews/[id]/servers/[serverId]/sample/route")).POST;
  store = await import("@/lib/store/db");
}, 120_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe.each(BACKENDS)("sampling a source from the workbench on $name", (backend) => {
  useProcessStore(backend);
  let reviewId: string;
  beforeAll(async () => {
    const { createReview } = await import("@/lib/store/reviews");
    reviewId = (await createReview(await store.getDb(), review, "t")).id;
  }, 120_000);

  const sample = (
    tool: string,
    args: Record<string, unknown>,
    item: "tool" | "resource" | "resource_template" = "tool",
  ) =>
    post(
      new Request(`http://127.0.0.1/api/reviews/${reviewId}/servers/tickets/sample`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ item, tool, arguments: args }),
      }),
      { params: Promise.resolve({ id: reviewId, serverId: "tickets" }) },
    );

  const T = { timeout: 180_000 };

  test("this machine has a working sandbox (the sample runs in it or not at all)", () => {
    expect(sandboxStatus().ok).toBe(true);
  });

  test(
    "a planted ticket is flagged, a clean one is not; both count into the source",
    T,
    async () => {
      const planted = await sample("get_ticket", { id: "T-4411" });
      expect(planted.status).toBe(200);
      const p = SampleResultSchema.parse(await planted.json());
      expect(p).toMatchObject({
        tool: "get_ticket",
        server: "tickets",
        sources: ["Support portal"],
        flagged: true,
        isError: false,
      });
      expect(p.reasons.map((r) => r.signal)).toContain("addressed-to-ai");
      expect(p.excerpt).toContain("AI assistant");
      // The right-to-left override is shown, not applied.
      expect(p.preview).toContain("⟨U+202E⟩");
      expect(p.preview).not.toContain("\u202E");

      const clean = SampleResultSchema.parse(
        await (await sample("get_ticket", { id: "T-4412" })).json(),
      );
      expect(clean).toMatchObject({ flagged: false, sources: ["Support portal"] });
      expect(clean.preview).toContain("cannot log in");
      // What came back carries prose someone wrote, in the ticket's body (issue 32).
      expect(clean.returnedText).toEqual({
        kind: "prose",
        fields: [{ path: "body", values: 1, longestWords: 12 }],
        values: 3,
      });

      // Started as an inspection is: inside the sandbox, with its home, not this user's.
      const where = SampleResultSchema.parse(
        await (await sample("get_ticket", { id: "whoami" })).json(),
      );
      expect(where.preview).toBe("home /home/sandbox");

      const { detectionView } = await import("@/lib/workbench/detection-report");
      const db = await store.getDb();
      const view = await detectionView(db, reviewId);
      expect(view.perSource.map((c) => [c.name, c.flagged.k, c.flagged.n])).toEqual([
        ["tickets", 1, 3],
      ]);
      // A sample is no agent's traffic: it is counted per source only.
      expect(view.perAgent).toEqual([]);

      const { listEvents } = await import("@/lib/store/events");
      const flags = (await listEvents(db, "owner", { kind: "content.flagged" })).events;
      expect(flags).toHaveLength(1);
      expect(flags[0]!.detail).toMatchObject({
        origin: "sample",
        tool: "get_ticket",
        sources: ["Support portal"],
      });
      const runs = (await listEvents(db, "owner", { kind: "source.sampled" })).events;
      expect(runs).toHaveLength(3);
      // The log names the arguments, never their values.
      expect(JSON.stringify(runs)).not.toContain("T-4411");
    },
  );

  test("a tool that is not read-only is refused with a clear error and never runs", T, async () => {
    const db = await store.getDb();
    const { listEvents } = await import("@/lib/store/events");
    const before = (await listEvents(db, "owner", { kind: "source.sampled" })).events.length;

    const writes = await sample("close_ticket", { id: "T-4411" });
    expect(writes.status).toBe(422);
    expect(JSON.stringify(await writes.json())).toMatch(
      /close_ticket\\" is not read-only: the review gives it writes/,
    );

    const destructive = await sample("purge_ticket", { id: "T-4411" });
    expect(destructive.status).toBe(422);
    expect(JSON.stringify(await destructive.json())).toMatch(
      /purge_ticket\\" is not read-only: the server annotates it destructiveHint: true/,
    );

    const unassessed = await sample("list_everything", {});
    expect(unassessed.status).toBe(422);
    expect(JSON.stringify(await unassessed.json())).toMatch(/no assessment of tool/);

    expect((await listEvents(db, "owner", { kind: "source.sampled" })).events).toHaveLength(before);
    const { detectionView } = await import("@/lib/workbench/detection-report");
    expect((await detectionView(db, reviewId)).total?.flagged.n).toBe(3);
  });

  test(
    "a resource and a template with the reviewer's variable are read, scanned and counted",
    T,
    async () => {
      const db = await store.getDb();
      const { detectionView } = await import("@/lib/workbench/detection-report");
      const { listEvents } = await import("@/lib/store/events");
      const counted = async () => (await detectionView(db, reviewId)).total?.flagged;
      const before = await counted();

      const latest = await sample("tickets://queue/latest", {}, "resource");
      expect(latest.status).toBe(200);
      const l = SampleResultSchema.parse(await latest.json());
      expect(l).toMatchObject({
        item: "resource",
        tool: "tickets://queue/latest",
        uri: "tickets://queue/latest",
        sources: ["Support portal"],
        flagged: true,
      });
      expect(l.reasons.map((r) => r.signal)).toContain("addressed-to-ai");
      expect(l.preview).toContain("⟨U+202E⟩");
      expect(l.preview).not.toContain("\u202E");

      const clean = await sample("tickets://ticket/{id}", { id: "T-4412" }, "resource_template");
      expect(clean.status).toBe(200);
      const c = SampleResultSchema.parse(await clean.json());
      expect(c).toMatchObject({
        item: "resource_template",
        uri: "tickets://ticket/T-4412",
        flagged: false,
        sources: ["Support portal"],
      });
      expect(c.preview).toContain("cannot log in");

      // Both count into the source: one more flagged, two more scanned.
      expect(await counted()).toMatchObject({ k: before!.k + 1, n: before!.n + 2 });

      const flags = (await listEvents(db, "owner", { kind: "content.flagged" })).events;
      expect(flags.find((f) => f.detail.method === "resources/read")?.detail).toMatchObject({
        origin: "sample",
        tool: "tickets://queue/latest",
        sources: ["Support portal"],
      });
      const runs = (await listEvents(db, "owner", { kind: "source.sampled" })).events;
      const reads = runs.filter((r) => r.detail.item !== "tool");
      expect(reads.map((r) => r.detail.item).sort()).toEqual(["resource", "resource_template"]);
      expect(reads.find((r) => r.detail.item === "resource")?.detail.uri).toBe(
        "tickets://queue/latest",
      );
      // The log names the template's variables, never their values, and never the text read.
      expect(reads.find((r) => r.detail.item === "resource_template")?.detail).toMatchObject({
        tool: "tickets://ticket/{id}",
        argumentNames: ["id"],
      });
      expect(JSON.stringify(reads)).not.toContain("T-4412");
      expect(JSON.stringify(runs)).not.toContain("cannot log in");
    },
  );

  test(
    "a resource the review says writes, a variable that reaches another path, and a resource the server does not list are refused",
    T,
    async () => {
      const db = await store.getDb();
      const { listEvents } = await import("@/lib/store/events");
      const before = (await listEvents(db, "owner", { kind: "source.sampled" })).events.length;
      const refused = async (res: Response, pattern: RegExp) => {
        expect(res.status).toBe(422);
        expect(JSON.stringify(await res.json())).toMatch(pattern);
      };

      await refused(
        await sample("tickets://audit/trail", {}, "resource"),
        /refused to sample this resource: resource \\"tickets:\/\/audit\/trail\\" is not read-only: the review gives it writes/,
      );
      // The SDK's expansion encodes "/", but a raw "../" from a reserved expansion or an encoded
      // slash is what the strict rule exists for: both are refused, and so is a missing variable.
      await refused(
        await sample("tickets://ticket/{id}", { id: "../audit/trail" }, "resource_template"),
        /does not admit strictly|not admit/,
      );
      await refused(
        await sample("tickets://ticket/{id}", {}, "resource_template"),
        /needs a value for \\"id\\"/,
      );
      await refused(
        await sample("tickets://ticket/{id}", { id: 4412 }, "resource_template"),
        /variable \\"id\\" of resource template .* must be a string/,
      );
      await refused(
        await sample("tickets://queue/latest", { id: "x" }, "resource"),
        /takes no arguments/,
      );
      await refused(
        await sample("tickets://ticket/{id}", { id: "T-4412" }, "resource"),
        /no assessment of resource/,
      );
      expect((await listEvents(db, "owner", { kind: "source.sampled" })).events).toHaveLength(
        before,
      );
    },
  );

  test(
    "a confirmed read-only tool not assessed as returning text can be sampled: its names come back as no prose",
    T,
    async () => {
      const res = await sample("list_queues", {});
      expect(res.status, await res.clone().text()).toBe(200);
      const queues = SampleResultSchema.parse(await res.json());
      expect(queues).toMatchObject({ tool: "list_queues", sources: [], flagged: false });
      expect(queues.returnedText).toEqual({ kind: "names_only", values: 6, longestWords: 3 });
    },
  );

  test(
    "what a sample showed is kept with the item, one revision each, its last three; a refusal keeps nothing",
    T,
    async () => {
      const db = await store.getDb();
      const { getReview, getRevision } = await import("@/lib/store/reviews");
      const { revisionLine } = await import("@/lib/reviews/revision-line");
      const assessed = async (tool: string) =>
        (await getReview(db, reviewId))!.review.tools.find(
          (t) => t.tool === tool && (t.item ?? "tool") === "tool",
        )!;
      const started = new Date().toISOString();
      const before = (await getReview(db, reviewId))!.revision;

      // Four runs of one tool: each is a revision, and the tool keeps the last three.
      for (const id of ["whoami", "T-4412", "whoami", "T-4412"]) {
        const res = await sample("get_ticket", { id });
        expect(res.status, await res.clone().text()).toBe(200);
      }
      const record = (await getReview(db, reviewId))!;
      expect(record.revision).toBe(before + 4);
      const kept = (await assessed("get_ticket")).samples!;
      expect(kept.map((k) => k.kind)).toEqual(["prose", "names_only", "prose"]);
      // When (checked below), by whom, the kind and the prose's fields: nothing else.
      const { at: _at, ...newest } = kept[2]!;
      expect(newest).toEqual({
        by: "owner",
        kind: "prose",
        fields: [{ path: "body", values: 1 }],
      });
      expect(kept.every((k) => k.at >= started && k.at <= new Date().toISOString())).toBe(true);
      // Neither the arguments nor the text came along; and no role changed.
      expect(JSON.stringify(kept)).not.toMatch(/T-4412|whoami|cannot log in|sandbox/);
      expect((await assessed("get_ticket")).roles).toEqual(["returns_untrusted_text"]);
      // The one-line account of the last revision says what it kept.
      const last = await getRevision(db, reviewId, record.revision);
      const previous = await getRevision(db, reviewId, record.revision - 1);
      expect(revisionLine(previous!.review, last!.review)).toBe("sampled get_ticket: prose");
      expect(last!.author).toBe("owner");

      // The sample of the queues an earlier test ran is there too.
      expect((await assessed("list_queues")).samples?.map((k) => k.kind)).toEqual(["names_only"]);

      // An error answer ran but says nothing of what the tool returns; refused before the server
      // starts (the review says it writes) and after (the server annotates it destructive): nothing
      // is kept, no revision is made.
      const missing = await sample("get_ticket", { id: "T-9999" });
      expect(missing.status).toBe(200);
      expect(SampleResultSchema.parse(await missing.json()).isError).toBe(true);
      expect((await sample("close_ticket", { id: "T-4411" })).status).toBe(422);
      expect((await sample("purge_ticket", { id: "T-4411" })).status).toBe(422);
      expect((await getReview(db, reviewId))!.revision).toBe(record.revision);
      expect((await assessed("get_ticket")).samples).toEqual(kept);
      expect((await assessed("purge_ticket")).samples).toBeUndefined();
      expect((await assessed("close_ticket")).samples).toBeUndefined();
    },
  );
});
