/** Secrets API fetchers; every response is parsed with the shared schema (names, never values). */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { apiFetch } from "@/components/api-client";
import { secretKeys } from "@/components/query-keys";
import {
  ListSecretsResponseSchema,
  ServerVariablesResponseSchema,
  SetSecretResponseSchema,
} from "@/lib/secrets/api";

export const secretsQuery = () =>
  queryOptions({
    queryKey: secretKeys.all,
    queryFn: () => apiFetch("/api/secrets", ListSecretsResponseSchema),
  });

export const serverVariablesQuery = (reviewId: string, serverId: string, revision: number) =>
  queryOptions({
    queryKey: secretKeys.server(reviewId, serverId, revision),
    queryFn: () =>
      apiFetch(
        `/api/reviews/${encodeURIComponent(reviewId)}/servers/${encodeURIComponent(serverId)}/variables`,
        ServerVariablesResponseSchema,
      ),
  });

export function setSecretValue(name: string, value: string) {
  return apiFetch(`/api/secrets/${encodeURIComponent(name)}`, SetSecretResponseSchema, {
    method: "PUT",
    body: JSON.stringify({ value }),
  });
}

export function deleteSecretValue(name: string) {
  return apiFetch(`/api/secrets/${encodeURIComponent(name)}`, z.undefined(), { method: "DELETE" });
}
