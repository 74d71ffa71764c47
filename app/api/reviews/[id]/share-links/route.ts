import { reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import {
  CreateShareLinkRequestSchema,
  type CreateShareLinkResponse,
  type ListShareLinksResponse,
} from "@/lib/decisions/api";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { getReview, reviewExists } from "@/lib/store/reviews";
import { createShareLink, listShareLinks } from "@/lib/store/share-links";
import { hashShareToken, newShareToken, shareLinkView } from "@/lib/workbench/share";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The review's share links, newest first, without their tokens (only hashes are stored, and those stay here). */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const db = await getDb();
  if (!(await reviewExists(db, id))) throw reviewNotFound(id);
  const now = new Date();
  const body: ListShareLinksResponse = {
    links: (await listShareLinks(db, id)).map((l) => shareLinkView(l, now)),
  };
  return jsonResponse(body);
});

/** A new read-only link. The response is the only place the token ever appears. */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const input = await readJson(request, CreateShareLinkRequestSchema);
  const db = await getDb();
  const record = await getReview(db, id);
  if (!record) throw reviewNotFound(id);
  const token = newShareToken();
  const link = await createShareLink(db, {
    reviewId: id,
    tokenHash: hashShareToken(token),
    frozenRevision: input.frozen ? record.revision : null,
    expiresAt:
      input.expiresInHours === undefined
        ? null
        : new Date(Date.now() + input.expiresInHours * 3_600_000),
    label: input.label,
  });
  // The token never reaches the log: the link is named by its id.
  await auditOwnerAction(db, {
    kind: "share_link.created",
    reviewId: id,
    summary: `Share link ${link.id} created${link.label ? ` (${link.label})` : ""}${link.frozenRevision !== null ? `, frozen at revision ${link.frozenRevision}` : ""}`,
    detail: {
      linkId: link.id,
      label: link.label,
      frozenRevision: link.frozenRevision,
      expiresAt: link.expiresAt,
    },
  });
  const body: CreateShareLinkResponse = {
    link: shareLinkView(link),
    token,
    path: `/share/${token}`,
  };
  return jsonResponse(body, 201);
});
