import { reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import type { z } from "zod";
import type { ListRevisionsResponseSchema } from "@/lib/reviews/api";
import { getDb } from "@/lib/store/db";
import { listRevisions } from "@/lib/store/reviews";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const revisions = await listRevisions(await getDb(), id);
  if (!revisions) throw reviewNotFound(id);
  const body: z.infer<typeof ListRevisionsResponseSchema> = { revisions };
  return jsonResponse(body);
});
