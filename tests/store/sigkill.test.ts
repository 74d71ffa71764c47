/**
 * A process killed with SIGKILL in the middle of a save loses at most that save: reopening the
 * store finds the last committed revision intact, every stored revision loadable, and the store
 * usable for the next save.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { openStore } from "@/lib/store/db";
import { getReview, getRevision, listRevisions, saveReview } from "@/lib/store/reviews";
import { BACKENDS } from "./support/backends";

const CHILD = path.join(import.meta.dirname, "support", "save-loop.ts");
/** Saves the child must have reported before we kill it. */
const MIN_SAVES_BEFORE_KILL = 15;

interface KillOutcome {
  reviewId: string;
  lastReported: number;
  signal: NodeJS.Signals | null;
}

function runAndKill(targetJson: string): Promise<KillOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", CHILD], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, STORE_TARGET: targetJson },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let reviewId = "";
    let lastReported = 0;
    let killScheduled = false;
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const lines = out.split("\n");
      out = lines.pop() ?? "";
      for (const line of lines) {
        const [word, value] = line.split(" ");
        if (word === "review" && value) reviewId = value;
        if (word === "saved" && value) lastReported = Number(value);
      }
      if (!killScheduled && lastReported >= MIN_SAVES_BEFORE_KILL) {
        killScheduled = true;
        // A few ms into the next save, so the kill lands inside a write more often than not.
        setTimeout(() => child.kill("SIGKILL"), Math.floor(Math.random() * 8) + 1);
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL")
        reject(new Error(`child exited ${code ?? signal} before the kill:\n${err}`));
      else resolve({ reviewId, lastReported, signal });
    });
  });
}

describe.each(BACKENDS)("SIGKILL mid-save on $name", (backend) => {
  test(
    "the last committed revision survives and the store stays usable",
    { timeout: 120_000 },
    async () => {
      const provisioned = await backend.provision();
      try {
        const outcome = await runAndKill(JSON.stringify(provisioned.target));
        expect(outcome.signal).toBe("SIGKILL");
        expect(outcome.reviewId).not.toBe("");

        const store = await openStore({ target: provisioned.target });
        try {
          const current = await getReview(store.db, outcome.reviewId);
          expect(current).not.toBeNull();
          // The child may have committed one more save than it got to report, never fewer.
          expect(current!.revision).toBeGreaterThanOrEqual(outcome.lastReported);
          expect(current!.revision).toBeLessThanOrEqual(outcome.lastReported + 1);
          expect(current!.review.title).toBe(`kill test ${current!.revision}`);

          const revisions = await listRevisions(store.db, outcome.reviewId);
          expect(revisions?.map((r) => r.revision)).toEqual(
            Array.from({ length: current!.revision }, (_, i) => current!.revision - i),
          );
          for (const r of [1, Math.ceil(current!.revision / 2), current!.revision]) {
            expect((await getRevision(store.db, outcome.reviewId, r))?.review.title).toBe(
              `kill test ${r}`,
            );
          }

          const next = await saveReview(
            store.db,
            outcome.reviewId,
            current!.revision,
            { ...current!.review, title: "after" },
            "parent",
          );
          expect(next).toMatchObject({ ok: true, record: { revision: current!.revision + 1 } });
          console.info(
            `[sigkill ${backend.name}] killed after ${outcome.lastReported} reported saves; reopened at revision ${current!.revision}`,
          );
        } finally {
          await store.close();
        }
      } finally {
        await provisioned.drop();
      }
    },
  );
});
