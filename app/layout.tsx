import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
import { OwnerNav } from "@/components/auth/owner-nav";
import { SignOut } from "@/components/auth/sign-out";
import { oidcEnabled } from "@/lib/auth/oidc";
import { PRINCIPAL_HEADER, principalOf, principalRole } from "@/lib/auth/principal";
import { hasRole } from "@/lib/auth/roles";
import { sandboxOptedOut } from "@/lib/sandbox/node/sandbox";
import "./globals.css";

export const metadata: Metadata = {
  title: "Relay Review",
  description: "Security review workbench for MCP relay servers",
};

/** The owner's opt-out from the sandbox (read per request, like the whole layout), said on every page. */
function UnsandboxedBanner() {
  if (!sandboxOptedOut()) return null;
  return (
    <div
      className="callout danger"
      role="alert"
      data-testid="unsandboxed-banner"
      style={{ borderRadius: 0, margin: 0 }}
    >
      <strong>Servers run without a sandbox.</strong> RELAY_REVIEW_UNSANDBOXED=1 is set: every stdio
      server this workbench inspects runs as its user, with its files (the data folder and signing
      key included) and its network. Unset it to restore the sandbox.
    </div>
  );
}

/**
 * Who the proxy admitted this page's request as (proxy.ts sets the header; it is absent on the
 * sign-in page and share links, where nobody is signed in).
 */
async function signedIn() {
  const h = await headers();
  if (!h.get(PRINCIPAL_HEADER)) return null;
  const principal = principalOf({ headers: h });
  return { principal, role: principalRole(principal) };
}

/** The signed-in person's name and role beside Sign out; the owner token is said as such. */
function SignedInAs({ who }: { who: Awaited<ReturnType<typeof signedIn>> }) {
  if (!who) return null;
  const text =
    who.principal.kind === "person"
      ? `${who.principal.name} · ${who.role ?? "no role yet"}`
      : "owner token (admin)";
  return (
    <span className="small muted" data-testid="signed-in-as">
      {text}
    </span>
  );
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: each response's scripts carry that response's CSP nonce (proxy.ts).
  await connection();
  const who = await signedIn();
  // Without an identity provider there is one owner, and naming them would say nothing.
  const withPeople = oidcEnabled();
  return (
    <html lang="en">
      <body>
        <header className="app-header">
          <Link href="/" className="brand" prefetch={false}>
            Relay Review
          </Link>
          <OwnerNav canManagePeople={withPeople && hasRole(who?.role ?? null, "admin")} />
          <span className="spacer" />
          {withPeople && <SignedInAs who={who} />}
          <SignOut />
        </header>
        <UnsandboxedBanner />
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
