import { AppError } from "@/lib/errors";
import { errorResponse, jsonResponse, readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import {
  acceptDetectionReport,
  activeReportingToken,
  DetectionReportSchema,
} from "@/lib/workbench/detection-report";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ token: string }> };

const NO_SUCH_TOKEN = () =>
  errorResponse(new AppError("NOT_FOUND", "there is no reporting token at this address"));

/**
 * The gate reports scan counts and `content.flagged` events here (issue 31 item 1), authenticated
 * by its reporting token alone (the proxy exempts /api/report/*). The token names one review inside
 * the server; this route only adds counts and logs flags, so a stolen token can do nothing else.
 */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const { token } = await params;
  const db = await getDb();
  const found = await activeReportingToken(db, token);
  if (!found) return NO_SUCH_TOKEN();
  const report = await readJson(request, DetectionReportSchema);
  return jsonResponse(await acceptDetectionReport(db, found, report));
});
