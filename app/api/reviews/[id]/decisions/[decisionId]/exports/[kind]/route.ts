import { z } from "zod";
import { AppError } from "@/lib/errors";
import { DecisionIdSchema, ReviewIdSchema } from "@/lib/ids";
import { parseParam, withRoute } from "@/lib/http/route";
import { EXPORT_KINDS } from "@/lib/exports/exports";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { signingKeySha256 } from "@/lib/decisions/record";
import { getDb } from "@/lib/store/db";
import { exportIn } from "@/lib/workbench/decisions";
import { openReview } from "@/lib/workbench/review-context";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; decisionId: string; kind: string }> };

const PathSchema = z.string().trim().min(1).max(1000).optional();

/**
 * An enforceable export of a decision, as a download: `networkpolicy` (the reviewed egress
 * allowlist), `client-config` (an mcpServers config starting the server through the gate; query
 * `recordPath` and `publicKeyPath` say where the client will find the record and key), or
 * `credential-request` (scopes, projects, TTL). Each is validated before it is sent. 404: unknown
 * review, decision or kind; 409: the decision is stale, or the review lacks what the export needs.
 */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const decisionId = parseParam(DecisionIdSchema, p.decisionId, "decisionId");
  const kind = EXPORT_KINDS.find((k) => k === p.kind);
  if (!kind)
    throw new AppError(
      "NOT_FOUND",
      `no export ${JSON.stringify(p.kind)}: use ${EXPORT_KINDS.join(", ")}`,
    );
  const query = new URL(request.url).searchParams;
  const recordPath = parseParam(PathSchema, query.get("recordPath") ?? undefined, "recordPath");
  const publicKeyPath = parseParam(
    PathSchema,
    query.get("publicKeyPath") ?? undefined,
    "publicKeyPath",
  );
  // The client config pins the workbench's key (the key file beside the record could be swapped).
  const key = kind === "client-config" ? await loadOrCreateSigningKey() : null;
  const file = await exportIn(await openReview(await getDb(), id), decisionId, kind, {
    ...(recordPath ? { recordPath } : {}),
    ...(publicKeyPath ? { publicKeyPath } : {}),
    ...(key ? { publicKeySha256: signingKeySha256(key.publicKey) } : {}),
  });
  return new Response(file.text, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
