import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { exportRegistration } from "@/lib/workbench/surface";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

const fileName = (name: string) =>
  `${
    name
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "server"
  }.registration.json`;

/** The registration record in the seed's shape, as a download: the pinned one, or the latest inspection's when unpinned. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const { record, isPinned, serverName } = await exportRegistration(await getDb(), id, serverId);
  const response = jsonResponse(record, 200, {
    "Content-Disposition": `attachment; filename="${fileName(serverName)}"`,
    "X-Relay-Review-Pinned": isPinned ? "true" : "false",
  });
  return response;
});
