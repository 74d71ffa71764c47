import { jsonResponse, withRoute } from "@/lib/http/route";
import type { ReviewOverviewResponse } from "@/lib/reviews/summary";
import { getDb } from "@/lib/store/db";
import { reviewsOverview } from "@/lib/workbench/summary";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every review with the flags the reviews list sorts and filters on (lib/reviews/summary.ts). */
export const GET = withRoute(async () => {
  const body: ReviewOverviewResponse = { reviews: await reviewsOverview(await getDb()) };
  return jsonResponse(body);
});
