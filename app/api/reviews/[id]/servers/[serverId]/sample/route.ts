import { AppError } from "@/lib/errors";
import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { publicOrigin } from "@/lib/workbench/oauth-flow";
import { claimInspection, prepareInspection } from "@/lib/workbench/inspect-run";
import { samplableTool, SampleRequestSchema } from "@/lib/workbench/sample-api";
import { runSample, sampleUri } from "@/lib/workbench/sample-run";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

/** The tool name (or resource URI, or template) and the reviewer's arguments. */
const MAX_SAMPLE_BODY_BYTES = 64 * 1024;

/** Refused before anything ran (not read-only, not allowlisted, not on the live surface): 422. */
class SampleRefusedError extends AppError {
  constructor(item: string, message: string) {
    super("UNPROCESSABLE", `refused to sample this ${item.replace("_", " ")}: ${message}`, {
      details: { refused: true },
    });
    this.name = "SampleRefusedError";
  }
}

/**
 * Sample a source (issue 31 item 3): run one read-only tool of the server with the reviewer's
 * arguments, or read one of its resources (a template expanded with the reviewer's variables),
 * started and sandboxed as an inspection is, and answer the detector's verdict on what
 * it returned. The result is counted into the source's detection counts, and whether prose came
 * back is kept with the item's assessment as a new review revision (lib/workbench/sample-run.ts
 * `recordSample`); a refusal or a failure keeps nothing.
 */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const input = await readJson(request, SampleRequestSchema, { maxBytes: MAX_SAMPLE_BODY_BYTES });
  const db = await getDb();
  const prepared = await prepareInspection(db, id, serverId, process.env, {
    origin: publicOrigin(request),
  });
  if (!prepared.ok) throw new SampleRefusedError(input.item, prepared.error.message);
  // Refused before the server starts when the review does not say the item is read-only, or a
  // template's variables do not expand to a URI it admits strictly.
  const allowed = samplableTool(prepared.record.review, serverId, input.tool, input.item);
  if (!allowed.ok) throw new SampleRefusedError(input.item, allowed.message);
  const uri = sampleUri(input);
  if (!uri.ok) throw new SampleRefusedError(input.item, uri.message);
  // One start of a server per review server at a time, sample or inspection alike.
  const release = claimInspection(id, serverId);
  if (!release)
    throw new AppError(
      "CONFLICT",
      "this server is being inspected or sampled already; wait for that to finish",
    );
  try {
    const outcome = await runSample(db, prepared, input, { signal: request.signal });
    if (outcome.ok) return jsonResponse(outcome.result);
    if (outcome.refused) throw new SampleRefusedError(input.item, outcome.error.message);
    throw new AppError("UPSTREAM_FAILED", `the sample failed: ${outcome.error.message}`, {
      details: { code: outcome.error.code },
    });
  } finally {
    release();
  }
});
