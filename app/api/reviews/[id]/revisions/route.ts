import { reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import type { z } from "zod";
import type { ListRevisionsResponseSchema } from "@/lib/reviews/api";
import { getDb } from "@/lib/store/db";
import { getRevision, listRevisions } from "@/lib/store/reviews";
import { revisionLine } from "@/lib/reviews/revision-line";
import type { Review } from "@/lib/review/schema";

/**
 * Revisions whose one-line change is computed, newest first: each needs its document and the one
 * before it, and the History list shows the newest first (older rows keep their title alone).
 */
const CHANGE_LINES = 30;

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const revisions = await listRevisions(await getDb(), id);
  if (!revisions) throw reviewNotFound(id);
  const db = await getDb();
  const newest = revisions.slice(0, CHANGE_LINES);
  const documents = new Map<number, Review | null>();
  const documentOf = async (revision: number) => {
    if (revision < 1) return null;
    if (!documents.has(revision))
      documents.set(revision, (await getRevision(db, id, revision))?.review ?? null);
    return documents.get(revision) ?? null;
  };
  const lines = new Map<number, string>();
  for (const r of newest) {
    const after = await documentOf(r.revision);
    if (!after) continue;
    lines.set(r.revision, revisionLine(await documentOf(r.revision - 1), after));
  }
  const body: z.infer<typeof ListRevisionsResponseSchema> = {
    revisions: revisions.map((r) =>
      lines.has(r.revision) ? { ...r, change: lines.get(r.revision)! } : r,
    ),
  };
  return jsonResponse(body);
});
