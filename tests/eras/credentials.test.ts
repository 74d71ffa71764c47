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
import { latestInspection } from "@/lib/store/snapshots";
import { credentialSurfaces } from "@/lib/workbench/credential-surfaces";
import { analyzeStoredReview } from "@/lib/workbench/analysis";
import { reviewSarif } from "@/lib/workbench/sarif";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { loadReviewServer, pinLatest, surfaceView } from "@/lib/workbench/surface";
import { BACKENDS, useStore } from "@/tests/store/support/backends";
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
});
