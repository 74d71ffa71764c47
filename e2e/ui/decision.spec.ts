/**
 * Deciding in the demo review, end to end: inspect the live server, decide in the Decision section
 * (approved with checkable conditions, into a named agent), export the signed record (valid
 * against the published JSON Schema; its signature checked by the CLI as a child process, and a
 * one-byte tamper refused), the Markdown report, then three changes that each make the decision
 * stale, saying what changed: the agent's tool set, the image digest, and the live surface. The
 * CLI asks the running app too (`verify-record --workbench`, `--share`): current, then stale. A
 * new decision for the same server and agent supersedes the old one.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Download, Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import {
  CreateShareLinkResponseSchema,
  ListDecisionsResponseSchema,
} from "../../lib/decisions/api";
import { bearer, OWNER_TOKEN, signIn } from "../support/auth";
import {
  createDemoReview,
  editReview,
  getReview,
  KNOWLEDGE_V42_ARGS,
  ndjson,
} from "../support/surface";

const run = promisify(execFile);
// Safe: a CommonJS module; under Node's ESM loader the default import is module.exports, whose `default` is the plugin.
const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;

async function verify(
  recordFile: string,
  keyFile: string,
  ...extra: string[]
): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["bin/relay-review.mjs", "verify-record", recordFile, "--public-key", keyFile, ...extra],
      {
        timeout: 60_000,
        env: { ...process.env, RELAY_REVIEW_TOKEN: OWNER_TOKEN },
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === "number" ? e.code : -1,
      out: `${e.stdout ?? ""}${e.stderr ?? ""}`,
    };
  }
}

async function saved(download: Download, dir: string): Promise<string> {
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

async function inspect(page: Page, id: string) {
  const res = await page.request.post(`/api/reviews/${id}/servers/knowledge-mcp/inspect`, {
    headers: bearer,
  });
  expect(res.status()).toBe(200);
  const result = ndjson(await res.text()).at(-1) as { ok: boolean; surfaceSha256: string };
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return result.surfaceSha256;
}

async function apiDecisions(page: Page, id: string) {
  const res = await page.request.get(`/api/reviews/${id}/decisions`, { headers: bearer });
  expect(res.status()).toBe(200);
  return ListDecisionsResponseSchema.parse(await res.json());
}

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[decision]: decide, export and verify the signed record, then a tool-set, digest and surface change each make it stale", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const dir = await mkdtemp(path.join(os.tmpdir(), "rr-decision-"));
  const { id } = await createDemoReview(page.request);
  const surface = await inspect(page, id);

  // Decide in the UI.
  await page.goto(`/reviews/${id}?section=decision`);
  const form = page.getByRole("form", { name: "Decide" });
  await form.getByLabel("Server").selectOption("knowledge-mcp");
  await form.getByLabel("Into agent").selectOption("docs-agent");
  await expect(form.getByTestId("decide-tool-set")).toContainText("knowledge_search, read_page");
  await form.getByLabel("Approved with conditions").check();
  const egress = form.getByTestId("condition-egress_default_deny");
  const credential = form.getByTestId("condition-credential_read_only");
  await expect(egress).toContainText("holds");
  await expect(credential).toContainText("every scope is read-only");
  await expect(form.getByTestId("condition-surface_pinned_block")).toContainText("does not hold");
  // "Tool absent" is offered for the sink the agent does not hold, never for the tools it holds off any path.
  const keepOut = form.getByTestId("condition-group-keep_out");
  await expect(keepOut).toContainText(
    "trigger_deploy on deploy-tools (not under review) is not in the agent's tool set",
  );
  await expect(keepOut).toContainText("holds");
  await expect(form.locator('[data-condition*="knowledge_search"]')).toHaveCount(0);
  // An agent with paths shows the held tools on them, not selectable.
  await form.getByLabel("Into agent").selectOption("on-call");
  const onPath = form.locator('[data-offer="on_path"]');
  await expect(onPath.filter({ hasText: "knowledge_search" })).toHaveCount(1);
  await expect(onPath.filter({ hasText: "knowledge_search" }).getByRole("checkbox")).toBeDisabled();
  await form.getByLabel("Into agent").selectOption("docs-agent");
  await expect(keepOut).toContainText("trigger_deploy");
  await egress.getByRole("checkbox").check();
  await credential.getByRole("checkbox").check();
  await form.getByLabel("Reviewer").fill("R. Reviewer");
  await form
    .getByLabel("Rationale")
    .fill("Read-only search into an agent that holds no sink; egress is an allowlist.");
  await form.getByRole("button", { name: "Record decision" }).click();
  await expect(form.getByTestId("decide-message")).toContainText("saved as revision 2");

  const card = page.locator("[data-decision-id]");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("decision-verdict")).toHaveText("Approved with conditions");
  await expect(card).toContainText("knowledge-mcp into documentation agent");
  await expect(card.getByTestId("decision-tool-set")).toContainText(
    "2 tools: knowledge_search, read_page",
  );
  await expect(card).toContainText(`made against the live surface ${surface}`);
  await expect(card).toContainText(surface.slice(0, 12));
  await expect(card.getByTestId("decision-status")).toHaveAttribute("data-state", "current");
  await expect(card.getByTestId("decision-conditions")).toContainText("holds");

  // The signed record: valid against the published schema, verified by the CLI, a tamper refused.
  const recordDownload = page.waitForEvent("download");
  await card.getByRole("button", { name: "Download signed record (JSON)" }).click();
  const recordFile = await saved(await recordDownload, dir);
  const record = JSON.parse(await readFile(recordFile, "utf8")) as Record<string, unknown> & {
    decision: { id: string; agentId: string; toolSet: unknown[]; bound: { surfaceSha256: string } };
    signature: { alg: string; keyId: string };
    registration: { surface_sha256: string } | null;
  };
  expect(record.decision.agentId).toBe("docs-agent");
  expect(record.decision.bound.surfaceSha256).toBe(surface);
  expect(record.registration?.surface_sha256).toBe(surface);
  expect(record.signature.alg).toBe("Ed25519");

  const schemaRes = await page.request.get("/schemas/decision-record.v1.json");
  expect(schemaRes.status()).toBe(200);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(await schemaRes.json());
  expect(validate(record), JSON.stringify(validate.errors)).toBe(true);

  const keyRes = await page.request.get("/api/signing-key", { headers: bearer });
  expect(keyRes.status()).toBe(200);
  expect(keyRes.headers()["x-signing-key-id"]).toBe(record.signature.keyId);
  const keyFile = path.join(dir, "public.pem");
  await writeFile(keyFile, await keyRes.text());
  const ok = await verify(recordFile, keyFile);
  expect(ok.code, ok.out).toBe(0);
  const linkRes = await page.request.post(`/api/reviews/${id}/share-links`, {
    headers: bearer,
    data: { frozen: false },
  });
  expect(linkRes.status()).toBe(201);
  const shareLink = `${baseURL!}${CreateShareLinkResponseSchema.parse(await linkRes.json()).path}`;
  for (const via of [
    ["--workbench", baseURL!],
    ["--share", shareLink],
  ]) {
    const now = await verify(recordFile, keyFile, ...via);
    expect(now.code, now.out).toBe(0);
    expect(now.out).toContain(`workbench: current: decision ${record.decision.id}`);
    expect(now.out).not.toContain(OWNER_TOKEN);
  }

  const text = await readFile(recordFile, "utf8");
  const at = text.indexOf("Read-only search");
  const tampered = path.join(dir, "tampered.json");
  await writeFile(tampered, text.slice(0, at) + "r" + text.slice(at + 1));
  const bad = await verify(tampered, keyFile);
  expect(bad.code, bad.out).not.toBe(0);
  expect(bad.out).toMatch(/tamper|changed/i);

  // The Markdown report.
  const reportDownload = page.waitForEvent("download");
  await card.getByRole("button", { name: "Download report (Markdown)" }).click();
  const report = await readFile(await saved(await reportDownload, dir), "utf8");
  expect(report).toContain("# Decision: `knowledge-mcp` into `documentation agent`");
  expect(report).toContain("Approved with conditions");
  expect(report).toContain("## Writer bounds per source");
  expect(report).toContain("everyone with an email address");
  expect(report).toContain("### Residue");
  expect(report).toContain("Current:");

  // 1. The agent's tool set changes (in the Agents section): stale, saying "tool set".
  await page.goto(`/reviews/${id}?section=agents`);
  await page.getByTestId("agent-docs-agent").getByRole("checkbox", { name: "list_spaces" }).click(); // controlled: checked once saved
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 3");
  await page.goto(`/reviews/${id}?section=decision`);
  const status = card.getByTestId("decision-status");
  await expect(status).toHaveAttribute("data-state", "stale");
  await expect(status).toContainText("STALE");
  await expect(status.locator('[data-what="tool_set"]')).toContainText("tool set");
  await expect(status.locator('[data-what="tool_set"]')).toContainText(
    "added list_spaces on knowledge-mcp",
  );
  await expect(card.getByRole("button", { name: "Download signed record (JSON)" })).toBeDisabled();
  const staleRecord = await page.request.get(
    `/api/reviews/${id}/decisions/${record.decision.id}/record`,
    { headers: bearer },
  );
  expect(staleRecord.status()).toBe(409);
  expect(await staleRecord.text()).toContain("stale");
  let api = await apiDecisions(page, id);
  expect(api.decisions[0]?.status).toMatchObject({
    state: "stale",
    changes: [{ what: "tool_set" }],
  });
  // The CLI says the same from the record alone: the workbench and the share link call it stale (exit 5).
  for (const via of [
    ["--workbench", baseURL!],
    ["--share", shareLink],
  ]) {
    const stale = await verify(recordFile, keyFile, ...via);
    expect(stale.code, stale.out).toBe(5);
    expect(stale.out).toContain("workbench: STALE");
    expect(stale.out).toContain(
      "tool_set: documentation agent's tool set changed: added list_spaces on knowledge-mcp",
    );
  }

  // 2. The image digest changes (in the Servers section): stale, also saying "image digest".
  await page.goto(`/reviews/${id}?section=servers`);
  await page.getByRole("button", { name: "Edit server knowledge-mcp" }).click();
  const serverForm = page.getByRole("form", { name: "Edit knowledge-mcp" });
  await serverForm
    .getByLabel("Image digest (optional)")
    .fill(`ghcr.io/atlas/knowledge-mcp@sha256:${"4".repeat(64)}`);
  await serverForm.getByRole("button", { name: "Save server" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 4");
  await page.goto(`/reviews/${id}?section=decision`);
  await expect(status.locator('[data-what="image_digest"]')).toContainText("image digest");
  await expect(status.locator('[data-what="image_digest"]')).toContainText("4444");
  api = await apiDecisions(page, id);
  expect(
    api.decisions[0]?.status.state === "stale" &&
      api.decisions[0].status.changes.map((c) => c.what),
  ).toEqual(["image_digest", "tool_set"]);

  // 3. The live surface changes (the server now serves v4.2; inspected again): stale, saying "surface".
  await editReview(page.request, id, (r) => {
    const s = r.servers.find((x) => x.id === "knowledge-mcp")!;
    s.transport = { kind: "stdio", command: "node", args: KNOWLEDGE_V42_ARGS, envNames: [] };
  });
  const changed = await inspect(page, id);
  expect(changed).not.toBe(surface);
  await page.goto(`/reviews/${id}?section=decision`);
  await expect(status.locator('[data-what="surface"]')).toContainText(
    `${surface.slice(0, 12)}… → ${changed.slice(0, 12)}…`,
  );
  api = await apiDecisions(page, id);
  expect(
    api.decisions[0]?.status.state === "stale" &&
      api.decisions[0].status.changes.map((c) => c.what),
  ).toEqual(["surface", "image_digest", "tool_set"]);

  // Deciding again makes a new, current decision; the old one stays, stale.
  await form.getByLabel("Into agent").selectOption("docs-agent");
  await form.getByLabel("Approved", { exact: true }).check();
  await form.getByLabel("Reviewer").fill("R. Reviewer");
  await form
    .getByLabel("Rationale")
    .fill("Re-reviewed v4.2 and the new digest; list_spaces returns no untrusted text.");
  await form.getByRole("button", { name: "Record decision" }).click();
  await expect(form.getByTestId("decide-message")).toContainText("saved as revision 6");
  await expect(card).toHaveCount(2);
  await expect(card.first().getByTestId("decision-status")).toHaveAttribute(
    "data-state",
    "current",
  );
  // The new decision for the same server and agent supersedes the old one: no longer in force.
  await expect(card.nth(1).getByTestId("decision-status")).toHaveAttribute(
    "data-state",
    "superseded",
  );
  api = await apiDecisions(page, id);
  expect(api.decisions.map((d) => d.supersededBy ?? null)).toEqual([
    api.decisions[1]!.decision.id,
    null,
  ]);
  expect(api.decisions[1]!.decision.supersedes).toBe(api.decisions[0]!.decision.id);
});

test("[decision]: the decide route refuses a stale base revision (409) and a malformed decision (400 naming the field)", async ({
  page,
}) => {
  const { id } = await createDemoReview(page.request);
  const body = {
    baseRevision: 1,
    serverId: "knowledge-mcp",
    agentId: "on-call",
    verdict: "rejected",
    reviewer: "R",
    rationale: "holds trigger_deploy",
  };
  const first = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: body,
  });
  expect(first.status(), await first.text()).toBe(201);
  const again = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: body,
  });
  expect(again.status()).toBe(409);
  const noConditions = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: { ...body, baseRevision: 2, verdict: "approved_with_conditions" },
  });
  expect(noConditions.status()).toBe(400);
  expect(
    ((await noConditions.json()) as { error: { issues: { path: string }[] } }).error.issues.map(
      (i) => i.path,
    ),
  ).toContain("conditions");
  const noRationale = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: { ...body, baseRevision: 2, rationale: " " },
  });
  expect(noRationale.status()).toBe(400);
  const list = await apiDecisions(page, id);
  expect(list.decisions).toHaveLength(1);
  expect(list.decisions[0]?.basis.kind).toBe("declared_tools");
  expect(list.decisions[0]?.status.state).toBe("current");
});

test("[decision]: a rug-pulled server under a blocking pin cannot be approved until it is re-pinned with a reason", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { id } = await createDemoReview(page.request);
  const first = await inspect(page, id);
  const pinned = await page.request.post(`/api/reviews/${id}/servers/knowledge-mcp/pin`, {
    headers: bearer,
    data: { reason: "first review of v4.1" },
  });
  expect(pinned.status(), await pinned.text()).toBe(200);

  // The rug pull: the server now serves v4.2 (knowledge_search also fetches linked external pages).
  await editReview(page.request, id, (r) => {
    r.servers.find((x) => x.id === "knowledge-mcp")!.transport = {
      kind: "stdio",
      command: "node",
      args: KNOWLEDGE_V42_ARGS,
      envNames: [],
    };
  });
  const changed = await inspect(page, id);
  expect(changed).not.toBe(first);

  // Approving in the UI is refused, naming the changed tool, and nothing is saved.
  await page.goto(`/reviews/${id}?section=decision`);
  const form = page.getByRole("form", { name: "Decide" });
  await form.getByLabel("Server").selectOption("knowledge-mcp");
  await form.getByLabel("Into agent").selectOption("docs-agent");
  await form.getByLabel("Approved", { exact: true }).check();
  await form.getByLabel("Reviewer").fill("R. Reviewer");
  await form.getByLabel("Rationale").fill("Deciding again after the change.");
  await form.getByRole("button", { name: "Record decision" }).click();
  const message = form.getByTestId("decide-message");
  await expect(message).toContainText("knowledge-mcp is blocked");
  await expect(message).toContainText('tool "knowledge_search" changed (description)');
  await expect(message).toContainText("re-pin the server with a reason");
  expect((await apiDecisions(page, id)).decisions).toHaveLength(0);

  // The API says the same, coded, with the per-item diff.
  const { revision } = await getReview(page.request, id);
  const decide = {
    baseRevision: revision,
    serverId: "knowledge-mcp",
    agentId: "docs-agent",
    verdict: "approved",
    reviewer: "R",
    rationale: "around the pin",
  };
  const refused = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: decide,
  });
  expect(refused.status()).toBe(409);
  const body = (await refused.json()) as {
    error: {
      details: {
        reason: string;
        pinnedSurfaceSha256: string;
        liveSurfaceSha256: string;
        items: unknown[];
      };
    };
  };
  expect(body.error.details).toMatchObject({
    reason: "surface_blocked",
    pinnedSurfaceSha256: first,
    liveSurfaceSha256: changed,
    items: [{ list: "tools", key: "knowledge_search", change: "changed", fields: ["description"] }],
  });

  // The analysis and the agents view show it blocked.
  const analysis = (await (
    await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })
  ).json()) as {
    toolLists: { serverId: string; blocked: { reason: string } | null }[];
    findings: { kind: string; subject: { serverId?: string } }[];
  };
  expect(analysis.toolLists.find((l) => l.serverId === "knowledge-mcp")?.blocked?.reason).toContain(
    'tool "knowledge_search" changed',
  );
  expect(
    analysis.findings.some(
      (f) => f.kind === "server.blocked" && f.subject.serverId === "knowledge-mcp",
    ),
  ).toBe(true);
  await page.goto(`/reviews/${id}?section=agents`);
  await expect(page.getByTestId("agents-blocked-knowledge-mcp")).toContainText("BLOCKED");
  await page.goto(`/reviews/${id}?section=graph`);
  await expect(page.getByTestId("graph-blocked-knowledge-mcp")).toContainText("BLOCKED");
  await expect(page.locator("g.gnode.blocked").first()).toHaveAttribute(
    "aria-label",
    /server BLOCKED/,
  );

  // A re-pin without a reason, or turning the pin to "warn" without one, is refused.
  const noReason = await page.request.post(`/api/reviews/${id}/servers/knowledge-mcp/pin`, {
    headers: bearer,
    data: { reason: " " },
  });
  expect(noReason.status()).toBe(400);
  const toWarn = await page.request.post(`/api/reviews/${id}/servers/knowledge-mcp/pin`, {
    headers: bearer,
    data: { reason: "", onSurfaceChange: "warn" },
  });
  expect(toWarn.status()).toBe(400);
  const repinned = await page.request.post(`/api/reviews/${id}/servers/knowledge-mcp/pin`, {
    headers: bearer,
    data: {
      reason: "v4.2 fetches linked external pages; egress stays default-deny",
      surfaceSha256: changed,
    },
  });
  expect(repinned.status(), await repinned.text()).toBe(200);

  // Now the approval goes through, and its record names the pin it was made under.
  await page.goto(`/reviews/${id}?section=decision`);
  await form.getByLabel("Server").selectOption("knowledge-mcp");
  await form.getByLabel("Into agent").selectOption("docs-agent");
  await form.getByLabel("Approved", { exact: true }).check();
  await form.getByLabel("Reviewer").fill("R. Reviewer");
  await form.getByLabel("Rationale").fill("Re-reviewed v4.2 after the re-pin.");
  await form.getByRole("button", { name: "Record decision" }).click();
  await expect(message).toContainText("saved as revision");
  const [decision] = (await apiDecisions(page, id)).decisions;
  expect(decision?.status.state).toBe("current");
  const recordRes = await page.request.get(
    `/api/reviews/${id}/decisions/${decision!.decision.id}/record`,
    { headers: bearer },
  );
  expect(recordRes.status(), await recordRes.text()).toBe(200);
  const record = (await recordRes.json()) as {
    decision: {
      bound: { surfaceSha256: string };
      pin: { surfaceSha256: string; reason: string; pinnedAt: string };
    };
  };
  expect(record.decision.bound.surfaceSha256).toBe(changed);
  expect(record.decision.pin).toMatchObject({
    surfaceSha256: changed,
    reason: "v4.2 fetches linked external pages; egress stays default-deny",
  });
});
