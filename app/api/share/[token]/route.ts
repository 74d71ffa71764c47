import { AppError } from "@/lib/errors";
import { errorResponse, jsonResponse, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { loadShareView } from "@/lib/workbench/share";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ token: string }> };

/** The one answer for an unknown, revoked or expired token (and a malformed one): nothing tells them apart. */
const NO_SUCH_LINK = () =>
  errorResponse(new AppError("NOT_FOUND", "there is no shared review at this link"));

/**
 * Read-only, authenticated by the link token alone (the proxy exempts /api/share/*): the review at
 * the link's revision, its analysis and its decisions with status. Nothing here can write, inspect,
 * create links or name another review: the token resolves to one review id inside the server.
 */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const { token } = await params;
  const view = await loadShareView(await getDb(), token);
  if (!view) return NO_SUCH_LINK();
  return jsonResponse(view, 200, { "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" });
});
