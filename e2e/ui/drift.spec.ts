import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { SIGNATURE_HEADER, verifySignature } from "../../lib/watch/webhook-payload";
import { bearer, signIn } from "../support/auth";
import { createDemoReview, ndjson } from "../support/surface";
import { E2E_EGRESS } from "../support/egress";

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[drift]: a pinned server is on its review's timeline; its interval is saved, and the pin is in the audit log", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { id } = await createDemoReview(page.request);
  const inspected = await page.request.post(`/api/reviews/${id}/servers/knowledge-mcp/inspect`, {
    headers: bearer,
  });
  expect(inspected.status()).toBe(200);
  expect((ndjson(await inspected.text()).at(-1) as { ok: boolean }).ok).toBe(true);
  const pinned = await page.request.post(`/api/reviews/${id}/servers/knowledge-mcp/pin`, {
    headers: bearer,
    data: { reason: "first review" },
  });
  expect(pinned.status(), await pinned.text()).toBe(200);

  await page.goto(`/reviews/${id}/timeline`);
  const schedule = page.getByRole("form", { name: "Schedule of knowledge-mcp" });
  await schedule.getByLabel("Interval in hours").fill("2");
  await schedule.getByRole("button", { name: "Save" }).click();
  await expect(schedule.getByRole("status")).toHaveText("saved");
  await page.reload();
  await expect(
    page.getByRole("form", { name: "Schedule of knowledge-mcp" }).getByLabel("Interval in hours"),
  ).toHaveValue("2");
  await expect(page.getByRole("list", { name: "Events" })).toContainText("Pin set");

  await page.goto("/changes?group=audit");
  await expect(page.getByRole("list", { name: "Events" })).toContainText("Pin set");
});

test("[webhooks]: added in the UI, its test delivery reaches a loopback receiver signed with the secret shown once, and it is removed", async ({
  page,
}) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  const { host, port } = E2E_EGRESS.webhook;
  await new Promise<void>((resolve) => receiver.listen(port, host, resolve));
  const url = `http://${host}:${port}/hook`;
  try {
    await page.goto("/webhooks");
    const add = page.getByRole("form", { name: "Add a webhook" });
    await add.getByLabel("Label").fill("e2e receiver");
    await add.getByLabel("URL").fill(url);
    await add.getByRole("button", { name: "Add webhook" }).click();
    const shown = add.getByRole("status");
    await expect(shown).toContainText("shown this once");
    const secret = (await shown.locator("code.mono").textContent()) ?? "";
    expect(secret.length).toBeGreaterThan(20);

    const hook = page.getByRole("region", { name: "Webhook e2e receiver" });
    await hook.getByRole("button", { name: "Test" }).click();
    await expect(page.getByText(/^Test delivered: 204/)).toBeVisible();
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const header = delivery!.headers[SIGNATURE_HEADER];
    expect(
      verifySignature(secret, typeof header === "string" ? header : null, delivery!.body),
    ).toEqual({ ok: true, timestamp: expect.any(Number) });
    // The secret is not shown again once the page is reloaded.
    await page.reload();
    await expect(page.getByRole("region", { name: "Webhook e2e receiver" })).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);

    await page
      .getByRole("region", { name: "Webhook e2e receiver" })
      .getByRole("button", { name: "Remove" })
      .click();
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
