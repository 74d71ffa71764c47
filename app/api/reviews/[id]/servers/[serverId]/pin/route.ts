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
import { syncReviewWatches } from "@/lib/store/watches";
import { watchSettingsFromEnv } from "@/lib/watch/schedule";
import { pinLatest } from "@/lib/workbench/surface";
import { PinRequestSchema, type PinResponse } from "@/lib/workbench/surface-api";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Pin the latest successful inspection: `{ reason }` (required over a mismatch) → a new review revision; 409 on conflict. */
export const POST = withRoute(async (request: Request, { params }: ServerRouteContext) => {
  const { id, serverId } = await parseServerParams(params);
  const body = await readJson(request, PinRequestSchema);
  const db = await getDb();
  const result: PinResponse = await pinLatest(db, id, serverId, {
    reason: body.reason,
    author: OWNER_AUTHOR,
    ...(body.surfaceSha256 ? { surfaceSha256: body.surfaceSha256 } : {}),
    ...(body.baseRevision !== undefined ? { baseRevision: body.baseRevision } : {}),
    ...(body.onSurfaceChange ? { onSurfaceChange: body.onSurfaceChange } : {}),
  });
  await syncReviewWatches(
    db,
    result.record,
    watchSettingsFromEnv(process.env).defaultIntervalSeconds,
  );
  await auditOwnerAction(db, {
    kind: "pin.set",
    reviewId: id,
    serverId,
    summary: `Pinned ${serverId} at ${result.pin.surfaceSha256.slice(0, 12)}… (${result.pin.onSurfaceChange})${result.pin.reason ? `: ${result.pin.reason}` : ""}`,
    detail: { ...result.pin, revision: result.record.revision },
  });
  return jsonResponse(result);
});
