/**
 * Lives here, not at app/loading.tsx: a root loading boundary wraps every page in Suspense, so the
 * shell streams before a page can call notFound() and an unknown /share/<token> answered 200
 * instead of 404 (e2e/api/auth.spec.ts, e2e/ui/share.spec.ts). Only /reviews/[id] awaits anything.
 */
export default function Loading() {
  return (
    <main className="page" aria-busy="true">
      <div className="skeleton" style={{ width: "40%", height: "1.8rem", marginBottom: "1rem" }} />
      <div className="skeleton" style={{ height: "12rem" }} />
    </main>
  );
}
