"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** Pages a reader without an owner session sees: the owner's navigation is no use there. */
export const isAnonymousPath = (pathname: string) =>
  pathname === "/sign-in" || pathname.startsWith("/share/");

/**
 * The owner's navigation, left out on the sign-in page and share links (and, through the
 * `data-anonymous-page` marker that not-found.tsx sets, on a 404), where a reader has no session
 * and the links would only lead to the sign-in page.
 */
export function OwnerNav({ canManagePeople }: { canManagePeople: boolean }) {
  const pathname = usePathname();
  if (isAnonymousPath(pathname)) return null;
  return (
    <nav aria-label="Main" className="owner-nav">
      {/* Not prefetched: every page is rendered per request, and prefetching these four on each
          load rendered them all on the server (twice, on a review page) while the page that was
          asked for was still loading. */}
      <Link href="/" prefetch={false}>
        Reviews
      </Link>
      <Link href="/changes" prefetch={false}>
        Changes
      </Link>
      <Link href="/webhooks" prefetch={false}>
        Webhooks
      </Link>
      <Link href="/secrets" prefetch={false}>
        Secrets
      </Link>
      {canManagePeople && (
        <Link href="/people" prefetch={false}>
          People
        </Link>
      )}
    </nav>
  );
}
