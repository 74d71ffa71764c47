/**
 * Per-credential surfaces (issue 30, item 3), end to end against a real v2 server
 * (@modelcontextprotocol/server 2.4.0) that lists an extra tool to an admin's bearer token and
 * declares its tools/list `cacheScope: "public"`: the workbench inspects it under a reader's and
 * an admin's secret, records each inspection's credential (the secret's name, never its value),
 * keeps a pin per credential side by side, compares each surface with its own pin, shows the tool
 * only the admin sees, and flags the public cache scope. On PGlite and on PostgreSQL.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ReviewId, ServerId } from "@/lib/ids";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { newSecretKey } from "@/lib/secrets/crypto";
import { getSecretKey } from "@/lib/secrets/key";
import { createReview, getReview, saveReview } from "@/lib/store/reviews";
import { setSecret } from "@/lib/store/secrets";
import {
  latestInspection,
  recentOkInspectionsPerServer,
  recordInspection,
} from "@/lib/store/snapshots";
import { credentialSurfaces } from "@/lib/workbench/credential-surfaces";
import { analyzeStoredReview } from "@/lib/workbench/analysis";
import { reviewSarif } from "@/lib/workbench/sarif";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { loadReviewServer, pinLatest, surfaceView } from "@/lib/workbench/surface";
import { BACKENDS, useStore } from "@/tests/store/support/backends";
import type { Store } from "@/lib/store/db";
import { listEvents } from "@/lib/store/events";
import { RemovePinResponseSchema } from "@/lib/workbench/surface-api";
import { egressAllowFor } from "@/tests/support/egress";
import { startV2Server, type V2Server } from "./v2-server";

process.env.RELAY_REVIEW_SECRET_KEY = newSecretKey().toString("base64");

const SERVER = "weather" as ServerId;
const READER_VALUE = "Bearer reader-token-value";
const ADMIN_VALUE = "Bearer admin-token-value";

let upstream: V2Server;
let dataDir: string;
/** The admin's URL: the owner's allowlist gives one variable per header per URL prefix, so the admin's token is allowed under its own prefix. */
const adminUrl = () => `${upstream.url}?as=admin`;
beforeAll(async () => {
  upstream = await startV2Server({ adminToken: "admin-token-value", toolsCacheScope: "public" });
  process.env.RELAY_REVIEW_EGRESS_ALLOW = egressAllowFor(upstream.url);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "relay-review-credentials-"));
  writeFileSync(
    path.join(dataDir, "launchers.json"),
    JSON.stringify({
      version: 1,
      launchers: [],
      httpTargets: [
        { id: "reader", urlPrefix: upstream.url, headerEnv: { Authorization: "READER_TOKEN" } },
        { id: "admin", urlPrefix: adminUrl(), headerEnv: { Authorization: "ADMIN_TOKEN" } },
      ],
    }),
  );
  process.env.RELAY_REVIEW_DATA = dataDir;
});
afterAll(async () => {
  await upstream?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.each(BACKENDS)("surfaces per credential on '$name'", { timeout: 120_000 }, (backend) => {
  const store = useStore(backend);
  let reviewId: ReviewId;

  /** Point the server's Authorization header at another secret: a new review revision. */
  async function useSecret(name: string) {
    const record = (await getReview(store.db, reviewId))!;
    const review = structuredClone(record.review);
    review.servers[0]!.transport = {
      kind: "http",
      url: name === "ADMIN_TOKEN" ? adminUrl() : upstream.url,
      headerEnv: { Authorization: name },
    };
    const saved = await saveReview(store.db, reviewId, record.revision, review, "t");
    if (!saved?.ok) throw new Error("save failed");
  }

  async function inspect() {
    const prepared = await prepareInspection(store.db, reviewId, SERVER, process.env);
    if (!prepared.ok) throw new Error(prepared.error.message);
    const result = await runInspection(store.db, prepared, {});
    if (!result.ok) throw new Error(result.error.message);
    return result;
  }

  beforeAll(async () => {
    const key = getSecretKey();
    if (!key.ok) throw new Error(key.message);
    await setSecret(store.db, key.key, "READER_TOKEN", READER_VALUE);
    await setSecret(store.db, key.key, "ADMIN_TOKEN", ADMIN_VALUE);
    ({ id: reviewId } = await createReview(
      store.db,
      {
        schemaVersion: REVIEW_SCHEMA_VERSION,
        title: "per credential",
        servers: [
          {
            id: SERVER,
            name: "weather",
            transport: {
              kind: "http",
              url: upstream.url,
              headerEnv: { Authorization: "READER_TOKEN" },
            },
          },
        ],
      },
      "t",
    ));
  });

  test("two credentials: two pins side by side, each surface compared with its own", async () => {
    await inspect();
    const reader = await latestInspection(store.db, reviewId, SERVER, { status: "ok" });
    expect(reader?.credential).toEqual({ kind: "secret", names: ["READER_TOKEN"] });
    await pinLatest(store.db, reviewId, SERVER, { reason: "", author: "t" });

    await useSecret("ADMIN_TOKEN");
    const admin = await inspect();
    // Not compared with the reader's pin: no pin of this credential yet, so it blocks until pinned.
    expect(admin.pin.status).toBe("incomparable");
    await pinLatest(store.db, reviewId, SERVER, { reason: "", author: "t" });

    const { record, server } = await loadReviewServer(store.db, reviewId, SERVER);
    expect(server.pin?.credential).toEqual({ kind: "secret", names: ["READER_TOKEN"] });
    expect(server.pin?.era).toBe("2026");
    expect(server.otherPins?.map((p) => p.credential)).toEqual([
      { kind: "secret", names: ["ADMIN_TOKEN"] },
    ]);
    expect(server.otherPins?.[0]?.surfaceSha256).not.toBe(server.pin?.surfaceSha256);
    // The admin's surface is now current and matches the admin's pin; the reader's pin stays.
    const view = await surfaceView(store.db, record, server);
    expect(view.comparison?.status).toBe("match");
    expect(view.pin?.credential).toEqual({ kind: "secret", names: ["ADMIN_TOKEN"] });
    expect(view.otherPins?.map((p) => p.context)).toEqual(["2026-07-28, secret READER_TOKEN"]);

    // Back to the reader: compared with the reader's pin, a match, not the admin's mismatch.
    await useSecret("READER_TOKEN");
    const again = await inspect();
    expect(again.pin.status).toBe("match");
    const after = await loadReviewServer(store.db, reviewId, SERVER);
    expect(after.server.otherPins).toHaveLength(1);
  });

  test("the difference between the credentials' surfaces, and the public cache scope, are shown", async () => {
    const view = await credentialSurfaces(store.db, reviewId, SERVER);
    expect(view.surfaces.map((s) => s.label).sort()).toEqual([
      "secret ADMIN_TOKEN",
      "secret READER_TOKEN",
    ]);
    expect(view.surfaces.every((s) => s.pin?.status === "match")).toBe(true);
    const admin = view.surfaces.find((s) => s.label === "secret ADMIN_TOKEN")!;
    const reader = view.surfaces.find((s) => s.label === "secret READER_TOKEN")!;
    expect(admin.cacheHints.tools?.cacheScope).toBe("public");

    const diff = await credentialSurfaces(store.db, reviewId, SERVER, {
      a: reader.key,
      b: admin.key,
    });
    expect(diff.diff?.diff.added.map((a) => `${a.list}:${a.key}`)).toEqual(["tools:delete_city"]);
    expect(diff.diff?.diff.removed).toEqual([]);

    expect(view.findings).toHaveLength(1);
    expect(view.findings[0]?.list).toBe("tools");
    expect(view.findings[0]?.message).toMatch(
      /tools differs between secret .*TOKEN and secret .*TOKEN/,
    );
    expect(view.findings[0]?.message).toMatch(/cacheScope "public"/);
    // Names only: no stored or shown part carries a token's value.
    const shown = JSON.stringify([view, diff, await loadReviewServer(store.db, reviewId, SERVER)]);
    expect(shown).not.toContain("reader-token-value");
    expect(shown).not.toContain("admin-token-value");
  });

  test("the public cache scope is one of the review's findings: the analysis and the SARIF export carry it", async () => {
    const analysis = await analyzeStoredReview(store.db, reviewId);
    const found = analysis!.findings.filter((f) => f.kind === "surface.shared_cache_public");
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe("high");
    expect(found[0]!.subject).toEqual({ serverId: SERVER });
    expect(found[0]!.why.summary).toMatch(/secret ADMIN_TOKEN/);
    expect(found[0]!.why.summary).toMatch(/secret READER_TOKEN/);

    const sarif = await reviewSarif(store.db, reviewId);
    const results = sarif.runs[0]!.results!.filter(
      (r) => r.ruleId === "surface.shared_cache_public",
    );
    expect(results).toHaveLength(1);
    expect(results[0]!.level).toBe("error");
    const shown = JSON.stringify([analysis, sarif]);
    expect(shown).not.toContain("reader-token-value");
    expect(shown).not.toContain("admin-token-value");
  });

  test("another credential's pin is removed through the route, audited; the pin in use and the last pin are not", async () => {
    // The route reads the process-wide store: this suite's, for this test.
    const STORE_KEY = Symbol.for("relay-review.store");
    const g = globalThis as Record<symbol, unknown>;
    g[STORE_KEY] = Promise.resolve({ db: store.db, close: async () => {} } as unknown as Store);
    try {
      const { POST } = await import("@/app/api/reviews/[id]/servers/[serverId]/pin/remove/route");
      const remove = (body: unknown) =>
        POST(
          new Request(`http://127.0.0.1/api/reviews/${reviewId}/servers/${SERVER}/pin/remove`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
          { params: Promise.resolve({ id: reviewId, serverId: SERVER }) },
        );
      const before = await loadReviewServer(store.db, reviewId, SERVER);
      const reader = before.server.pin!;
      const admin = before.server.otherPins![0]!;
      // The reader's surface is current (the first test ends on it): its pin is in use.
      const inUse = await remove({
        surfaceSha256: reader.surfaceSha256,
        pinnedAt: reader.pinnedAt,
      });
      expect(inUse.status).toBe(409);
      expect(await inUse.text()).toMatch(/re-pin it instead/);
      const unknown = await remove({
        surfaceSha256: "0".repeat(64),
        pinnedAt: admin.pinnedAt,
      });
      expect(unknown.status).toBe(404);
      const bad = await remove({ surfaceSha256: admin.surfaceSha256, pinnedAt: "yesterday" });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toMatch(/pinnedAt/);
      const stale = await remove({
        surfaceSha256: admin.surfaceSha256,
        pinnedAt: admin.pinnedAt,
        baseRevision: before.record.revision - 1,
      });
      expect(stale.status).toBe(409);
      expect(await stale.text()).toMatch(
        /saved as revision \d+ since revision \d+; reload it and remove the pin again/,
      );
      const badServer = await POST(
        new Request(`http://127.0.0.1/api/reviews/${reviewId}/servers/x/pin/remove`, {
          method: "POST",
          body: JSON.stringify({ surfaceSha256: admin.surfaceSha256, pinnedAt: admin.pinnedAt }),
        }),
        { params: Promise.resolve({ id: reviewId, serverId: "../x" }) },
      );
      expect(badServer.status).toBe(400);
      expect(await badServer.text()).toMatch(/invalid serverId/);

      const ok = await remove({
        surfaceSha256: admin.surfaceSha256,
        pinnedAt: admin.pinnedAt,
        reason: "the admin token is retired",
        baseRevision: before.record.revision,
      });
      expect(ok.status).toBe(200);
      const body = RemovePinResponseSchema.parse(await ok.json());
      expect(body.context).toBe("2026-07-28, secret ADMIN_TOKEN");
      expect(body.record.revision).toBe(before.record.revision + 1);
      const after = await loadReviewServer(store.db, reviewId, SERVER);
      expect(after.server.pin).toEqual(reader);
      expect(after.server.otherPins ?? []).toEqual([]);
      const logged = (await listEvents(store.db, "owner", { kind: "pin.removed" })).events;
      expect(logged).toHaveLength(1);
      expect(logged[0]!.summary).toContain("secret ADMIN_TOKEN");
      expect(logged[0]!.summary).toContain("the admin token is retired");

      // The reader's pin is now the server's only one: it is re-pinned, never removed.
      const last = await remove({ surfaceSha256: reader.surfaceSha256, pinnedAt: reader.pinnedAt });
      expect(last.status).toBe(409);
      expect(await last.text()).toMatch(/only pin/);
    } finally {
      delete g[STORE_KEY];
    }
  });

  test("the analysis reads each server's newest successful inspections, bounded per server, in one query", async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
    const record = (serverId: string, minute: number, status: "ok" | "failed" = "ok") =>
      recordInspection(store.db, {
        reviewId,
        serverId,
        snapshotSha256: null,
        surfaceSha256: null,
        declaredCapabilities: [],
        status,
        inspectedAt: at(minute),
        sandbox: { large: "x".repeat(1000) },
      });
    const a1 = await record("bounded-a", 1);
    const a2 = await record("bounded-a", 2);
    const a3 = await record("bounded-a", 3);
    await record("bounded-a", 4, "failed");
    const b1 = await record("bounded-b", 1);
    const got = await recentOkInspectionsPerServer(store.db, reviewId, 2);
    expect(got.get("bounded-a")?.map((i) => i.id)).toEqual([a3.id, a2.id]);
    expect(got.get("bounded-a")?.map((i) => i.id)).not.toContain(a1.id);
    expect(got.get("bounded-b")?.map((i) => i.id)).toEqual([b1.id]);
    expect(got.get("bounded-a")?.[0]?.sandbox).toBeNull();
    expect(got.get(SERVER)).toHaveLength(2);
  });
});
