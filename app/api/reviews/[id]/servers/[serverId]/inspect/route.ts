import { AppError } from "@/lib/errors";
import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { parseParam, parseRequest, readBodyText, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { SECRETS_PAGE_HINT } from "@/lib/secrets/resolve";
import { publicOrigin } from "@/lib/workbench/oauth-flow";
import { claimInspection, prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { recordDriftEvents } from "@/lib/watch/node/run";
import {
  InspectRequestSchema,
  LAUNCHER_FILE_HINT,
  type InspectStreamLine,
} from "@/lib/workbench/surface-api";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

/** The body is small: limit overrides only. */
const MAX_INSPECT_BODY_BYTES = 16 * 1024;

/** The workbench refused the target (launcher or egress allowlist): 422, the request itself was well-formed. */
class TargetRefusedError extends AppError {
  constructor(message: string) {
    // A missing value is fixed on the Secrets page, not in the launcher file: the hint says which.
    const details = message.includes(SECRETS_PAGE_HINT)
      ? { refused: true, secretsPage: "/secrets" }
      : { refused: true, launcherFile: LAUNCHER_FILE_HINT };
    super("FORBIDDEN", `refused to inspect this server: ${message}`, { details });
    this.name = "TargetRefusedError";
  }
  override get status(): number {
    return 422;
  }
}

async function readInspectRequest(request: Request) {
  const text = await readBodyText(request, MAX_INSPECT_BODY_BYTES);
  if (text.trim() === "") return {};
  const type = request.headers.get("content-type");
  if (type !== null && !/^application\/json\b/i.test(type))
    throw new AppError("BAD_REQUEST", "request body must be application/json");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      "BAD_REQUEST",
      `request body is not valid JSON: ${(error as Error).message}`,
    );
  }
  return parseRequest(InspectRequestSchema, value);
}

/**
 * Inspect the server's live surface. What runs comes only from the stored review's server entry.
 * Answers NDJSON: one `{type:"progress"}` line per event, then one `{type:"result"}` line with the
 * stored snapshot's hashes and pin state, or the error naming the limit that tripped. A client that
 * disconnects aborts the inspection.
 */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const { limits } = await readInspectRequest(request);
  const db = await getDb();
  const prepared = await prepareInspection(db, id, serverId, process.env, {
    origin: publicOrigin(request),
  });
  if (!prepared.ok) throw new TargetRefusedError(prepared.error.message);
  const release = claimInspection(id, serverId);
  if (!release)
    throw new AppError(
      "CONFLICT",
      "this server is being inspected already; wait for that inspection to finish",
    );

  const controller = new AbortController();
  const onDisconnect = () => controller.abort();
  request.signal.addEventListener("abort", onDisconnect, { once: true });
  const encoder = new TextEncoder();
  let isOpen = true;

  const stream = new ReadableStream<Uint8Array>({
    start(sink) {
      const write = (line: InspectStreamLine) => {
        if (!isOpen) return;
        try {
          sink.enqueue(encoder.encode(JSON.stringify(line) + "\n"));
        } catch {
          isOpen = false;
        }
      };
      const run = async () => {
        try {
          const result = await runInspection(db, prepared, {
            ...(limits ? { limits } : {}),
            signal: controller.signal,
            onProgress: (event) => write({ type: "progress", event }),
          });
          // A change a click finds is logged as the schedule would log it (same ids: once).
          if (result.ok)
            await recordDriftEvents(
              db,
              prepared.record,
              prepared.server,
              result.snapshotSha256,
              "owner",
            ).catch((e: unknown) =>
              console.error(`[api] inspect ${id}/${serverId}: logging the change failed`, e),
            );
          write(result);
        } catch (error) {
          console.error(`[api] inspect ${id}/${serverId} failed`, error);
          write({
            type: "result",
            ok: false,
            inspectionId: null,
            error: {
              code: "internal",
              message: "the workbench failed while storing this inspection; see the server log",
            },
          });
        } finally {
          release();
          request.signal.removeEventListener("abort", onDisconnect);
          if (isOpen) {
            isOpen = false;
            try {
              sink.close();
            } catch {
              // already closed by a disconnect
            }
          }
        }
      };
      void run(); // never rejects: every failure becomes the stream's last line
    },
    cancel() {
      isOpen = false;
      controller.abort();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
