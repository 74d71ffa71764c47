/**
 * The shared shape of every JSON route handler, with standard Request/Response only (lib/ stays
 * Next-free). `withRoute` turns the errors a handler may raise into coded responses:
 * - AppError → its status and body (request faults are raised as AppError by the readers below);
 * - anything else, a stray ZodError or SyntaxError included → 500 INTERNAL with a generic message.
 *   A ZodError that escapes is our own data failing our own schema, so it is a server fault
 *   and must never be reported as the client's (and its text stays in the log, not the body).
 */
import { redactUrlSecrets, scrubErrorForLog, scrubLogText } from "@/lib/http/redact";
import type { z } from "zod";
import { AppError, badRequestFromZod } from "@/lib/errors";
import { principalOf } from "@/lib/auth/principal";
import { runAs } from "@/lib/auth/request-principal";
import { ReviewIdSchema, ServerIdSchema, type ReviewId, type ServerId } from "@/lib/ids";

/** Bodies beyond this are refused with 413 before they are parsed. */
export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;

/** 413: the one place a status is not the code's default (LIMIT_EXCEEDED is 422 elsewhere). */
export class PayloadTooLargeError extends AppError {
  constructor(limit: number) {
    super("LIMIT_EXCEEDED", `request body is larger than ${limit} bytes`);
    this.name = "PayloadTooLargeError";
  }
  override get status(): number {
    return 413;
  }
}

const JSON_HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
};

export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

export function errorResponse(error: AppError): Response {
  return jsonResponse(error.toBody(), error.status);
}

export type Logger = (message: string, error: unknown) => void;
const defaultLogger: Logger = (message, error) => console.error(message, error);

export function withRoute<Ctx>(
  handler: (request: Request, context: Ctx) => Promise<Response>,
  options: { log?: Logger } = {},
): (request: Request, context: Ctx) => Promise<Response> {
  const log = options.log ?? defaultLogger;
  return async (request, context) => {
    try {
      // Who is asking was decided once, by the proxy; the handler and the audit log see it here.
      return await runAs(principalOf(request), () => handler(request, context));
    } catch (error) {
      if (error instanceof AppError) {
        if (error.status >= 500)
          log(
            `[api] ${request.method} ${redactUrlSecrets(new URL(request.url).pathname)}: ${scrubLogText(error.message)}`,
            scrubErrorForLog(error.cause),
          );
        return errorResponse(error);
      }
      log(
        `[api] ${request.method} ${redactUrlSecrets(new URL(request.url).pathname)} failed`,
        scrubErrorForLog(error),
      );
      return errorResponse(new AppError("INTERNAL", "the server failed to handle this request"));
    }
  };
}

/** Reads the body as text, refusing more than `maxBytes` whatever Content-Length claims. */
export async function readBodyText(
  request: Request,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw new PayloadTooLargeError(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("BAD_REQUEST", "request body is not valid UTF-8");
  }
}

/** The JSON value of the body: 400 for a wrong content type, an empty body or bad JSON. */
export async function readJsonValue(
  request: Request,
  options: { maxBytes?: number } = {},
): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (type !== null && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new AppError(
      "BAD_REQUEST",
      `request body must be application/json, not ${type.slice(0, 100)}`,
    );
  }
  const text = await readBodyText(request, options.maxBytes);
  if (text.trim() === "") throw new AppError("BAD_REQUEST", "request body is empty; expected JSON");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError(
      "BAD_REQUEST",
      `request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/** Validates a request value with `schema`: 400 naming each bad field's path. */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what = "request body",
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequestFromZod(parsed.error, what);
  return parsed.data;
}

/** Parses a JSON body with `schema`: 400 for bad JSON, and 400 naming each bad field's path. */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: { maxBytes?: number } = {},
): Promise<z.output<S>> {
  return parseRequest(schema, await readJsonValue(request, options));
}

/** Parses one path or query parameter: 400 whose issue path is the parameter's name. */
export function parseParam<S extends z.ZodType>(
  schema: S,
  value: unknown,
  name: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: [name, ...i.path.map(String)].join("."),
      message: i.message,
    }));
    throw new AppError(
      "BAD_REQUEST",
      `invalid ${name}: ${issues.map((i) => i.message).join("; ")}`,
      { issues },
    );
  }
  return parsed.data;
}

/** The context Next hands a route under `/api/reviews/[id]/servers/[serverId]/…`. */
export type ServerRouteContext = { params: Promise<{ id: string; serverId: string }> };

/** A server route's review id and server id: 400 naming the one that is not an id. */
export async function parseServerParams(
  params: ServerRouteContext["params"],
): Promise<{ id: ReviewId; serverId: ServerId }> {
  const p = await params;
  return {
    id: parseParam(ReviewIdSchema, p.id, "id"),
    serverId: parseParam(ServerIdSchema, p.serverId, "serverId"),
  };
}
