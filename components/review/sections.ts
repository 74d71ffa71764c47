/**
 * The review page's sections, shared by the server page (which reads `?section=`) and the client
 * tabs. `document`: the section edits or reads the whole review document, so the page loads it;
 * the others paint from the review's head (lib/reviews/api.ts `ReviewHead`) and their own routes.
 */
export const REVIEW_SECTIONS = [
  { id: "summary", label: "Summary", document: false },
  { id: "servers", label: "Servers & surface", document: true },
  { id: "sources", label: "Sources & writers", document: true },
  { id: "agents", label: "Agents & tool sets", document: true },
  { id: "controls", label: "Controls", document: true },
  { id: "graph", label: "Graph", document: false },
  { id: "decision", label: "Decision", document: true },
  { id: "history", label: "History", document: false },
] as const;
export type ReviewSectionId = (typeof REVIEW_SECTIONS)[number]["id"];

export function sectionNeedsDocument(id: ReviewSectionId): boolean {
  return REVIEW_SECTIONS.find((s) => s.id === id)?.document ?? true;
}

/** Where a review opens: its state at a glance (issue 29, item 5). */
export const DEFAULT_SECTION: ReviewSectionId = "summary";

export function isReviewSection(value: string | undefined): value is ReviewSectionId {
  return REVIEW_SECTIONS.some((s) => s.id === value);
}
