"use client";
/**
 * Who is signed in, as the proxy decided (`GET /api/auth/me`): one query every component shares,
 * so the navigation, the Decide form and the People page never disagree about the role.
 */
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import { MeResponseSchema } from "@/lib/auth/api";

export const meQueryKey = ["auth", "me"] as const;

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: () => apiFetch("/api/auth/me", MeResponseSchema),
    // A 401 (signed out) is an answer, not a blip to retry; the role changes only at sign-in.
    retry: false,
    staleTime: 60_000,
  });
}
