/**
 * The workbench's inspection of a server entry follows its "the agent's host renders MCP Apps"
 * opt-in: with it, the stored inspection declared the Apps extension and the server's UI tool is
 * in the counted surface; without it (the default, as in every review written before the field),
 * today's declared set and no UI tool. Real v2 server over stdio
 * (tests/fixtures/servers/apps-only-to-apps-hosts.ts), run through the launcher allowlist.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ServerId } from "@/lib/ids";
import { APPS_EXTENSION_CAPABILITY, DECLARED_CAPABILITY_NAMES } from "@/lib/mcp/capabilities";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { openStore, type Store } from "@/lib/store/db";
import { createReview } from "@/lib/store/reviews";
import { latestInspection } from "@/lib/store/snapshots";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { ROOT } from "../surface/helpers";

const ARGS = [
  "--import",
  "tsx",
  path.join(ROOT, "tests/fixtures/servers/apps-only-to-apps-hosts.ts"),
];

describe(
  "inspecting a server entry with and without the MCP Apps opt-in",
  { timeout: 120_000 },
  () => {
    let base: string;
    let store: Store;
    beforeAll(async () => {
      base = mkdtempSync(path.join(os.tmpdir(), "relay-review-apps-opt-in-"));
      writeFileSync(
        path.join(base, "launchers.json"),
        JSON.stringify({
          version: 1,
          launchers: [{ id: "board", command: "node", args: ARGS, envNames: [], fixture: false }],
        }),
      );
      store = await openStore({ target: { kind: "pglite", dataDir: path.join(base, "pglite") } });
    });
    afterAll(async () => {
      await store?.close();
      rmSync(base, { recursive: true, force: true });
    });

    const inspect = async (hostRendersApps: boolean | undefined) => {
      const { id } = await createReview(
        store.db,
        {
          schemaVersion: REVIEW_SCHEMA_VERSION,
          title: "board",
          servers: [
            {
              id: "board",
              name: "board",
              transport: { kind: "stdio", command: "node", args: ARGS, envNames: [] },
              ...(hostRendersApps === undefined ? {} : { hostRendersApps }),
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
      const prepared = await prepareInspection(store.db, id, "board" as ServerId, env);
      if (!prepared.ok) throw new Error(prepared.error.message);
      const result = await runInspection(store.db, prepared, {
        limits: { connectTimeoutMs: 30_000 },
      });
      if (!result.ok) throw new Error(result.error.message);
      const stored = await latestInspection(store.db, id, "board");
      return { tools: result.summary.counts.tools, declared: stored?.declaredCapabilities ?? [] };
    };

    test("the opt-in declares the extension, and the UI tool is listed", async () => {
      const on = await inspect(true);
      expect(on.declared).toContain(APPS_EXTENSION_CAPABILITY);
      expect(on.tools).toBe(2);
    });

    test("absent or off: today's declared set, and no UI tool", async () => {
      for (const choice of [undefined, false]) {
        const off = await inspect(choice);
        expect([...off.declared].sort()).toEqual([...DECLARED_CAPABILITY_NAMES].sort());
        expect(off.tools).toBe(1);
      }
    });
  },
);
