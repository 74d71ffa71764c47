/**
 * Fetchers for the live-surface routes. The surface view is a React Query; the inspection is a
 * streamed POST read line by line (NDJSON), so progress shows while it runs.
 */
import { sessionProofHeaders } from "@/lib/auth/session-origin";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { ApiError, apiFetch } from "@/components/api-client";
import { surfaceKeys } from "@/components/query-keys";
import { AppErrorBodySchema, type AppErrorBody } from "@/lib/errors";
import {
  InspectStreamLineSchema,
  PinResponseSchema,
  RemovePinResponseSchema,
  SurfaceViewSchema,
  CredentialSurfacesViewSchema,
  type InspectRequest,
  type InspectStreamLine,
  type PinRequest,
  type RemovePinRequest,
} from "@/lib/workbench/surface-api";

const base = (id: string, serverId: string) =>
  `/api/reviews/${encodeURIComponent(id)}/servers/${encodeURIComponent(serverId)}`;

export const surfaceOptions = (id: string, serverId: string, revision: number) =>
  queryOptions({
    queryKey: surfaceKeys.revision(id, serverId, revision),
    queryFn: () => apiFetch(`${base(id, serverId)}/surface`, SurfaceViewSchema),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Each era × credential's surface; `pair`: the two surface keys to diff (default: the two newest). */
export const credentialSurfacesOptions = (
  id: string,
  serverId: string,
  revision: number,
  pair: { a: string; b: string } | null,
) =>
  queryOptions({
    queryKey: surfaceKeys.credentials(id, serverId, revision, pair ? JSON.stringify(pair) : null),
    queryFn: () =>
      apiFetch(
        `${base(id, serverId)}/credentials${pair ? `?${new URLSearchParams(pair).toString()}` : ""}`,
        CredentialSurfacesViewSchema,
      ),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export const registrationUrl = (id: string, serverId: string) =>
  `${base(id, serverId)}/registration`;

export function pinSurface(id: string, serverId: string, body: PinRequest) {
  return apiFetch(`${base(id, serverId)}/pin`, PinResponseSchema, {
    method: "POST",
    body: JSON.stringify(body),
  });
}

export function removePin(id: string, serverId: string, body: RemovePinRequest) {
  return apiFetch(`${base(id, serverId)}/pin/remove`, RemovePinResponseSchema, {
    method: "POST",
    body: JSON.stringify(body),
  });
}

export type InspectResultLine = Extract<InspectStreamLine, { type: "result" }>;

async function errorBody(res: Response): Promise<AppErrorBody | null> {
  try {
    const parsed = AppErrorBodySchema.safeParse(await res.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Run an inspection and call `onLine` for every line as it arrives. Resolves with the last line
 * (the result); throws ApiError when the route refused before streaming (422 for a target the
 * allowlist refuses), and the fetch's AbortError when `signal` cancels it.
 */
export async function streamInspection(
  id: string,
  serverId: string,
  body: InspectRequest,
  options: { signal: AbortSignal; onLine: (line: InspectStreamLine) => void },
): Promise<InspectResultLine> {
  const res = await fetch(`${base(id, serverId)}/inspect`, {
    method: "POST",
    headers: {
      ...(await sessionProofHeaders()),
      "Content-Type": "application/json",
      Accept: "application/x-ndjson",
    },
    body: JSON.stringify(body),
    credentials: "same-origin",
    signal: options.signal,
  });
  if (!res.ok || !res.body)
    throw new ApiError(res.status, await errorBody(res), `${res.status} ${res.statusText}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let result: InspectResultLine | null = null;
  const take = (text: string) => {
    if (!text.trim()) return;
    const parsed = InspectStreamLineSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error("the inspect stream sent a line this page cannot read");
    options.onLine(parsed.data);
    if (parsed.data.type === "result") result = parsed.data;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      take(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  }
  take(buffer);
  if (!result)
    throw new Error("the inspection ended without a result (the connection closed early)");
  return result;
}
