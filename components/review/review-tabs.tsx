import Link from "next/link";
import { REVIEW_SECTIONS, type ReviewSectionId } from "@/components/review/sections";

/**
 * The review's tabs: its sections and its timeline, on the workbench and on the timeline page
 * alike, so opening the timeline does not leave the review.
 */
export function ReviewTabs({ id, current }: { id: string; current: ReviewSectionId | "timeline" }) {
  return (
    <nav className="tabs" aria-label="Review sections">
      {REVIEW_SECTIONS.map((s) => (
        <Link
          key={s.id}
          href={`/reviews/${id}?section=${s.id}`}
          prefetch={false}
          aria-current={s.id === current ? "page" : undefined}
        >
          {s.label}
        </Link>
      ))}
      <Link
        href={`/reviews/${id}/timeline`}
        prefetch={false}
        aria-current={current === "timeline" ? "page" : undefined}
      >
        Timeline
      </Link>
    </nav>
  );
}
