import { z } from "zod";
import { AppError } from "@/lib/errors";
import { noContent, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { deleteWebhook } from "@/lib/store/webhooks";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };
const WebhookIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,80}$/);

/** Remove a webhook and its delivery log; its signing secret stays in the secret store (delete it there). */
export const DELETE = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(WebhookIdSchema, (await params).id, "id");
  if (!(await deleteWebhook(await getDb(), id)))
    throw new AppError("NOT_FOUND", `no webhook ${JSON.stringify(id)}`);
  return noContent();
});
