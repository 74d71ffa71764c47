import { AppError } from "@/lib/errors";
import { jsonResponse, parseRequest, readJsonValue, withRoute } from "@/lib/http/route";
import { createDemoReview } from "@/lib/review/demo";
import type { ReviewInput } from "@/lib/review/schema";
import { type ListReviewsResponse } from "@/lib/reviews/api";
import { CreateReviewRequestSchema } from "@/lib/reviews/record";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { getDb } from "@/lib/store/db";
import { createReview, listReviews } from "@/lib/store/reviews";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const [FromDocumentSchema, FromDemoSchema] = CreateReviewRequestSchema.options;

export const GET = withRoute(async () => {
  const body: ListReviewsResponse = { reviews: await listReviews(await getDb()) };
  return jsonResponse(body);
});

export const POST = withRoute(async (request: Request) => {
  const raw = await readJsonValue(request);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new AppError("BAD_REQUEST", "request body must be an object: {review} or {demo: true}", {
      issues: [{ path: "(root)", message: "expected {review} or {demo: true}" }],
    });
  }
  // Parsed against the branch the body chose, so issues name e.g. `review.servers.0.name`
  // instead of a bare "no union member matched" at the root.
  // A body's review is parsed here, once: the store writes that parse as is (the demo review is
  // built in code, so the store parses it).
  let review: ReviewInput;
  let parsed = false;
  if ("demo" in raw) {
    parseRequest(FromDemoSchema, raw);
    review = createDemoReview();
  } else {
    review = parseRequest(FromDocumentSchema, raw).review;
    parsed = true;
  }
  const record = await createReview(await getDb(), review, OWNER_AUTHOR, { parsed });
  return jsonResponse(record, 201, { Location: `/api/reviews/${encodeURIComponent(record.id)}` });
});
