/**
 * Issue 28, finding 3: the inspect progress stream (the NDJSON lines the web app sends while an
 * inspection runs) carries no secret value. A real stdio server is given a secret from the
 * secret store in its environment (a `${NAME}` in its arguments is refused before start, finding 8)
 * and fails, writing the value to stderr: the error's stderr tail and the final result hold
 * `[secret PROBE_TOKEN]`, as the stored inspection does, never the value.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ServerId } from "@/lib/ids";
import type { InspectProgress } from "@/lib/mcp/types";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { newSecretKey } from "@/lib/secrets/crypto";
import { getSecretKey } from "@/lib/secrets/key";
import { openStore, type Store } from "@/lib/store/db";
import { createReview } from "@/lib/store/reviews";
import { setSecret } from "@/lib/store/secrets";
import { latestInspection } from "@/lib/store/snapshots";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";

process.env.RELAY_REVIEW_SECRET_KEY = newSecretKey().toString("base64");

const VALUE = "s3cr3t-probe-value-0123456789";
const SCRIPT =
  'process.stderr.write("refusing to start with --token=" + process.env.PROBE_TOKEN + "\\n"); process.exit(3)';
const ARGS = ["-e", SCRIPT];

describe("the inspect progress stream carries no secret value", () => {
  let base: string;
  let store: Store;
  beforeAll(async () => {
    base = mkdtempSync(path.join(os.tmpdir(), "relay-review-progress-"));
    writeFileSync(
      path.join(base, "launchers.json"),
      JSON.stringify({
        version: 1,
        launchers: [
          { id: "leaky", command: "node", args: ARGS, envNames: ["PROBE_TOKEN"], fixture: false },
        ],
      }),
    );
    store = await openStore({ target: { kind: "pglite", dataDir: path.join(base, "pglite") } });
    const key = getSecretKey();
    if (!key.ok) throw new Error(key.message);
    await setSecret(store.db, key.key, "PROBE_TOKEN", VALUE);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(base, { recursive: true, force: true });
  });

  test("connecting, the error's stderr tail and the result name the secret, never its value", async () => {
    const { id } = await createReview(
      store.db,
      {
        schemaVersion: REVIEW_SCHEMA_VERSION,
        title: "leaky",
        servers: [
          {
            id: "leaky",
            name: "leaky",
            transport: { kind: "stdio", command: "node", args: ARGS, envNames: ["PROBE_TOKEN"] },
          },
        ],
      },
      "t",
    );
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      RELAY_REVIEW_DATA: base,
      RELAY_REVIEW_UNSANDBOXED: "1",
    };
    const prepared = await prepareInspection(store.db, id, "leaky" as ServerId, env);
    if (!prepared.ok) throw new Error(prepared.error.message);
    const progress: InspectProgress[] = [];
    const result = await runInspection(store.db, prepared, {
      limits: { connectTimeoutMs: 30_000 },
      onProgress: (event) => progress.push(event),
    });
    expect(result.ok).toBe(false);
    const stream = JSON.stringify([...progress, result]);
    // The server did write the value, and the stream says so, by name.
    expect(stream).toContain("refusing to start with");
    expect(stream).toContain("--token=[secret PROBE_TOKEN]");
    expect(progress.some((e) => e.type === "connecting")).toBe(true);
    expect(stream).not.toContain(VALUE);
    const stored = await latestInspection(store.db, id, "leaky");
    expect(JSON.stringify(stored)).not.toContain(VALUE);
  });
});
