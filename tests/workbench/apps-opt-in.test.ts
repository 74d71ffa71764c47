/**
 * The workbench follows a server entry's "the agent's host renders MCP Apps" opt-in (issue 30) in
 * its inspection and in sampling a source (issue 31 item 3). With it, the session declares the Apps
 * extension, so the server lists its UI tool: the stored inspection counts it, and a sample runs it.
 * Without it (the default, as in every review written before the field), today's declared set: no
 * UI tool counted, and a sample of it is refused before any call. Real v2 server over stdio
 * (tests/fixtures/servers/apps-only-to-apps-hosts.ts, which lists and answers `show_board` only to a
 * client that declared the extension), run through the launcher allowlist.
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
import { runSample } from "@/lib/workbench/sample-run";
import { ROOT } from "../surface/helpers";

const ARGS = [
  "--import",
  "tsx",
  path.join(ROOT, "tests/fixtures/servers/apps-only-to-apps-hosts.ts"),
];

describe("the MCP Apps opt-in of a server entry", { timeout: 120_000 }, () => {
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

  /** A review of the board server, with the opt-in as given, its UI tool mapped to a source. */
  const prepare = async (hostRendersApps: boolean | undefined) => {
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
        sources: [
          { id: "cards", name: "Board cards", kind: "other", writers: { internalAccounts: 12 } },
        ],
        tools: [
          {
            serverId: "board",
            tool: "show_board",
            sourceIds: ["cards"],
            roles: ["returns_untrusted_text"],
            rolesConfirmed: true,
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
    return { id, prepared };
  };

  const inspect = async (hostRendersApps: boolean | undefined) => {
    const { id, prepared } = await prepare(hostRendersApps);
    const result = await runInspection(store.db, prepared, {
      limits: { connectTimeoutMs: 30_000 },
    });
    if (!result.ok) throw new Error(result.error.message);
    const stored = await latestInspection(store.db, id, "board");
    return { tools: result.summary.counts.tools, declared: stored?.declaredCapabilities ?? [] };
  };

  const sample = async (hostRendersApps: boolean | undefined) => {
    const { prepared } = await prepare(hostRendersApps);
    return runSample(
      store.db,
      prepared,
      { item: "tool", tool: "show_board", arguments: {} },
      { limits: { connectTimeoutMs: 30_000 } },
    );
  };

  test("inspection: the opt-in declares the extension, and the UI tool is listed", async () => {
    const on = await inspect(true);
    expect(on.declared).toContain(APPS_EXTENSION_CAPABILITY);
    expect(on.tools).toBe(2);
  });

  test("inspection, absent or off: today's declared set, and no UI tool", async () => {
    for (const choice of [undefined, false]) {
      const off = await inspect(choice);
      expect([...off.declared].sort()).toEqual([...DECLARED_CAPABILITY_NAMES].sort());
      expect(off.tools).toBe(1);
    }
  });

  test("sampling: the opt-in declares the extension, and the UI tool runs for an Apps host", async () => {
    const on = await sample(true);
    expect(on.ok ? "" : on.error.message).toBe("");
    if (!on.ok) return;
    expect(on.result.isError).toBe(false);
    expect(on.result.preview).toBe("Board shown to an MCP Apps host: 3 cards.");
    expect(on.result.sources).toEqual(["Board cards"]);
  });

  test("sampling, absent or off: the server does not list the UI tool, and nothing is called", async () => {
    for (const choice of [undefined, false]) {
      const off = await sample(choice);
      expect(off).toMatchObject({
        ok: false,
        refused: true,
        error: { code: "refused", message: 'the server does not list tool "show_board" now' },
      });
    }
  });
});
