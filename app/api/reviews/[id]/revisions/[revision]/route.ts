import { AppError } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { RevisionNumberSchema } from "@/lib/reviews/api";
import { getDb } from "@/lib/store/db";
import { getRevision, reviewExists } from "@/lib/store/reviews";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; revision: string }> };

export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const raw = await params;
  const id = parseParam(ReviewIdSchema, raw.id, "id");
  // Digits only: RevisionNumberSchema coerces, and " 1e0" must not read as revision 1.
  const revision = parseParam(
    RevisionNumberSchema,
    /^\d{1,9}$/.test(raw.revision) ? raw.revision : NaN,
    "revision",
  );
  const db = await getDb();
  const record = await getRevision(db, id, revision);
  if (record) return jsonResponse(record);
  const exists = await reviewExists(db, id);
  throw new AppError(
    "NOT_FOUND",
    exists
      ? `review ${JSON.stringify(id)} has no revision ${revision}`
      : `no review with id ${JSON.stringify(id)}`,
  );
});
