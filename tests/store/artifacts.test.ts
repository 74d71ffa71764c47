import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { canonicalJson, canonicalSha256 } from "@/lib/hash";
import { openStore, type Store } from "@/lib/store/db";
import {
  getDecisionRecord,
  listDecisionRecords,
  saveDecisionRecord,
} from "@/lib/store/decision-records";
import { deleteReview, createReview } from "@/lib/store/reviews";
import { getSetting, setSetting, setSettingIfAbsent } from "@/lib/store/settings";
import {
  createShareLink,
  findShareLinkByTokenHash,
  listShareLinks,
  revokeShareLink,
  shareLinkIsActive,
} from "@/lib/store/share-links";
import {
  getSnapshot,
  latestInspection,
  listInspections,
  putSnapshot,
  recordInspection,
} from "@/lib/store/snapshots";
import { surfaceSnapshots } from "@/lib/store/tables";
import { BACKENDS } from "./support/backends";

describe.each(BACKENDS)(
  "snapshots, inspections, share links, decision records on $name",
  (backend) => {
    let store: Store;
    let drop: () => Promise<void>;
    let reviewId: string;

    beforeAll(async () => {
      const provisioned = await backend.provision();
      drop = provisioned.drop;
      store = await openStore({ target: provisioned.target });
      reviewId = (
        await createReview(
          store.db,
          { schemaVersion: REVIEW_SCHEMA_VERSION, title: "artifacts" },
          "t",
        )
      ).id;
    });
    afterAll(async () => {
      await store?.close();
      await drop?.();
    });

    test("snapshots are content-addressed over canonical JSON: key order does not matter, repeats cost nothing", async () => {
      const a = {
        tools: [{ name: "search", description: "Search", inputSchema: { type: "object" } }],
        instructions: "hi",
      };
      const reordered = {
        instructions: "hi",
        tools: [{ inputSchema: { type: "object" }, description: "Search", name: "search" }],
      };
      const sha = await putSnapshot(store.db, a);
      expect(sha).toMatch(/^[0-9a-f]{64}$/);
      expect(sha).toBe(canonicalSha256(a));
      expect(await putSnapshot(store.db, reordered)).toBe(sha);
      expect(await putSnapshot(store.db, a)).toBe(sha);
      const rows = await store.db.select().from(surfaceSnapshots);
      expect(rows.filter((r) => r.sha256 === sha).length).toBe(1);
      const got = await getSnapshot(store.db, sha);
      expect(got?.document).toEqual(a);
      expect(canonicalSha256(got?.document)).toBe(sha);

      const changed = await putSnapshot(store.db, { ...a, instructions: "hi!" });
      expect(changed).not.toBe(sha);
      expect(await getSnapshot(store.db, "0".repeat(64))).toBeNull();
    });

    test("RFC 8785 canonical form: sorted keys, ECMAScript number form, no whitespace", () => {
      expect(canonicalJson({ b: 1, a: [1e21, 0.1, -0], "\u20ac": "x", "\r": true })).toBe(
        '{"\\r":true,"a":[1e+21,0.1,0],"b":1,"\u20ac":"x"}',
      );
      expect(canonicalSha256({ b: 1, a: 2 })).toBe(canonicalSha256({ a: 2, b: 1 }));
    });

    test("inspections: latest per server, filtered by declared capabilities and status", async () => {
      const sha = await putSnapshot(store.db, { tools: [] });
      const t0 = new Date("2026-01-01T00:00:00Z");
      const at = (min: number) => new Date(t0.getTime() + min * 60_000);
      await recordInspection(store.db, {
        reviewId,
        serverId: "srv",
        snapshotSha256: sha,
        surfaceSha256: "a".repeat(64),
        declaredCapabilities: ["sampling", "roots"],
        status: "ok",
        inspectedAt: at(0),
      });
      await recordInspection(store.db, {
        reviewId,
        serverId: "srv",
        snapshotSha256: sha,
        surfaceSha256: "b".repeat(64),
        declaredCapabilities: [],
        status: "ok",
        inspectedAt: at(1),
      });
      const failed = await recordInspection(store.db, {
        reviewId,
        serverId: "srv",
        snapshotSha256: null,
        surfaceSha256: null,
        declaredCapabilities: [],
        status: "failed",
        error: { message: "connection refused" },
        inspectedAt: at(2),
      });
      await recordInspection(store.db, {
        reviewId,
        serverId: "other",
        snapshotSha256: sha,
        surfaceSha256: "c".repeat(64),
        declaredCapabilities: [],
        status: "ok",
        inspectedAt: at(3),
      });

      expect((await latestInspection(store.db, reviewId, "srv"))?.id).toBe(failed.id);
      expect(failed.error).toEqual({ message: "connection refused" });
      expect(
        (await latestInspection(store.db, reviewId, "srv", { status: "ok" }))?.surfaceSha256,
      ).toBe("b".repeat(64));
      const withCaps = await latestInspection(store.db, reviewId, "srv", {
        declaredCapabilities: ["roots", "sampling"],
      });
      expect(withCaps?.surfaceSha256).toBe("a".repeat(64));
      expect(withCaps?.declaredCapabilities).toEqual(["roots", "sampling"]);
      expect(
        await latestInspection(store.db, reviewId, "srv", {
          declaredCapabilities: ["elicitation"],
        }),
      ).toBeNull();
      expect(await latestInspection(store.db, reviewId, "nope")).toBeNull();
      expect((await listInspections(store.db, reviewId)).length).toBe(4);
      expect((await listInspections(store.db, reviewId, "srv")).map((i) => i.status)).toEqual([
        "failed",
        "ok",
        "ok",
      ]);
    });

    test("share links: found by token hash, revoked once, expiry respected", async () => {
      const link = await createShareLink(store.db, {
        reviewId,
        tokenHash: "h1",
        frozenRevision: 1,
        label: "for sec",
      });
      expect(link).toMatchObject({
        reviewId,
        frozenRevision: 1,
        revokedAt: null,
        expiresAt: null,
        label: "for sec",
      });
      expect(shareLinkIsActive(link)).toBe(true);
      expect((await findShareLinkByTokenHash(store.db, "h1"))?.id).toBe(link.id);
      expect(await findShareLinkByTokenHash(store.db, "unknown")).toBeNull();
      await expect(createShareLink(store.db, { reviewId, tokenHash: "h1" })).rejects.toThrow();

      const revoked = await revokeShareLink(store.db, link.id, new Date("2026-02-01T00:00:00Z"));
      expect(revoked?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
      expect(shareLinkIsActive(revoked!)).toBe(false);
      expect((await revokeShareLink(store.db, link.id))?.revokedAt).toBe(
        "2026-02-01T00:00:00.000Z",
      );
      expect(await revokeShareLink(store.db, "share-nope")).toBeNull();

      const expiring = await createShareLink(store.db, {
        reviewId,
        tokenHash: "h2",
        expiresAt: new Date("2030-01-01T00:00:00Z"),
      });
      expect(shareLinkIsActive(expiring, new Date("2029-12-31T23:59:59Z"))).toBe(true);
      expect(shareLinkIsActive(expiring, new Date("2030-01-01T00:00:00Z"))).toBe(false);
      expect((await listShareLinks(store.db, reviewId)).map((l) => l.tokenHash).sort()).toEqual([
        "h1",
        "h2",
      ]);
    });

    test("decision records, settings, and cascade on review delete", async () => {
      const other = (
        await createReview(store.db, { schemaVersion: REVIEW_SCHEMA_VERSION, title: "doomed" }, "t")
      ).id;
      const saved = await saveDecisionRecord(store.db, {
        reviewId: other,
        decisionId: "d1",
        record: { verdict: "rejected" },
      });
      await saveDecisionRecord(store.db, {
        reviewId: other,
        decisionId: "d2",
        record: { verdict: "approved" },
      });
      expect((await getDecisionRecord(store.db, saved.id))?.record).toEqual({
        verdict: "rejected",
      });
      expect((await listDecisionRecords(store.db, other)).length).toBe(2);
      expect((await listDecisionRecords(store.db, other, "d2")).map((r) => r.decisionId)).toEqual([
        "d2",
      ]);
      await createShareLink(store.db, { reviewId: other, tokenHash: "doomed-link" });
      await recordInspection(store.db, {
        reviewId: other,
        serverId: "s",
        snapshotSha256: null,
        surfaceSha256: null,
        declaredCapabilities: [],
        status: "failed",
      });

      expect(await deleteReview(store.db, other)).toBe(true);
      expect(await getDecisionRecord(store.db, saved.id)).toBeNull();
      expect(await findShareLinkByTokenHash(store.db, "doomed-link")).toBeNull();
      expect(await listInspections(store.db, other)).toEqual([]);

      expect(await getSetting(store.db, "k")).toBeNull();
      expect(await setSettingIfAbsent(store.db, "k", { a: 1 })).toBe(true);
      expect(await setSettingIfAbsent(store.db, "k", { a: 2 })).toBe(false);
      await setSetting(store.db, "k", { a: 3 });
      expect(await getSetting(store.db, "k")).toEqual({ a: 3 });
    });
  },
);
