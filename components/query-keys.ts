/**
 * Every React Query key in the workbench, in one module that imports nothing. A mutation in one
 * feature folder invalidates another folder's queries through these keys alone, so feature folders
 * never import each other for a key (that is how components/review ↔ surface and reviews ↔ import
 * became cycles). Every key that belongs to a review starts with "reviews": invalidating
 * `reviewKeys.all` (an import creates reviews) refreshes all of them.
 */

export const reviewKeys = {
  all: ["reviews"] as const,
  list: () => [...reviewKeys.all, "list"] as const,
  detail: (id: string) => [...reviewKeys.all, "detail", id] as const,
  /** The current revision's head (lib/reviews/api.ts `ReviewHead`), for the sections that do not edit the document. */
  head: (id: string) => [...reviewKeys.all, "head", id] as const,
  revisions: (id: string) => [...reviewKeys.all, "revisions", id] as const,
  /** One stored revision; it never changes once written. */
  revision: (id: string, revision: number) => [...reviewKeys.revisions(id), revision] as const,
  /** The revision list as of `currentRevision`, so a save elsewhere in the page lists the new one. */
  revisionList: (id: string, currentRevision: number) =>
    [...reviewKeys.revisions(id), "list", currentRevision] as const,
  /** What changed between two revisions, item by item; it never changes once both are written. */
  revisionDiff: (id: string, from: number, to: number) =>
    [...reviewKeys.revisions(id), "diff", from, to] as const,
  revisionDiffItem: (id: string, from: number, to: number, item: string) =>
    [...reviewKeys.revisions(id), "diff", from, to, item] as const,
};

/** Keyed on the review revision: a save puts the new revision in the detail query and the analysis follows. */
export const analysisKeys = {
  all: ["reviews", "analysis"] as const,
  review: (id: string) => [...analysisKeys.all, id] as const,
  revision: (id: string, revision: number) => [...analysisKeys.review(id), revision] as const,
  /** The Graph section's view (lib/graph/view.ts): the default view or the whole graph. */
  graph: (id: string, revision: number, scope: "focus" | "whole") =>
    [...analysisKeys.review(id), revision, "graph", scope] as const,
  /** A tool's reasons and a path's findings, fetched when the graph opens them. */
  graphDetails: (id: string, revision: number) =>
    [...analysisKeys.review(id), revision, "graph-details"] as const,
};

/** Keyed on the review revision too: a pin or an edited command is a new revision, and the view follows it. */
export const surfaceKeys = {
  all: ["reviews", "surface"] as const,
  server: (id: string, serverId: string) => [...surfaceKeys.all, id, serverId] as const,
  revision: (id: string, serverId: string, revision: number) =>
    [...surfaceKeys.server(id, serverId), revision] as const,
  credentials: (id: string, serverId: string, revision: number, pair: string | null) =>
    [...surfaceKeys.server(id, serverId), revision, "credentials", pair] as const,
};

/** Include the review revision, so a save anywhere in the workbench refetches the statuses. */
export const decisionKeys = {
  all: ["reviews", "decisions"] as const,
  review: (id: string) => [...decisionKeys.all, id] as const,
  list: (id: string, revision: number, pair: { serverId: string; agentId: string } | null) =>
    [...decisionKeys.review(id), revision, pair?.serverId ?? null, pair?.agentId ?? null] as const,
  shareLinks: (id: string) => ["reviews", "share-links", id] as const,
};

/** Secret names and which of a server's variables are set (names, never values). */
export const secretKeys = {
  all: ["secrets"] as const,
  server: (reviewId: string, serverId: string, revision: number) =>
    ["secrets", "server", reviewId, serverId, revision] as const,
};

/** A server's OAuth connection (who, granted scopes, expiry; never a token); an inspection refreshes it. */
export const oauthKeys = {
  server: (reviewId: string, serverId: string) => ["reviews", "oauth", reviewId, serverId] as const,
  revision: (reviewId: string, serverId: string, revision: number) =>
    [...oauthKeys.server(reviewId, serverId), revision] as const,
};

/** Webhooks with their recent deliveries. */
export const webhookKeys = {
  all: ["webhooks"] as const,
};

/** Everyone who has signed in with OpenID Connect (the People page). */
export const peopleKeys = {
  all: ["people"] as const,
};
