/**
 * Child process for the SIGKILL test: opens the store named by STORE_TARGET (JSON StoreTarget),
 * creates one review, then saves new revisions as fast as it can, printing `saved <revision>`
 * after each commit returns. The parent kills it mid-loop with SIGKILL.
 *
 * Run with `node --conditions=react-server --import tsx`, so `server-only` resolves to its no-op.
 */
import { writeSync } from "node:fs";
import { createDemoReview } from "@/lib/review/demo";
import type { StoreTarget } from "@/lib/store/config";
import { openStore } from "@/lib/store/db";
import { createReview, saveReview } from "@/lib/store/reviews";

const target = JSON.parse(process.env.STORE_TARGET ?? "null") as StoreTarget;
const store = await openStore({ target });
const base = createDemoReview();
// A large-ish document, so a good share of each loop is spent inside the write.
const padding = "x".repeat(3000);
const doc = (n: number) => ({ ...base, title: `kill test ${n}`, summary: `${n} ${padding}` });

const created = await createReview(store.db, doc(1), "child");
writeSync(1, `review ${created.id}\nsaved 1\n`);
for (let revision = 1; ; revision++) {
  const result = await saveReview(store.db, created.id, revision, doc(revision + 1), "child");
  if (!result?.ok) throw new Error(`unexpected conflict at ${revision}`);
  writeSync(1, `saved ${revision + 1}\n`);
}
