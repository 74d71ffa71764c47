/**
 * Webhooks and the audit log, on every store backend: the Test button's delivery is signed over
 * timestamp + body with the secret from the secret store (a generated one is shown once and
 * kept there, never in the webhooks table); a Slack webhook posts Slack's body to a URL held as
 * a secret; a receiver that fails is retried with backoff and each attempt is logged; a
 * destination outside the egress allowlist is refused without a request; read marks are per
 * owner; owner actions are logged by name, never with a value.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { openStore, type Store } from "@/lib/store/db";
import { appendEvent, listEvents, markEventsRead } from "@/lib/store/events";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { setSecret } from "@/lib/store/secrets";
import { claimDueDeliveries, listDeliveries } from "@/lib/store/webhooks";
import { DEFAULT_WATCH_SETTINGS } from "@/lib/watch/schedule";
import { CreateWebhookRequestSchema } from "@/lib/watch/webhook-api";
import { attemptDelivery } from "@/lib/watch/node/deliver";
import { SIGNATURE_HEADER, verifySignature } from "@/lib/watch/webhook-payload";
import { addWebhook, testWebhook } from "@/lib/watch/node/webhooks";
import { BACKENDS } from "@/tests/store/support/backends";

/** One key for every suite: the process caches its key on first use (lib/secrets/key.ts). */
const key = randomBytes(32);

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };

describe.each(BACKENDS)("webhooks and the audit log on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  let receiver: http.Server;
  let base: string;
  const received: Received[] = [];
  /** Status the receiver answers per path; 204 when unset. */
  const answers = new Map<string, number[]>();

  beforeAll(async () => {
    process.env.RELAY_REVIEW_SECRET_KEY = key.toString("base64");
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "";
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(answers.get(path)?.shift() ?? 204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // The receiver's port, granted the way an operator would (loopback needs its port named).
    process.env.RELAY_REVIEW_EGRESS_ALLOW = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await store?.close();
    await new Promise((r) => receiver?.close(r));
    await drop?.();
    delete process.env.RELAY_REVIEW_SECRET_KEY;
    delete process.env.RELAY_REVIEW_EGRESS_ALLOW;
  });

  test("Test sends one signed delivery; the generated secret lives in the secret store only", async () => {
    const created = await addWebhook(
      store.db,
      CreateWebhookRequestSchema.parse({ label: "ops", url: `${base}/generic`, format: "generic" }),
    );
    expect(created.generatedSecret).toMatch(/^whsec_/);
    const { delivery } = await testWebhook(store.db, created.webhook.id);
    expect(delivery.state).toBe("delivered");
    expect(delivery.attempts.map((a) => a.status)).toEqual([204]);
    const got = received.filter((r) => r.path === "/generic");
    expect(got).toHaveLength(1);
    const header = String(got[0]!.headers[SIGNATURE_HEADER]);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(created.generatedSecret!, header, got[0]!.body).ok).toBe(true);
    expect(verifySignature(created.generatedSecret!, header, got[0]!.body + " ").ok).toBe(false);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ version: 1, event: { kind: "webhook.test" } });
    // Nowhere in the webhook tables, in clear.
    const dump = JSON.stringify(
      await store.db.execute(
        sql`SELECT w.*, d.* FROM webhooks w LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id`,
      ),
    );
    expect(dump).not.toContain(created.generatedSecret!);
  });

  test("Slack: Slack's body, to a URL held as a secret and never stored; markup from servers is escaped", async () => {
    await setSecret(store.db, key, "SLACK_WEBHOOK_URL", `${base}/services/T0/B0/sekrit`);
    expect(() =>
      CreateWebhookRequestSchema.parse({ url: `${base}/services/x`, format: "slack" }),
    ).toThrow(/itself a credential/);
    const { webhook } = await addWebhook(
      store.db,
      CreateWebhookRequestSchema.parse({
        url: "${SLACK_WEBHOOK_URL}",
        format: "slack",
        kinds: ["surface.changed"],
      }),
    );
    await appendEvent(store.db, {
      kind: "surface.changed",
      actor: "schedule",
      summary: 'tool "<!channel>" added',
    });
    // The first test's webhook subscribes to surface changes too: deliver everything due.
    const claimed = await claimDueDeliveries(store.db, { limit: 10, leaseSeconds: 30 });
    const slack = claimed.find((d) => d.webhookId === webhook.id)!;
    for (const d of claimed) await attemptDelivery(store.db, d, DEFAULT_WATCH_SETTINGS);
    expect((await listDeliveries(store.db, slack.webhookId))[0]!.state).toBe("delivered");
    const got = received.find((r) => r.path === "/services/T0/B0/sekrit")!;
    const body = JSON.parse(got.body) as { text: string; blocks: unknown[] };
    expect(body.text).toContain("Surface changed");
    expect(body.text).toContain("&lt;!channel&gt;");
    expect(body.text).not.toContain("<!channel>");
    expect(got.headers[SIGNATURE_HEADER]).toBeUndefined();
    expect(JSON.stringify(await listDeliveries(store.db, webhook.id))).not.toContain("sekrit");
  });

  test("a secret is never read back through a webhook URL (issue 28, finding 3)", async () => {
    const token = `ghp_${"A1b2C3d4".repeat(5)}`;
    await setSecret(store.db, key, "GITHUB_TOKEN", token);
    await setSecret(store.db, key, "BROKEN_WEBHOOK_URL", "sekrit-value-that-is-no-url");
    // At save: a reference inside a URL, or the whole URL from a secret not named as one, is refused.
    expect(() =>
      CreateWebhookRequestSchema.parse({
        url: `${base}/collect/\${GITHUB_TOKEN}`,
        format: "generic",
      }),
    ).toThrow(/\$\{GITHUB_TOKEN\} inside the URL: a secret may only be the whole URL/);
    expect(() =>
      CreateWebhookRequestSchema.parse({ url: "${GITHUB_TOKEN}", format: "slack" }),
    ).toThrow(/GITHUB_TOKEN is not named as a webhook URL \(its name must end in WEBHOOK_URL/);
    expect(
      CreateWebhookRequestSchema.parse({ url: "${BROKEN_WEBHOOK_URL}", format: "slack" }).url,
    ).toBe("${BROKEN_WEBHOOK_URL}");

    // Webhooks saved before the rule are refused at delivery too, without a request and
    // without the value in the stored or returned error.
    const before = received.length;
    const saved = [`${base}/collect/\${GITHUB_TOKEN}`, "${GITHUB_TOKEN}", "${BROKEN_WEBHOOK_URL}"];
    const errors: string[] = [];
    for (const url of saved) {
      const { webhook } = await addWebhook(store.db, {
        label: "",
        url,
        format: "slack",
        kinds: ["webhook.test"],
      });
      const { delivery } = await testWebhook(store.db, webhook.id);
      expect(delivery.state, url).toBe("failed");
      const error = delivery.attempts[0]!.error ?? "";
      expect(error, url).toMatch(/^refused: /);
      errors.push(error);
    }
    expect(errors[0]).toContain("GITHUB_TOKEN");
    expect(errors[1]).toContain("GITHUB_TOKEN");
    expect(errors[2]).toContain("BROKEN_WEBHOOK_URL does not hold an http(s) URL");
    expect(received.length).toBe(before);
    const dump = JSON.stringify(await store.db.execute(sql`SELECT d.* FROM webhook_deliveries d`));
    for (const text of [dump, ...errors]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain("sekrit-value");
    }
  });

  test("a failing receiver is retried with backoff, each attempt logged; outside the allowlist nothing is sent", async () => {
    answers.set("/flaky", [500, 503]);
    const flaky = await addWebhook(
      store.db,
      CreateWebhookRequestSchema.parse({
        url: `${base}/flaky`,
        format: "generic",
        kinds: ["server.blocked"],
      }),
    );
    const outside = await addWebhook(
      store.db,
      CreateWebhookRequestSchema.parse({
        url: "http://10.0.0.1:9/hook",
        format: "generic",
        kinds: ["server.blocked"],
      }),
    );
    await appendEvent(store.db, { kind: "server.blocked", actor: "schedule", summary: "blocked" });
    const settings = { ...DEFAULT_WATCH_SETTINGS, deliveryRetryBaseSeconds: 1 };
    const states: string[] = [];
    for (let round = 0; round < 8 && states.at(-1) !== "delivered"; round++) {
      for (const d of await claimDueDeliveries(store.db, { limit: 10, leaseSeconds: 30 })) {
        const a = await attemptDelivery(store.db, d, settings);
        if (d.webhookId === flaky.webhook.id) states.push(a.state);
      }
      await new Promise((r) => setTimeout(r, 700));
    }
    expect(states).toEqual(["pending", "pending", "delivered"]);
    const [logged] = await listDeliveries(store.db, flaky.webhook.id);
    expect(logged!.attempts.map((a) => a.status)).toEqual([500, 503, 204]);
    // The second retry waited longer than the first (1 s, then 2 s).
    const at = logged!.attempts.map((a) => Date.parse(a.at));
    expect(at[2]! - at[1]!).toBeGreaterThan(at[1]! - at[0]!);
    const [refused] = await listDeliveries(store.db, outside.webhook.id);
    expect(refused!.state).toBe("failed");
    expect(refused!.attempts).toHaveLength(1);
    expect(refused!.attempts[0]!.error).toMatch(/^refused: egress/);
  });

  test("read marks are per owner; owner actions are logged by name", async () => {
    await auditOwnerAction(store.db, {
      kind: "secret.set",
      summary: "Secret GITHUB_TOKEN set",
      detail: { name: "GITHUB_TOKEN", created: true },
    });
    const before = await listEvents(store.db, "owner", { kind: "secret.set" });
    expect(before.events[0]).toMatchObject({ actor: "owner", isRead: false });
    await markEventsRead(store.db, "owner", { seqs: [before.events[0]!.seq] });
    expect((await listEvents(store.db, "owner", { kind: "secret.set" })).events[0]!.isRead).toBe(
      true,
    );
    expect(
      (await listEvents(store.db, "someone-else", { kind: "secret.set" })).events[0]!.isRead,
    ).toBe(false);
    await markEventsRead(store.db, "owner", { all: true });
    expect((await listEvents(store.db, "owner")).unread).toBe(0);
    // Unread first, then newest first.
    await appendEvent(store.db, { kind: "inspection.failed", actor: "schedule", summary: "x" });
    const list = (await listEvents(store.db, "owner")).events;
    expect(list[0]!.isRead).toBe(false);
    expect(list.slice(1).every((e) => e.isRead)).toBe(true);
  });
});
