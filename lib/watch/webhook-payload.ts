/**
 * What a webhook sends, pure: the generic JSON body and its HMAC-SHA256 signature over
 * `<timestamp>.<body>` (docs/webhooks.md), and the Slack-compatible incoming-webhook body.
 * Text from servers (tool names in a summary) goes out as JSON string data, never as markup: the
 * Slack text escapes `&`, `<` and `>` as Slack asks, so a tool named `<!channel>` pings nobody.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { EVENT_KINDS, type EventView } from "@/lib/events/kinds";

export const SIGNATURE_HEADER = "x-relay-review-signature";
export const DELIVERY_HEADER = "x-relay-review-delivery";
export const EVENT_HEADER = "x-relay-review-event";
/** A receiver should refuse a signature whose timestamp is further than this from its clock (replay). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
export const WEBHOOK_PAYLOAD_VERSION = 1;

/** The generic payload: the event as the API shows it, plus where to look at it. */
export function genericPayload(
  event: Omit<EventView, "isRead">,
  deliveryId: string,
  baseUrl: string | null,
) {
  return {
    version: WEBHOOK_PAYLOAD_VERSION,
    deliveryId,
    event: {
      seq: event.seq,
      id: event.id,
      kind: event.kind,
      reviewId: event.reviewId,
      serverId: event.serverId,
      actor: event.actor,
      summary: event.summary,
      detail: event.detail,
      createdAt: event.createdAt,
    },
    url: baseUrl && event.reviewId ? `${baseUrl}/reviews/${event.reviewId}/timeline` : null,
  };
}

const slackEscape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Slack's incoming-webhook body: `text` (the fallback every client shows) and one section block. */
export function slackPayload(event: Omit<EventView, "isRead">, baseUrl: string | null) {
  const label = EVENT_KINDS[event.kind].label;
  const link =
    baseUrl && event.reviewId ? ` <${baseUrl}/reviews/${event.reviewId}/timeline|open>` : "";
  const text = `*${label}*: ${slackEscape(event.summary)}${link}`;
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

/** What a receiver does (and the docs show): parse, check the clock window, compare in constant time. */
export function verifySignature(
  secret: string,
  header: string | null,
  body: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): VerifyResult {
  if (!header) return { ok: false, reason: "no signature header" };
  const parts = new Map(
    header.split(",").map((p) => {
      const i = p.indexOf("=");
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get("t"));
  const v1 = parts.get("v1") ?? "";
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1))
    return { ok: false, reason: "malformed signature header" };
  if (Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_SECONDS)
    return { ok: false, reason: "timestamp outside the tolerance window" };
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { ok: true, timestamp: t }
    : { ok: false, reason: "signature does not match" };
}
