import { OWNER_AUTHOR } from "@/lib/auth/principal";
import {
  jsonResponse,
  parseServerParams,
  readJson,
  withRoute,
  type ServerRouteContext,
} from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { removePin } from "@/lib/workbench/surface";
import { RemovePinRequestSchema, type RemovePinResponse } from "@/lib/workbench/surface-api";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Remove a pin of another era or credential: `{ surfaceSha256, pinnedAt, reason?, baseRevision? }` → a new review revision; 409 on conflict. */
export const POST = withRoute(async (request: Request, { params }: ServerRouteContext) => {
  const { id, serverId } = await parseServerParams(params);
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
