import { AppError, reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import { ImportRequestSchema, type ImportResponse } from "@/lib/import/api";
import { formatImportIssue, parseClientConfig } from "@/lib/import/config";
import { applyImport, reviewFromImport } from "@/lib/import/merge";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { getDb } from "@/lib/store/db";
import { logStaleDecisions } from "@/lib/workbench/stale-events";
import { createReview, getReview, saveReview } from "@/lib/store/reviews";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Import an MCP client config: its servers and one agent, into the review `reviewId` (as a new
 * revision) or into a new review. A malformed file is a 400 whose issues name the line and the
 * field. Secret values never reach the store: lib/import replaces them by variable names first,
 * and the response lists what it replaced (never the values).
 */
export const POST = withRoute(async (request: Request) => {
  const body = await readJson(request, ImportRequestSchema);
  const parsed = parseClientConfig(body.text, {
    ...(body.fileName ? { fileName: body.fileName } : {}),
    ...(body.shape ? { shape: body.shape } : {}),
  });
  if (!parsed.ok) {
    throw new AppError(
      "BAD_REQUEST",
      `the config is malformed: ${parsed.issues.map(formatImportIssue).join("; ")}`,
      {
        issues: parsed.issues.map((i) => ({
          path: i.path,
          message: `line ${i.line}, column ${i.column}: ${i.message}`,
        })),
        details: { lines: parsed.issues },
      },
    );
  }
  const db = await getDb();
  if (body.reviewId === undefined) {
    const { review, summary } = reviewFromImport(parsed.config);
    const record = await createReview(db, review, OWNER_AUTHOR);
    const res: ImportResponse = {
      reviewId: record.id,
      revision: record.revision,
      created: true,
      summary,
    };
    return jsonResponse(res, 201, { Location: `/api/reviews/${encodeURIComponent(record.id)}` });
  }
  const id = parseParam(ReviewIdSchema, body.reviewId, "reviewId");
  const current = await getReview(db, id);
  if (!current) throw reviewNotFound(id);
  const base = body.baseRevision ?? current.revision;
  if (base !== current.revision) {
    throw new AppError(
      "CONFLICT",
      `this review is at revision ${current.revision}, not ${base}; reload it and import again`,
      { details: { current } },
    );
  }
  const { review, summary } = applyImport(current.review, parsed.config);
  const saved = await saveReview(db, id, base, review, OWNER_AUTHOR);
  if (!saved) throw reviewNotFound(id);
  if (!saved.ok)
    throw new AppError(
      "CONFLICT",
      `the review was saved as revision ${saved.conflict.revision} meanwhile; import again`,
      { details: { current: saved.conflict } },
    );
  await logStaleDecisions(db, saved.record, OWNER_AUTHOR);
  const res: ImportResponse = {
    reviewId: id,
    revision: saved.record.revision,
    created: false,
    summary,
  };
  return jsonResponse(res);
});
