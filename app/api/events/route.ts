import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { EventFilterSchema, type ListEventsResponse } from "@/lib/events/kinds";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { listEvents } from "@/lib/store/events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The event and audit log across reviews: unread first, newest first; `?reviewId=&kind=&group=&unread=1&limit=`. */
export const GET = withRoute(async (request: Request) => {
  const q = new URL(request.url).searchParams;
  const filter = parseParam(
    EventFilterSchema,
    {
      reviewId: q.get("reviewId") ?? undefined,
      kind: q.get("kind") ?? undefined,
      group: q.get("group") ?? undefined,
      isUnreadOnly: q.get("unread") === "1" ? true : undefined,
      limit: q.get("limit") ? Number(q.get("limit")) : undefined,
    },
    "query",
  );
  const body: ListEventsResponse = await listEvents(await getDb(), OWNER_AUTHOR, filter);
  return jsonResponse(body);
});
