import { withRoute } from "@/lib/http/route";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The workbench's Ed25519 public key (SPKI PEM), what `relay-review verify-record --public-key`
 * takes. Every signed record names it by `signature.keyId`, also sent here as X-Signing-Key-Id.
 */
export const GET = withRoute(async () => {
  const key = await loadOrCreateSigningKey();
  return new Response(key.publicKeyPem, {
    status: 200,
    headers: {
      "Content-Type": "application/x-pem-file; charset=utf-8",
      "Content-Disposition": `attachment; filename="relay-review-${key.keyId}.pub.pem"`,
      "Cache-Control": "no-store",
      "X-Signing-Key-Id": key.keyId,
      "X-Content-Type-Options": "nosniff",
    },
  });
});
