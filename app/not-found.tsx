import Link from "next/link";

export default function NotFound() {
  return (
    <main className="page" data-anonymous-page="not-found">
      <div className="card empty">
        <h3>Not found</h3>
        <p>There is nothing at this address.</p>
        <Link href="/">Back to reviews</Link>
      </div>
    </main>
  );
}
