import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { jsonResponse, withRoute } from "@/lib/http/route";
import { exportAuditLog } from "@/lib/store/audit";
import { getDb } from "@/lib/store/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The whole audit log with its signed heads (lib/audit/export.ts), a head signed for this export
 * first. Owner only (the proxy). What `relay-review audit verify --workbench` reads; keep a copy:
 * a head held outside the database is what proves rows were not removed from its end later.
 */
export const GET = withRoute(async () => {
  const key = await loadOrCreateSigningKey();
  const body = await exportAuditLog(await getDb(), key.privateKey);
  return jsonResponse(body, 200, {
    "Cache-Control": "no-store",
    "Content-Disposition": `attachment; filename="relay-review-audit-${body.exportedAt.slice(0, 10)}.json"`,
  });
});
