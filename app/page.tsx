import { ReviewList } from "@/components/reviews/review-list";
import { HydrationGate } from "@/components/ui/hydration-gate";

export default function HomePage() {
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>Reviews</h1>
          <p className="muted">
            What a faithful relay server delivers into an agent&apos;s context, who wrote it, and
            what the agent may hold while it reads it.
          </p>
        </div>
      </div>
      <HydrationGate>
        <ReviewList />
      </HydrationGate>
    </main>
  );
}
