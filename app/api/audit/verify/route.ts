import type { AuditVerifyResponse } from "@/lib/audit/export";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { jsonResponse, withRoute } from "@/lib/http/route";
import { verifyStoredChain } from "@/lib/store/audit";
import { getDb } from "@/lib/store/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Walks the audit chain in the database and checks every signed head with the workbench key
 * (lib/audit/chain.ts): 200 with `isIntact` and, when broken, the first break named by row.
 * Owner only (the proxy). `relay-review audit verify` does the same from an export, with a key
 * the operator brings, so it does not rest on this answer.
 */
export const GET = withRoute(async () => {
  const key = await loadOrCreateSigningKey();
  const verdict = await verifyStoredChain(await getDb(), key.publicKey);
  const body: AuditVerifyResponse = { ...verdict, keyId: key.keyId };
  return jsonResponse(body, 200, { "Cache-Control": "no-store" });
});
