/**
 * The inspect, surface, pin and registration routes against the running app and real stdio
 * servers. What runs comes only from the stored review's server entry and the launcher allowlist.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { bearer } from "../support/auth";
import {
  KNOWLEDGE_V42_ARGS,
  createDemoReview,
  editReview,
  hostileServer,
  ndjson,
} from "../support/surface";

const base = (id: string, serverId: string) => `/api/reviews/${id}/servers/${serverId}`;

test("[inspect]: a server whose command is not on the launcher allowlist is refused with 422 naming the file to edit, and nothing runs", async ({
  request,
}) => {
  const marker = path.join(os.tmpdir(), `relay-review-pwned-${Date.now()}`);
  const { id } = await createDemoReview(request);
  await editReview(request, id, (r) => {
    r.servers.push({
      id: "evil",
      name: "evil",
      transport: { kind: "stdio", command: "sh", args: ["-c", `touch ${marker}`], envNames: [] },
      pin: null,
    });
  });
  const res = await request.post(`${base(id, "evil")}/inspect`, { headers: bearer, data: {} });
  expect(res.status()).toBe(422);
  const body = (await res.json()) as {
    error: { code: string; message: string; details: { launcherFile: string } };
  };
  expect(body.error.message).toContain("not in the workbench's launcher allowlist");
  expect(body.error.details.launcherFile).toContain("launchers.json");
  expect(fs.existsSync(marker)).toBe(false);
  // And nothing was recorded as an inspection.
  const surface = (await (
    await request.get(`${base(id, "evil")}/surface`, { headers: bearer })
  ).json()) as { latest: unknown };
  expect(surface.latest).toBeNull();
});

test("[inspect]: the request body cannot name a command; only limit overrides, each validated", async ({
  request,
}) => {
  const { id } = await createDemoReview(request);
  const withCommand = await request.post(`${base(id, "knowledge-mcp")}/inspect`, {
    headers: bearer,
    data: { command: "sh", args: ["-c", "id"] },
  });
  expect(withCommand.status()).toBe(400);
  const badLimit = await request.post(`${base(id, "knowledge-mcp")}/inspect`, {
    headers: bearer,
    data: { limits: { connectTimeoutMs: -1 } },
  });
  expect(badLimit.status()).toBe(400);
  expect(
    ((await badLimit.json()) as { error: { issues: { path: string }[] } }).error.issues[0]?.path,
  ).toContain("connectTimeoutMs");
  const manual = await editReview(request, id, (r) => {
    r.servers.push({ id: "by-hand", name: "by-hand", transport: { kind: "manual" }, pin: null });
  });
  expect(
    (await request.post(`${base(manual.id, "by-hand")}/inspect`, { headers: bearer })).status(),
  ).toBe(422);
  expect(
    (await request.post(`${base(id, "no-such-server")}/inspect`, { headers: bearer })).status(),
  ).toBe(404);
});

test("[inspect]: streams progress then a result; the snapshot is stored, pinned, exported, and a change blocks until re-pinned with a reason", async ({
  request,
}) => {
  const { id } = await createDemoReview(request);
  const res = await request.post(`${base(id, "knowledge-mcp")}/inspect`, { headers: bearer });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/x-ndjson");
  const lines = ndjson(await res.text());
  const types = lines.map((l) =>
    l.type === "progress" ? (l.event as { type: string }).type : "result",
  );
  expect(types[0]).toBe("connecting");
  expect(types).toContain("initialized");
  expect(types).toContain("listing");
  expect(types.at(-2)).toBe("settled");
  const result = lines.at(-1) as {
    type: string;
    ok: boolean;
    surfaceSha256: string;
    summary: { counts: { tools: number } };
    pin: { status: string };
  };
  expect(result).toMatchObject({ type: "result", ok: true, pin: { status: "unpinned" } });
  expect(result.summary.counts.tools).toBe(4);
  expect(result.surfaceSha256).toMatch(/^[0-9a-f]{64}$/);

  const surface = (await (
    await request.get(`${base(id, "knowledge-mcp")}/surface`, { headers: bearer })
  ).json()) as {
    current: { snapshot: { tools: { name: string }[]; surfaceSha256: string } };
    blocked: { isBlocked: boolean };
  };
  expect(surface.current.snapshot.tools.map((t) => t.name).sort()).toEqual([
    "get_comment",
    "knowledge_search",
    "list_spaces",
    "read_page",
  ]);
  expect(surface.blocked.isBlocked).toBe(false);

  const pinned = await request.post(`${base(id, "knowledge-mcp")}/pin`, {
    headers: bearer,
    data: { reason: "first review", surfaceSha256: result.surfaceSha256 },
  });
  expect(pinned.status(), await pinned.text()).toBe(200);
  const pinBody = (await pinned.json()) as {
    record: { revision: number };
    pin: { surfaceSha256: string; onSurfaceChange: string };
  };
  expect(pinBody.record.revision).toBe(2);
  expect(pinBody.pin).toMatchObject({
    surfaceSha256: result.surfaceSha256,
    onSurfaceChange: "block",
  });

  const reg = await request.get(`${base(id, "knowledge-mcp")}/registration`, { headers: bearer });
  expect(reg.status()).toBe(200);
  expect(reg.headers()["content-disposition"]).toContain("attachment");
  const record = (await reg.json()) as Record<string, unknown>;
  expect(record).toMatchObject({
    server: "knowledge-mcp",
    image: expect.stringMatching(/@sha256:[0-9a-f]{64}$/),
    surface_sha256: result.surfaceSha256,
    surface: {
      tools: ["get_comment", "knowledge_search", "list_spaces", "read_page"],
      resources: ["atlas://spaces/{key}"],
      prompts: [],
    },
    on_surface_change: "block",
  });

  // The server now serves v4.2: knowledge_search's description changes.
  await editReview(request, id, (r) => {
    const s = r.servers.find((x) => x.id === "knowledge-mcp")!;
    s.transport = { kind: "stdio", command: "node", args: KNOWLEDGE_V42_ARGS, envNames: [] };
  });
  const again = ndjson(
    await (await request.post(`${base(id, "knowledge-mcp")}/inspect`, { headers: bearer })).text(),
  ).at(-1);
  expect(again).toMatchObject({ ok: true, pin: { status: "mismatch", blocked: true } });
  const drift = (await (
    await request.get(`${base(id, "knowledge-mcp")}/surface`, { headers: bearer })
  ).json()) as {
    blocked: { isBlocked: boolean; reason: string };
    pinnedSnapshot: { found: boolean };
    diff: {
      changed: {
        list: string;
        key: string;
        fields: { field: string; before: string; after: string }[];
      }[];
    };
  };
  expect(drift.blocked.isBlocked).toBe(true);
  expect(drift.blocked.reason).toContain('"block"');
  expect(drift.pinnedSnapshot.found).toBe(true);
  expect(drift.diff.changed).toHaveLength(1);
  expect(drift.diff.changed[0]).toMatchObject({ list: "tools", key: "knowledge_search" });
  expect(drift.diff.changed[0]!.fields.map((f) => f.field)).toEqual(["description"]);
  expect(drift.diff.changed[0]!.fields[0]!.after).toContain("fetches linked external pages");

  const noReason = await request.post(`${base(id, "knowledge-mcp")}/pin`, {
    headers: bearer,
    data: {},
  });
  expect(noReason.status()).toBe(400);
  const stale = await request.post(`${base(id, "knowledge-mcp")}/pin`, {
    headers: bearer,
    data: { reason: "x", baseRevision: 1 },
  });
  expect(stale.status()).toBe(409);
  const repin = await request.post(`${base(id, "knowledge-mcp")}/pin`, {
    headers: bearer,
    data: { reason: "v4.2 fetches external pages; accepted with egress deny" },
  });
  expect(repin.status()).toBe(200);
  const after = (await (
    await request.get(`${base(id, "knowledge-mcp")}/surface`, { headers: bearer })
  ).json()) as {
    blocked: { isBlocked: boolean };
    pin: { reason: string };
    comparison: { status: string };
  };
  expect(after).toMatchObject({
    blocked: { isBlocked: false },
    pin: { reason: "v4.2 fetches external pages; accepted with egress deny" },
    comparison: { status: "match" },
  });
});

test("[inspect]: a hanging server ends within its bound with the limit named, is recorded as failed, and the app still answers", async ({
  request,
}) => {
  const { id } = await createDemoReview(request);
  await editReview(request, id, (r) => {
    r.servers.push({ ...hostileServer("hang", "hang"), pin: null });
  });
  const started = Date.now();
  const res = await request.post(`${base(id, "hang")}/inspect`, {
    headers: bearer,
    data: { limits: { connectTimeoutMs: 800 } },
  });
  expect(res.status()).toBe(200);
  const last = ndjson(await res.text()).at(-1);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(last).toMatchObject({
    type: "result",
    ok: false,
    error: { code: "limit_exceeded", limit: "connectTimeoutMs" },
  });
  const surface = (await (
    await request.get(`${base(id, "hang")}/surface`, { headers: bearer })
  ).json()) as { latest: { status: string; error: { limit: string } } };
  expect(surface.latest).toMatchObject({ status: "failed", error: { limit: "connectTimeoutMs" } });
  expect((await request.get("/api/reviews", { headers: bearer })).status()).toBe(200);
});

test("[inspect]: flood, garbage on stdout, a looping cursor and a crash mid-reply each end in a clear error", async ({
  request,
}) => {
  const { id } = await createDemoReview(request);
  await editReview(request, id, (r) => {
    r.servers.push({ ...hostileServer("flood", "flood"), pin: null });
    r.servers.push({ ...hostileServer("garbage", "garbage-stdout"), pin: null });
    r.servers.push({ ...hostileServer("loop", "cursor-loop"), pin: null });
    r.servers.push({ ...hostileServer("crash", "crash-mid-reply"), pin: null });
  });
  const cases: [string, Record<string, number>, string][] = [
    ["flood", { totalBytes: 256 * 1024 }, "totalBytes"],
    ["garbage", {}, "invalidMessages"],
    ["loop", {}, "pageCount"],
  ];
  for (const [serverId, limits, limit] of cases) {
    const res = await request.post(`${base(id, serverId)}/inspect`, {
      headers: bearer,
      data: { limits },
    });
    const last = ndjson(await res.text()).at(-1);
    expect(last, serverId).toMatchObject({
      type: "result",
      ok: false,
      error: { code: "limit_exceeded", limit },
    });
  }
  const crash = ndjson(
    await (await request.post(`${base(id, "crash")}/inspect`, { headers: bearer })).text(),
  ).at(-1);
  expect(crash).toMatchObject({ type: "result", ok: false, error: { code: "server_exited" } });
  expect((await request.get("/api/reviews", { headers: bearer })).status()).toBe(200);
});
