import { DecisionIdSchema, ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { buildDecisionRecord, signRecord } from "@/lib/decisions/record";
import { saveDecisionRecord } from "@/lib/store/decision-records";
import { getDb } from "@/lib/store/db";
import { egressDefaultDeny, loadStoredDecision, recordSurface } from "@/lib/workbench/decisions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; decisionId: string }> };

/**
 * The decision's signed record (JSON Schema: /schemas/decision-record.v1.json), as a download, and
 * kept in the store as issued. A stale decision answers 409 naming what changed: a signed record
 * would vouch for a pair that no longer exists.
 */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const decisionId = parseParam(DecisionIdSchema, p.decisionId, "decisionId");
  const db = await getDb();
  const { record, decision, currentSurfaceSha256, currentGrantedScopes } = await loadStoredDecision(
    db,
    id,
    decisionId,
  );
  const server = record.review.servers.find((s) => s.id === decision.serverId);
  const unsigned = buildDecisionRecord({
    review: record.review,
    reviewId: id,
    revision: record.revision,
    decision,
    issuedAt: new Date(),
    currentSurfaceSha256,
    currentGrantedScopes,
    surface: server ? await recordSurface(db, id, server, decision.bound.surfaceSha256) : null,
    evaluateEgressDefaultDeny: egressDefaultDeny,
  });
  const key = await loadOrCreateSigningKey();
  const signed = signRecord(unsigned, key.privateKey, key.keyId);
  await saveDecisionRecord(db, { reviewId: id, decisionId, record: signed });
  return jsonResponse(signed, 200, {
    "Content-Disposition": `attachment; filename="decision-${decisionId}.json"`,
    "X-Signing-Key-Id": key.keyId,
  });
});
