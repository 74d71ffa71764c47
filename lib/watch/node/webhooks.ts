import "server-only";
/**
 * Server-side glue for the webhook routes: creating a webhook (a generic one gets a signing
 * secret in the secret store, generated and shown once when the named secret is not set yet),
 * listing them with their recent deliveries, and the Test button (logs a `webhook.test` event
 * and sends its delivery now, returning the attempt).
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { getSecretKey } from "@/lib/secrets/key";
import type { Db } from "@/lib/store/db";
import { appendEvent } from "@/lib/store/events";
import { listSecrets, setSecret } from "@/lib/store/secrets";
import {
  claimDueDeliveries,
  createWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  queueDelivery,
} from "@/lib/store/webhooks";
import { newId } from "@/lib/ids";
import { watchSettingsFromEnv } from "@/lib/watch/schedule";
import type {
  CreateWebhookRequestSchema,
  CreateWebhookResponse,
  ListWebhooksResponse,
  TestWebhookResponse,
} from "@/lib/watch/webhook-api";
import { attemptDelivery } from "@/lib/watch/node/deliver";

/** Deliveries listed per webhook on the Webhooks page. */
export const DELIVERY_HISTORY_LIMIT = 20;

export async function addWebhook(
  db: Db,
  input: z.output<typeof CreateWebhookRequestSchema>,
): Promise<CreateWebhookResponse> {
  const id = newId("whk");
  let secretName: string | null = null;
  let generatedSecret: string | null = null;
  if (input.format === "generic") {
    secretName = input.secretName ?? `WEBHOOK_${id.slice(4).toUpperCase()}_SECRET`;
    const isSet = (await listSecrets(db)).some((s) => s.name === secretName);
    if (!isSet) {
      const key = getSecretKey();
      if (!key.ok) throw new AppError("CONFLICT", key.message);
      generatedSecret = `whsec_${randomBytes(32).toString("base64url")}`;
      await setSecret(db, key.key, secretName, generatedSecret);
    }
  }
  const webhook = await createWebhook(db, {
    id,
    label: input.label,
    url: input.url,
    format: input.format,
    secretName,
    kinds: input.kinds,
  });
  return { webhook, generatedSecret };
}

export async function webhooksOverview(db: Db): Promise<ListWebhooksResponse> {
  const hooks = await listWebhooks(db);
  return {
    webhooks: await Promise.all(
      hooks.map(async (w) => ({
        ...w,
        deliveries: await listDeliveries(db, w.id, DELIVERY_HISTORY_LIMIT),
      })),
    ),
  };
}

/** The Test button: one `webhook.test` event, delivered to this webhook now; the attempt's outcome is the answer. */
export async function testWebhook(
  db: Db,
  webhookId: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<TestWebhookResponse> {
  const webhook = await getWebhook(db, webhookId);
  if (!webhook) throw new AppError("NOT_FOUND", `no webhook ${JSON.stringify(webhookId)}`);
  const event = await appendEvent(db, {
    kind: "webhook.test",
    actor: "owner",
    summary: `Test delivery to ${webhook.label || webhook.id}: if you can read this, the webhook works`,
    detail: { webhookId },
  });
  const deliveryId = await queueDelivery(db, webhook.id, event.seq!);
  const [claimed] = await claimDueDeliveries(db, { limit: 1, leaseSeconds: 60, id: deliveryId });
  if (claimed) await attemptDelivery(db, claimed, watchSettingsFromEnv(env), env);
  const delivery = await getDelivery(db, deliveryId);
  if (!delivery) throw new AppError("INTERNAL", "the test delivery was not recorded");
  return { delivery };
}
