/**
 * Both protocol eras through the one session (issue 30, item 1), against real servers on loopback:
 * a v2 server (@modelcontextprotocol/server 2.4.0) that serves 2026-07-28 and 2025, one that
 * serves only 2026-07-28, and a v1 server (@modelcontextprotocol/sdk) that knows only 2025. Every
 * inspection records the era and the protocol version it spoke.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { startV2Server, type V2Server } from "./v2-server";

let both: V2Server;
let modernOnly: V2Server;

beforeAll(async () => {
  both = await startV2Server({ adminToken: "admin-token" });
  modernOnly = await startV2Server({ modernOnly: true });
});
afterAll(async () => {
  await both?.close();
  await modernOnly?.close();
});

const http = (url: string, headers: Record<string, string> = {}) =>
  ({ kind: "http", url, headers }) as const;

describe("era negotiation", { timeout: 60_000 }, () => {
  test("auto speaks 2026-07-28 to a server that offers it; 2025 when asked; the surfaces hash alike", async () => {
    const modern = await inspectServer(http(both.url), { era: "auto" });
    const legacy = await inspectServer(http(both.url), { era: "2025" });
    if (!modern.ok || !legacy.ok) throw new Error(JSON.stringify([modern, legacy]));
    expect(modern.snapshot.era).toBe("2026");
    expect(modern.snapshot.protocolVersion).toBe("2026-07-28");
    expect(legacy.snapshot.era).toBe("2025");
    expect(legacy.snapshot.protocolVersion).toBe("2025-11-25");
    expect(modern.snapshot.tools.map((t) => t.name)).toEqual(["forecast"]);
    // The same tools in both eras: the surface fingerprint does not depend on the era.
    expect(modern.snapshot.surfaceSha256).toBe(legacy.snapshot.surfaceSha256);
  });

  test("a server that speaks only 2026-07-28 is reached (today's initialize could not)", async () => {
    const modern = await inspectServer(http(modernOnly.url));
    if (!modern.ok) throw new Error(modern.error.message);
    expect(modern.snapshot.era).toBe("2026");
    const legacy = await inspectServer(http(modernOnly.url), { era: "2025" });
    expect(legacy.ok).toBe(false);
  });

  test("pinning 2026 against a 2025-only server fails instead of falling back", async () => {
    const { startDemoHttp } = await import("./v1-server");
    const v1 = await startDemoHttp();
    try {
      const auto = await inspectServer(http(v1.url));
      if (!auto.ok) throw new Error(auto.error.message);
      expect(auto.snapshot.era).toBe("2025");
      const pinned = await inspectServer(http(v1.url), { era: "2026" });
      expect(pinned.ok).toBe(false);
      if (!pinned.ok) expect(pinned.error.message).toMatch(/2026-07-28/);
    } finally {
      await v1.close();
    }
  });

  test("the surface a server shows depends on the credential the request carries", async () => {
    const plain = await inspectServer(http(both.url));
    const admin = await inspectServer(http(both.url, { Authorization: "Bearer admin-token" }));
    if (!plain.ok || !admin.ok) throw new Error("inspection failed");
    expect(plain.snapshot.tools.map((t) => t.name)).toEqual(["forecast"]);
    expect(admin.snapshot.tools.map((t) => t.name).sort()).toEqual(["delete_city", "forecast"]);
    expect(admin.snapshot.surfaceSha256).not.toBe(plain.snapshot.surfaceSha256);
  });
});
