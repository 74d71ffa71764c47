import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { MarkReadRequestSchema } from "@/lib/events/kinds";
import { noContent, readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { markEventsRead } from "@/lib/store/events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Mark events read for the owner: `{ seqs: [...] }` or `{ all: true }`. The log itself never changes. */
export const POST = withRoute(async (request: Request) => {
  const body = await readJson(request, MarkReadRequestSchema);
  await markEventsRead(await getDb(), OWNER_AUTHOR, body);
  return noContent();
});
