/** OAuth fetchers for the server card; every response parsed with the shared schema (never a token). */
import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import { oauthKeys } from "@/components/query-keys";
import {
  OAuthConnectResponseSchema,
  OAuthConnectionStateSchema,
  OAuthDisconnectResponseSchema,
} from "@/lib/workbench/oauth-api";

const base = (reviewId: string, serverId: string) =>
  `/api/reviews/${encodeURIComponent(reviewId)}/servers/${encodeURIComponent(serverId)}/oauth`;

export const oauthStateQuery = (reviewId: string, serverId: string, revision: number) =>
  queryOptions({
    queryKey: oauthKeys.revision(reviewId, serverId, revision),
    queryFn: () => apiFetch(base(reviewId, serverId), OAuthConnectionStateSchema),
  });

export function startOAuthConnect(reviewId: string, serverId: string) {
  return apiFetch(`${base(reviewId, serverId)}/connect`, OAuthConnectResponseSchema, {
    method: "POST",
    body: JSON.stringify({}),
  });
}

export function disconnectOAuth(reviewId: string, serverId: string) {
  return apiFetch(base(reviewId, serverId), OAuthDisconnectResponseSchema, { method: "DELETE" });
}
