"use client";

export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <main className="page">
      <div className="card stack" role="alert">
        <h1>Something went wrong</h1>
        <p className="muted">{error.message || "An unexpected error occurred."}</p>
        <div className="row">
          <button type="button" className="btn btn-primary" onClick={() => reset()}>
            Try again
          </button>
        </div>
      </div>
    </main>
  );
}
