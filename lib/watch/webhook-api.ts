/**
 * Request and response schemas of the webhook routes, shared by the route handlers and the
 * browser's fetchers. A webhook's URL is stored as typed: either a plain http(s) URL without
 * credentials in it, or one `${NAME}` reference to a secret holding the whole URL, which a Slack
 * incoming-webhook URL needs (its path is the credential). A signing secret is a secret name.
 *
 * A webhook sends its URL to whichever receiver the URL names, so a secret in it is read back by
 * that receiver (issue 28, finding 3). Hence a reference is only ever the whole URL, and only to a
 * secret whose name says it holds a webhook URL (`…WEBHOOK_URL`): the owner sets that secret for
 * this use, and no other secret (a server's token) can be routed to a receiver through a webhook.
 * Secrets in a header were the other way out; a webhook has no configurable headers to need it.
 */
import { z } from "zod";
import { EventKindSchema, DEFAULT_WEBHOOK_KINDS } from "@/lib/events/kinds";
import { ENV_NAME_PATTERN, isWholeReference, referencesIn } from "@/lib/secrets/references";
import { urlHoldsSecrets } from "@/lib/secrets/redact";

export const WebhookFormatSchema = z.enum(["generic", "slack"]);
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;

const SecretNameSchema = z
  .string()
  .regex(ENV_NAME_PATTERN, "must be a variable name (A-Z, 0-9, _)");

/** The names of secrets a webhook may take its whole URL from: `SLACK_WEBHOOK_URL`, `WEBHOOK_URL`, … */
export const WEBHOOK_URL_SECRET_NAME = /(?:^|_)WEBHOOK_URL$/;

/**
 * Why a webhook URL's secret references are refused, or null: a reference inside a URL, or a
 * whole-URL reference to a secret not named as a webhook URL. Checked at save and again before
 * each delivery (a webhook saved before the rule). Names the reference, never a value.
 */
export function webhookUrlReferenceRefusal(url: string): string | null {
  const names = referencesIn(url);
  if (names.length === 0) return null;
  if (!isWholeReference(url))
    return `\${${names[0]}} inside the URL: a secret may only be the whole URL of a webhook (a secret named like SLACK_WEBHOOK_URL that holds the URL), never part of one, where it would go to whichever receiver the rest of the URL names`;
  const name = names[0]!;
  return WEBHOOK_URL_SECRET_NAME.test(name)
    ? null
    : `${name} is not named as a webhook URL (its name must end in WEBHOOK_URL, e.g. SLACK_WEBHOOK_URL): a webhook sends its URL to the receiver, so it takes it only from a secret set for that`;
}

export const WebhookUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .superRefine((url, ctx) => {
    const refusal = webhookUrlReferenceRefusal(url);
    if (refusal) {
      ctx.addIssue({ code: "custom", message: refusal });
      return;
    }
    if (isWholeReference(url)) return;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an http(s) URL or a ${NAME} reference" });
      return;
    }
    if (u.protocol !== "http:" && u.protocol !== "https:")
      ctx.addIssue({ code: "custom", message: "must be an http(s) URL" });
    const found = urlHoldsSecrets(url);
    if (found.length)
      ctx.addIssue({
        code: "custom",
        message: `holds a credential (${found.join(", ")}): set the whole URL on the Secrets page and write \${NAME} here`,
      });
  });

export const CreateWebhookRequestSchema = z
  .object({
    label: z.string().trim().max(200).default(""),
    url: WebhookUrlSchema,
    format: WebhookFormatSchema,
    kinds: z.array(EventKindSchema).min(1).max(50).default(DEFAULT_WEBHOOK_KINDS),
    /** Generic only: the secret that signs deliveries; generated (and shown once) when not set yet. */
    secretName: SecretNameSchema.optional(),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.format === "slack" && !isWholeReference(w.url))
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message:
          "a Slack incoming-webhook URL is itself a credential: set it on the Secrets page (e.g. SLACK_WEBHOOK_URL) and write ${SLACK_WEBHOOK_URL} here",
      });
  });

export const WebhookViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string(),
  format: WebhookFormatSchema,
  secretName: z.string().nullable(),
  kinds: z.array(EventKindSchema),
  isEnabled: z.boolean(),
  createdAt: z.string(),
});
export type WebhookView = z.infer<typeof WebhookViewSchema>;

export const CreateWebhookResponseSchema = z.object({
  webhook: WebhookViewSchema,
  /** Only when the workbench generated the signing secret: shown this once, for the receiver. */
  generatedSecret: z.string().nullable(),
});
export type CreateWebhookResponse = z.infer<typeof CreateWebhookResponseSchema>;

export const DeliveryViewSchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  eventSeq: z.number(),
  state: z.enum(["pending", "delivered", "failed"]),
  attempts: z.array(
    z.object({
      at: z.string(),
      status: z.number().nullable(),
      error: z.string().nullable(),
      ms: z.number(),
    }),
  ),
  nextAttemptAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeliveryView = z.infer<typeof DeliveryViewSchema>;

export const ListWebhooksResponseSchema = z.object({
  webhooks: z.array(WebhookViewSchema.extend({ deliveries: z.array(DeliveryViewSchema) })),
});
export type ListWebhooksResponse = z.infer<typeof ListWebhooksResponseSchema>;

export const TestWebhookResponseSchema = z.object({ delivery: DeliveryViewSchema });
export type TestWebhookResponse = z.infer<typeof TestWebhookResponseSchema>;
