import { ReviewIdSchema } from "@/lib/ids";
import { parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { openReview } from "@/lib/workbench/review-context";
import { sarifIn } from "@/lib/workbench/sarif";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/**
 * The review's findings as a SARIF 2.1.0 log (lib/exports/sarif.ts, docs/sarif.md), as a download:
 * stable rule ids, locations naming server, tool and agent, and fingerprints that let a re-run
 * update its results instead of adding new ones. 404: unknown review.
 */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const log = await sarifIn(await openReview(await getDb(), id));
  return new Response(JSON.stringify(log, null, 2) + "\n", {
    status: 200,
    headers: {
      "Content-Type": "application/sarif+json; charset=utf-8",
      "Content-Disposition": `attachment; filename="relay-review-${id}.sarif"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
