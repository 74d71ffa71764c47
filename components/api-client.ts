/**
 * Browser fetchers: every response body is parsed with the shared schema from lib/, and a
 * non-2xx response throws an ApiError carrying the server's coded error body.
 */
import type { z } from "zod";
import { AppErrorBodySchema, type AppErrorBody } from "@/lib/errors";
import { sessionProofHeaders } from "@/lib/auth/session-origin";

export class ApiError extends Error {
  readonly status: number;
  readonly body: AppErrorBody | null;
  constructor(status: number, body: AppErrorBody | null, fallback: string) {
    super(body?.error.message ?? fallback);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

export async function apiFetch<T extends z.ZodType>(
  path: string,
  schema: T,
  init?: RequestInit,
): Promise<z.infer<T>> {
  const res = await fetch(path, {
    ...init,
    headers: {
      // The session's origin proof, when no session worker controls this page to add it.
      ...(await sessionProofHeaders()),
      Accept: "application/json",
      ...(init?.body ? { "Content-Type": "application/json" } : {}),
      ...init?.headers,
    },
    credentials: "same-origin",
  });
  if (!res.ok) {
    let body: AppErrorBody | null = null;
    try {
      const parsed = AppErrorBodySchema.safeParse(await res.json());
      body = parsed.success ? parsed.data : null;
    } catch {
      body = null;
    }
    throw new ApiError(res.status, body, `${res.status} ${res.statusText}`);
  }
  if (res.status === 204) return schema.parse(undefined);
  return schema.parse(await res.json());
}
