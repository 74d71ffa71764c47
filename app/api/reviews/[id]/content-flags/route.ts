import { AppError } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { reviewExists } from "@/lib/store/reviews";
import { listContentFlags } from "@/lib/workbench/content-flags";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/**
 * The review's detector flags, newest first, each with whether the gate held it and who released
 * it (issue 31 item 2); `?held=1` lists only the results still held. 404: unknown review.
 */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const held = new URL(request.url).searchParams.get("held");
  if (held !== null && held !== "1" && held !== "0")
    throw new AppError("BAD_REQUEST", "held must be 1 (only results still held) or 0");
  const db = await getDb();
  if (!(await reviewExists(db, id))) throw new AppError("NOT_FOUND", `no review ${id}`);
  return jsonResponse(await listContentFlags(db, id, { heldOnly: held === "1" }));
});
