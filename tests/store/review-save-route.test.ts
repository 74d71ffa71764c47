/**
 * Saving a review through its routes parses the document once (the route's parse is what the
 * store writes) and a malformed one is refused as before: 400 naming each bad field, nothing
 * written. On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REVIEW_SCHEMA_VERSION, type ReviewInput } from "@/lib/review/schema";
import type * as StoreDb from "@/lib/store/db";
import type * as StoreReviews from "@/lib/store/reviews";
import { BACKENDS, useProcessStore } from "@/tests/store/support/backends";

const base = mkdtempSync(path.join(tmpdir(), "rr-review-save-"));
process.env.RELAY_REVIEW_DATA = base;
delete process.env.DATABASE_URL;

type Handler = (
  request: Request,
  context: { params: Promise<{ id: string }> },
) => Promise<Response>;
let put: Handler;
let post: (request: Request, context: unknown) => Promise<Response>;
let store: typeof StoreDb;
let reviews: typeof StoreReviews;

beforeAll(async () => {
  put = (await import("@/app/api/reviews/[id]/route")).PUT;
  post = (await import("@/app/api/reviews/route")).POST;
  store = await import("@/lib/store/db");
  reviews = await import("@/lib/store/reviews");
}, 120_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

const json = (body: unknown) => ({
  method: "PUT",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const doc = (title: string, extra: Record<string, unknown> = {}): ReviewInput => ({
  schemaVersion: REVIEW_SCHEMA_VERSION,
  title,
  ...extra,
});
const badServer = { servers: [{ id: "s1", name: "", transport: { kind: "manual" } }] };

describe.each(BACKENDS)("saving a review through its routes on $name", (backend) => {
  useProcessStore(backend);

  test("PUT saves the parsed document; a malformed one is a 400 naming the field, and nothing is written", async () => {
    const created = await reviews.createReview(await store.getDb(), doc("first"), "t");
    const id = created.id;
    const ctx = { params: Promise.resolve({ id }) };
    const bad = await put(
      new Request(
        `http://127.0.0.1/api/reviews/${id}`,
        json({ baseRevision: 1, review: doc("x", badServer) }),
      ),
      ctx,
    );
    expect(bad.status).toBe(400);
    const error = (await bad.json()) as { error: { message: string; issues: { path: string }[] } };
    expect(error.error.message).toMatch(/^invalid request body: review\.servers\.0\.name: /);
    expect(error.error.issues.map((i) => i.path)).toEqual(["review.servers.0.name"]);
    expect((await reviews.getReview(await store.getDb(), id))?.revision).toBe(1);

    const ok = await put(
      new Request(
        `http://127.0.0.1/api/reviews/${id}`,
        json({ baseRevision: 1, review: doc("second") }),
      ),
      { params: Promise.resolve({ id }) },
    );
    expect(ok.status).toBe(200);
    const saved = await reviews.getReview(await store.getDb(), id);
    expect(saved?.revision).toBe(2);
    expect(saved?.review.title).toBe("second");
  });

  test("POST creates from the parsed document; a malformed one is a 400 naming the field", async () => {
    const request = (body: unknown) =>
      new Request("http://127.0.0.1/api/reviews", { ...json(body), method: "POST" });
    const bad = await post(request({ review: doc("x", badServer) }), {});
    expect(bad.status).toBe(400);
    const error = (await bad.json()) as { error: { message: string } };
    expect(error.error.message).toMatch(/^invalid request body: review\.servers\.0\.name: /);
    const ok = await post(request({ review: doc("created by post") }), {});
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: string };
    expect((await reviews.getReview(await store.getDb(), id))?.review.title).toBe(
      "created by post",
    );
  });
});
