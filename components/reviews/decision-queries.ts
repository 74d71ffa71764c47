/**
 * Query options and mutations for decisions and share links. Every response is parsed with the
 * shared schema from lib/decisions/api.ts; the keys are in components/query-keys.ts.
 */
import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import { decisionKeys } from "@/components/query-keys";
import {
  CreateShareLinkResponseSchema,
  DecideResponseSchema,
  ListDecisionsResponseSchema,
  ListShareLinksResponseSchema,
  ShareLinkViewSchema,
  type CreateShareLinkRequest,
  type DecideRequest,
} from "@/lib/decisions/api";

const base = (id: string) => `/api/reviews/${encodeURIComponent(id)}`;

export const decisionsOptions = (
  id: string,
  revision: number,
  pair: { serverId: string; agentId: string } | null = null,
) =>
  queryOptions({
    queryKey: decisionKeys.list(id, revision, pair),
    queryFn: () => {
      const query = pair
        ? `?${new URLSearchParams({ serverId: pair.serverId, agentId: pair.agentId }).toString()}`
        : "";
      return apiFetch(`${base(id)}/decisions${query}`, ListDecisionsResponseSchema);
    },
  });

export function decide(id: string, body: DecideRequest) {
  return apiFetch(`${base(id)}/decisions`, DecideResponseSchema, {
    method: "POST",
    body: JSON.stringify(body),
  });
}

/** Download URLs; the browser fetches them with the session cookie. */
export const recordUrl = (id: string, decisionId: string) =>
  `${base(id)}/decisions/${encodeURIComponent(decisionId)}/record`;
export const reportUrl = (id: string, decisionId: string) =>
  `${base(id)}/decisions/${encodeURIComponent(decisionId)}/report.md`;
export const SIGNING_KEY_URL = "/api/signing-key";

export const shareLinksOptions = (id: string) =>
  queryOptions({
    queryKey: decisionKeys.shareLinks(id),
    queryFn: () => apiFetch(`${base(id)}/share-links`, ListShareLinksResponseSchema),
  });

export function createShareLink(id: string, body: CreateShareLinkRequest) {
  return apiFetch(`${base(id)}/share-links`, CreateShareLinkResponseSchema, {
    method: "POST",
    body: JSON.stringify(body),
  });
}

export function revokeShareLink(id: string, linkId: string) {
  return apiFetch(`${base(id)}/share-links/${encodeURIComponent(linkId)}`, ShareLinkViewSchema, {
    method: "DELETE",
  });
}
