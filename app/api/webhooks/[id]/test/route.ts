import { z } from "zod";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { testWebhook } from "@/lib/watch/node/webhooks";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The Test button: a `webhook.test` event delivered now; answers with the delivery and its attempt. */
export const POST = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(z.string().regex(/^[A-Za-z0-9._-]{1,80}$/), (await params).id, "id");
  return jsonResponse(await testWebhook(await getDb(), id));
});
