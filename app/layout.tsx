import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
import { OwnerNav } from "@/components/auth/owner-nav";
import { SignOut } from "@/components/auth/sign-out";
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

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: each response's scripts carry that response's CSP nonce (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body>
        <header className="app-header">
          <Link href="/" className="brand" prefetch={false}>
            Relay Review
          </Link>
          <OwnerNav />
          <span className="spacer" />
          <SignOut />
        </header>
        <UnsandboxedBanner />
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
