/** The review page's sections, shared by the server page (which reads `?section=`) and the client tabs. */
export const REVIEW_SECTIONS = [
  { id: "servers", label: "Servers & surface" },
  { id: "sources", label: "Sources & writers" },
  { id: "agents", label: "Agents & tool sets" },
  { id: "controls", label: "Controls" },
  { id: "graph", label: "Graph" },
  { id: "decision", label: "Decision" },
  { id: "history", label: "History" },
] as const;
export type ReviewSectionId = (typeof REVIEW_SECTIONS)[number]["id"];

export function isReviewSection(value: string | undefined): value is ReviewSectionId {
  return REVIEW_SECTIONS.some((s) => s.id === value);
}
