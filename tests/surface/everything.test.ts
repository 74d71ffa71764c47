/**
 * Against the published server-everything over stdio: our inspection lists exactly what a bare
 * SDK client with the same declared capabilities lists (after settling the same way), and two
 * inspections give the same fingerprint. Also: Streamable HTTP falls back to legacy SSE.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { DECLARED_CAPABILITY_NAMES } from "@/lib/mcp/capabilities";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { projectItem } from "@/lib/surface/fingerprint";
import { SURFACE_LISTS, SurfaceSnapshotSchema } from "@/lib/surface/types";
import { EVERYTHING, ROOT, freePort, newMarker, stopChild, waitForPort, waitGone } from "./helpers";
import { spawn } from "node:child_process";

const run = promisify(execFile);

describe("server-everything over stdio", { timeout: 90_000 }, () => {
  test("our inspect lists what a bare SDK client lists; two inspections share a fingerprint", async () => {
    const marker = newMarker();
    const target = {
      kind: "stdio" as const,
      command: process.execPath,
      args: [EVERYTHING, "stdio", marker],
    };
    const [a, b, bare] = await Promise.all([
      inspectServer(target),
      inspectServer(target),
      run(
        process.execPath,
        [
          path.join(ROOT, "tests/fixtures/servers/bare-sdk-client.mjs"),
          "--",
          "node",
          EVERYTHING,
          "stdio",
          marker,
        ],
        { cwd: ROOT },
      ),
    ]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    const reference = JSON.parse(bare.stdout) as Record<string, Record<string, unknown>[]> & {
      instructions: string | null;
    };
    const s = a.snapshot;
    expect(s.declaredCapabilities).toEqual([...DECLARED_CAPABILITY_NAMES]);
    expect(s.tools.length).toBeGreaterThanOrEqual(13);
    for (const list of SURFACE_LISTS) {
      const ours = (s[list] as object[]).map((i) => projectItem(list, i as never));
      const theirs = reference[list]!.map((i) => projectItem(list, i as never));
      expect({ list, items: ours }).toEqual({ list, items: theirs });
    }
    expect(s.instructions).toBe(reference.instructions);
    expect(s.rejects).toEqual([]);
    expect(b.snapshot.surfaceSha256).toBe(s.surfaceSha256);
    // conditional tools arrive with list_changed right after initialize; the settle re-listed
    expect(s.settle.listChangedNotifications).toBeGreaterThan(0);
    expect(s.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
      ]),
    );
    expect(SurfaceSnapshotSchema.parse(JSON.parse(JSON.stringify(s)))).toEqual(s);
    expect(await waitGone(marker)).toEqual([]);
  });

  test("a Streamable HTTP URL that speaks only legacy SSE falls back to SSE", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, "sse"], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port) },
      stdio: "ignore",
    });
    try {
      await waitForPort(`http://127.0.0.1:${port}/`);
      const events: string[] = [];
      const r = await inspectServer(
        { kind: "http", url: `http://127.0.0.1:${port}/sse` },
        { onProgress: (e) => events.push(e.type) },
      );
      expect(r.ok ? r.snapshot.transport : r.error).toBe("sse");
      expect(events).toContain("fallback");
      if (r.ok) expect(r.snapshot.tools.length).toBeGreaterThanOrEqual(13);
    } finally {
      await stopChild(child);
    }
  });
});
