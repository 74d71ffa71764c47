import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { removePin } from "@/lib/workbench/surface";
import { RemovePinRequestSchema, type RemovePinResponse } from "@/lib/workbench/surface-api";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

/** Remove a pin of another era or credential: `{ surfaceSha256, pinnedAt, reason?, baseRevision? }` → a new review revision; 409 on conflict. */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const body = await readJson(request, RemovePinRequestSchema);
  // The reason is the audit log's: the review keeps no trace of a removed pin but its revision.
  const db = await getDb();
  const result: RemovePinResponse = await removePin(db, id, serverId, {
    surfaceSha256: body.surfaceSha256,
    pinnedAt: body.pinnedAt,
    author: OWNER_AUTHOR,
    ...(body.baseRevision !== undefined ? { baseRevision: body.baseRevision } : {}),
  });
  await auditOwnerAction(db, {
    kind: "pin.removed",
    reviewId: id,
    serverId,
    summary: `Removed the pin of ${serverId} under ${result.context} (${result.pin.surfaceSha256.slice(0, 12)}…)${body.reason ? `: ${body.reason}` : ""}`,
    detail: { removed: result.pin, reason: body.reason, revision: result.record.revision },
  });
  return jsonResponse(result);
});
