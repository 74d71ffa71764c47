import { z } from "zod";
import { AppError } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import type { ShareLinkView } from "@/lib/decisions/api";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { listShareLinks, revokeShareLink } from "@/lib/store/share-links";
import { shareLinkView } from "@/lib/workbench/share";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; linkId: string }> };

const LinkIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,80}$/);

/** Revoke a link: from now on it answers exactly like a token that never existed. Revoking twice keeps the first time. */
export const DELETE = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const linkId = parseParam(LinkIdSchema, p.linkId, "linkId");
  const db = await getDb();
  // Only a link of this review: a link id from another review is not found here.
  if (!(await listShareLinks(db, id)).some((l) => l.id === linkId)) {
    throw new AppError(
      "NOT_FOUND",
      `no share link ${JSON.stringify(linkId)} on review ${JSON.stringify(id)}`,
    );
  }
  const revoked = await revokeShareLink(db, linkId);
  if (!revoked) throw new AppError("NOT_FOUND", `no share link ${JSON.stringify(linkId)}`);
  await auditOwnerAction(db, {
    kind: "share_link.revoked",
    reviewId: id,
    summary: `Share link ${linkId} revoked`,
    detail: { linkId, revokedAt: revoked.revokedAt },
  });
  const body: ShareLinkView = shareLinkView(revoked);
  return jsonResponse(body);
});
