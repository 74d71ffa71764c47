import { z } from "zod";
import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { credentialSurfaces } from "@/lib/workbench/credential-surfaces";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

const SurfaceKeySchema = z.string().min(1).max(4000);

/**
 * The server's surface per era and credential, each against its own pin, the shared-cache
 * findings, and the diff from surface `a` to surface `b` (keys from the list; default: the two newest).
 */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const query = new URL(request.url).searchParams;
  const a = query.get("a");
  const b = query.get("b");
  const compare =
    a !== null && b !== null
      ? { a: parseParam(SurfaceKeySchema, a, "a"), b: parseParam(SurfaceKeySchema, b, "b") }
      : undefined;
  const db = await getDb();
  return jsonResponse(await credentialSurfaces(db, id, serverId, compare));
});
