import { DecisionIdSchema, ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { getDb } from "@/lib/store/db";
import { issueRecordIn } from "@/lib/workbench/decisions";
import { openReview } from "@/lib/workbench/review-context";

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
  const key = await loadOrCreateSigningKey();
  const signed = await issueRecordIn(await openReview(await getDb(), id), decisionId, key);
  return jsonResponse(signed, 200, {
    "Content-Disposition": `attachment; filename="decision-${decisionId}.json"`,
    "X-Signing-Key-Id": key.keyId,
  });
});
