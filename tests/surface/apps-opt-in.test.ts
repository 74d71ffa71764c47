/**
 * The per-server opt-in "the agent's host renders MCP Apps" (RelayServer.hostRendersApps), against
 * a real server (tests/fixtures/servers/apps-only-to-apps-hosts.ts) that lists its UI tool only
 * to a client declaring the Apps extension: on the v2 line in both eras, on the v1 package in the
 * 2025 era, over stdio. Without the opt-in the
 * inspection sees the surface a host without apps gets; with it, the one an Apps host gets, and
 * the snapshot names the extension, so a pin of one is incomparable with the other.
 */
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  APPS_EXTENSION_CAPABILITY,
  DECLARED_CAPABILITY_NAMES,
  declaredCapabilityNamesFor,
} from "@/lib/mcp/capabilities";
import { inspectServer } from "@/lib/mcp/node/inspect";
import type { InspectResult } from "@/lib/mcp/types";
import { buildRegistrationRecord, comparePin } from "@/lib/surface/registration";
import { ROOT } from "./helpers";

const SERVER = path.join(ROOT, "tests/fixtures/servers/apps-only-to-apps-hosts.ts");
const targetOf = (sdk: "v1" | "v2") => ({
  kind: "stdio" as const,
  command: process.execPath,
  args: ["--import", "tsx", SERVER, ...(sdk === "v1" ? ["v1"] : [])],
});

const snapshotOf = (r: InspectResult) => {
  expect(r.ok ? "" : r.error.message).toBe("");
  if (!r.ok) throw new Error("inspection failed");
  return r.snapshot;
};
const toolNames = (r: InspectResult) => snapshotOf(r).tools.map((t) => t.name);

describe("declaring MCP Apps per server", { timeout: 120_000 }, () => {
  test.each([
    ["v2", "2025"],
    ["v2", "2026"],
    ["v1", "2025"],
  ] as const)(
    "%s server, %s era: the UI tool is listed only with the opt-in, the snapshot names it, pins do not compare",
    async (sdk, era) => {
      const target = targetOf(sdk);
      const [without, withApps] = await Promise.all([
        inspectServer(target, { era }),
        inspectServer(target, { era, hostRendersApps: true }),
      ]);
      expect(snapshotOf(without).era).toBe(era);
      expect(snapshotOf(withApps).era).toBe(era);
      expect(toolNames(without)).toEqual(["list_cards"]);
      expect(toolNames(withApps)).toEqual(["list_cards", "show_board"]);

      const a = snapshotOf(without);
      const b = snapshotOf(withApps);
      // Without the opt-in: exactly today's declared set, so existing pins still compare.
      expect(a.declaredCapabilities).toEqual([...DECLARED_CAPABILITY_NAMES]);
      expect(a.clientCapabilities).not.toHaveProperty("extensions");
      expect(b.declaredCapabilities).toEqual(declaredCapabilityNamesFor({ hostRendersApps: true }));
      expect(b.declaredCapabilities).toContain(APPS_EXTENSION_CAPABILITY);
      expect(b.clientCapabilities).toMatchObject({
        extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
      });

      // A pin of one against an inspection of the other, both ways: incomparable, naming why.
      const pinWithout = buildRegistrationRecord(a, { server: "board", image: null });
      const pinWith = buildRegistrationRecord(b, { server: "board", image: null });
      const cmp = comparePin(pinWithout, b);
      expect(cmp.status).toBe("incomparable");
      if (cmp.status === "incomparable")
        expect(cmp.reason).toContain(
          `only this inspection declared extensions, ${APPS_EXTENSION_CAPABILITY}`,
        );
      const back = comparePin(pinWith, a);
      expect(back.status).toBe("incomparable");
      if (back.status === "incomparable")
        expect(back.reason).toContain(
          `only the pin declared extensions, ${APPS_EXTENSION_CAPABILITY}`,
        );
      // Like with like still matches.
      expect(comparePin(pinWith, b).status).toBe("match");
      expect(comparePin(pinWithout, a).status).toBe("match");
    },
  );
});
