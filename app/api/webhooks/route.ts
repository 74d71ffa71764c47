import { jsonResponse, readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { CreateWebhookRequestSchema } from "@/lib/watch/webhook-api";
import { addWebhook, webhooksOverview } from "@/lib/watch/node/webhooks";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every webhook with its recent deliveries (each attempt with its status). URLs as typed: references, never resolved. */
export const GET = withRoute(async () => jsonResponse(await webhooksOverview(await getDb())));

/** A new webhook; a generic one's signing secret is generated into the secret store and shown this once when not set yet. */
export const POST = withRoute(async (request: Request) => {
  const input = await readJson(request, CreateWebhookRequestSchema);
  return jsonResponse(await addWebhook(await getDb(), input), 201);
});
