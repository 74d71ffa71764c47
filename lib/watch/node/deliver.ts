import "server-only";
/**
 * Sending one webhook delivery: the event as a generic signed JSON body or a Slack body, POSTed
 * through the workbench's egress allowlist (checked on the URL, and again in the socket's lookup,
 * lib/mcp/node/egress-fetch.ts), with a timeout, no redirects followed, and the response body
 * never read beyond its status. The signing secret is read from the secret store by name at send
 * time. Each attempt is recorded with its status; a failure is retried with exponential backoff
 * until the attempts run out. A URL taken from a secret is checked to be one before it is used, and
 * no recorded error ever holds a secret's value (it would be read back on the Webhooks page).
 */
import { checkEgress, egressPolicyFromEnv } from "@/lib/mcp/egress";
import { pinnedEgressFetch } from "@/lib/mcp/node/egress-fetch";
import { dnsLookupAll } from "@/lib/mcp/node/resolve-target";
import { getSecretKey } from "@/lib/secrets/key";
import { isWholeReference, referencesIn } from "@/lib/secrets/references";
import type { Db } from "@/lib/store/db";
import { openSecrets } from "@/lib/store/secrets";
import {
  getEventBySeq,
  getWebhook,
  recordDeliveryAttempt,
  type Delivery,
  type DeliveryAttempt,
} from "@/lib/store/webhooks";
import { backoffSeconds, type WatchSettings } from "@/lib/watch/schedule";
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  genericPayload,
  signatureHeader,
  slackPayload,
} from "@/lib/watch/webhook-payload";
import { webhookUrlReferenceRefusal } from "@/lib/watch/webhook-api";

export type Env = Readonly<Record<string, string | undefined>>;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** The public base URL links in payloads point at, when the owner set one. */
const baseUrlOf = (env: Env) => env.RELAY_REVIEW_PUBLIC_URL?.trim().replace(/\/+$/, "") || null;

/** One attempt; the outcome is recorded on the delivery and returned. Never throws for the receiver's behaviour. */
export async function attemptDelivery(
  db: Db,
  delivery: Delivery,
  settings: WatchSettings,
  env: Env = process.env,
): Promise<DeliveryAttempt & { state: Delivery["state"] }> {
  const started = Date.now();
  const finish = async (status: number | null, error: string | null) => {
    const attempt: DeliveryAttempt = {
      at: new Date(started).toISOString(),
      status,
      error,
      ms: Date.now() - started,
    };
    const n = delivery.attempts.length + 1;
    const ok = status !== null && status >= 200 && status < 300;
    // A refusal by our own policy or a missing secret will not fix itself by waiting.
    const isPermanent = error?.startsWith("refused:") ?? false;
    const outcome = ok
      ? ({ state: "delivered" } as const)
      : isPermanent || n >= settings.deliveryAttempts
        ? ({ state: "failed" } as const)
        : ({
            state: "pending",
            retryInSeconds: backoffSeconds(settings.deliveryRetryBaseSeconds, n),
          } as const);
    await recordDeliveryAttempt(db, delivery.id, attempt, outcome);
    return { ...attempt, state: outcome.state };
  };

  const webhook = await getWebhook(db, delivery.webhookId);
  const event = await getEventBySeq(db, delivery.eventSeq);
  if (!webhook || !event) return finish(null, "refused: the webhook or its event no longer exists");
  const policy = egressPolicyFromEnv(env);
  if (!policy.ok) return finish(null, `refused: ${policy.message}`);
  // Saved before the rule, or written to the store by other means: refused the same way.
  const urlRefusal = webhookUrlReferenceRefusal(webhook.url);
  if (urlRefusal) return finish(null, `refused: ${urlRefusal}`);
  const key = getSecretKey();
  const urlSecret = isWholeReference(webhook.url) ? referencesIn(webhook.url)[0]! : null;
  const secretNames = [
    ...(urlSecret ? [urlSecret] : []),
    ...(webhook.format === "generic" && webhook.secretName ? [webhook.secretName] : []),
  ];
  let secrets = new Map<string, string>();
  if (secretNames.length > 0) {
    if (!key.ok) return finish(null, `refused: ${key.message}`);
    const opened = await openSecrets(db, key.key, secretNames);
    if (!opened.ok) return finish(null, `refused: ${opened.message}`);
    secrets = opened.values;
    const missing = secretNames.filter((n) => !secrets.has(n));
    if (missing.length > 0)
      return finish(null, `refused: ${missing.join(", ")} is not set in the secret store`);
  }
  /** An error's text with every secret value in it replaced by the secret's name. */
  const scrub = (text: string) =>
    [...secrets].reduce((t, [name, v]) => (v ? t.split(v).join(`[secret ${name}]`) : t), text);
  // The URL as stored names its secret; the one connected to is its value, and is never logged.
  const url = urlSecret ? (secrets.get(urlSecret) ?? "") : webhook.url;
  if (urlSecret && !isHttpUrl(url))
    return finish(null, `refused: the secret ${urlSecret} does not hold an http(s) URL`);
  const check = await checkEgress(url, policy.policy, dnsLookupAll);
  if (!check.ok) return finish(null, `refused: egress: ${scrub(check.message)}`);

  const baseUrl = baseUrlOf(env);
  const body = JSON.stringify(
    webhook.format === "slack"
      ? slackPayload(event, baseUrl)
      : genericPayload(event, delivery.id, baseUrl),
  );
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "relay-review-webhook/1",
    [DELIVERY_HEADER]: delivery.id,
    [EVENT_HEADER]: event.kind,
  };
  if (webhook.format === "generic") {
    const secret = webhook.secretName ? secrets.get(webhook.secretName) : undefined;
    if (!secret) return finish(null, "refused: the webhook has no signing secret");
    headers[SIGNATURE_HEADER] = signatureHeader(secret, Math.floor(Date.now() / 1000), body);
  }
  try {
    const response = await pinnedEgressFetch(policy.policy)(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(settings.deliveryTimeoutMs),
    });
    // Only the status matters; release the connection without reading what the receiver sent.
    await response.body?.cancel().catch(() => undefined);
    const isOk = response.status >= 200 && response.status < 300;
    return finish(response.status, isOk ? null : `the receiver answered ${response.status}`);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === "EEGRESSREFUSED")
      return finish(null, `refused: ${scrub(cause.message ?? "")}`);
    // An error may quote the URL, which can hold a secret: keep the secret out of the log.
    const text = cause?.message ? `${message(error)}: ${cause.message}` : message(error);
    return finish(null, scrub(text));
  }
}
