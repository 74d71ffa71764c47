import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/store/db";
import { loadShareView } from "@/lib/workbench/share";
import { ShareView } from "./_components/share-view";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The token is in the path: never send it onward in a Referer, never let the page be indexed.
export const metadata: Metadata = {
  title: "Shared review (read-only) — Relay Review",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};

/**
 * The read-only view behind a share link, authenticated by the token alone (the proxy exempts
 * /share/*). An unknown, revoked or expired token is the same 404 page.
 */
export default async function SharePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await loadShareView(await getDb(), token);
  if (!view) notFound();
  return (
    <main className="page">
      <ShareView view={view} />
    </main>
  );
}
