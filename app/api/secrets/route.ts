import { jsonResponse, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { secretsOverview } from "@/lib/workbench/secrets";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Names only: which are set (and when), and which launchers or HTTP targets may receive each. Never a value. */
export const GET = withRoute(async () => jsonResponse(await secretsOverview(await getDb())));
