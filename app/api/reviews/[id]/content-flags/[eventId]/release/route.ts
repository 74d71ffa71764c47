import { z } from "zod";
import { principalActor } from "@/lib/auth/principal";
import { currentPrincipal } from "@/lib/auth/request-principal";
import { AppError } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { releaseHeldResult } from "@/lib/workbench/detection-report";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; eventId: string }> };

const EventIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/);

/**
 * Release a result the gate held in `--content-scan hold` mode (issue 31 item 2): the
 * `content.flagged` event's id names it. The gate asks on its next report and answers the agent's
 * next identical request with the result exactly as it was held.
 */
export const POST = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const eventId = parseParam(EventIdSchema, p.eventId, "eventId");
  const db = await getDb();
  const outcome = await releaseHeldResult(db, id, eventId, principalActor(currentPrincipal()));
  if (!outcome.ok)
    throw new AppError(outcome.status === 404 ? "NOT_FOUND" : "UNPROCESSABLE", outcome.message);
  return jsonResponse({ flagId: outcome.flagId, released: true, isNew: outcome.isNew });
});
