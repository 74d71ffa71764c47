import { reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import { z } from "zod";
import { getDb } from "@/lib/store/db";
import { createReportingToken } from "@/lib/store/detection-counts";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { reviewExists } from "@/lib/store/reviews";
import { hashReportingToken, newReportingToken } from "@/lib/workbench/detection-report";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

const CreateSchema = z.object({ label: z.string().max(200).default("") }).strict();

/**
 * A reporting token for `relay-review gate --report-to URL --report-token-file FILE` (issue 31).
 * The response is the only place the token appears; the log names it by id.
 */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const input = await readJson(request, CreateSchema);
  const db = await getDb();
  if (!(await reviewExists(db, id))) throw reviewNotFound(id);
  const token = newReportingToken();
  const row = await createReportingToken(db, {
    reviewId: id,
    tokenHash: hashReportingToken(token),
    label: input.label,
  });
  await auditOwnerAction(db, {
    kind: "reporting_token.created",
    reviewId: id,
    summary: `Reporting token ${row.id} created${row.label ? ` (${row.label})` : ""}`,
    detail: { tokenId: row.id, label: row.label },
  });
  return jsonResponse({ id: row.id, token, reportUrl: `/api/report/${token}` }, 201);
});
