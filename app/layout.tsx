import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
import { SignOut } from "@/components/auth/sign-out";
import "./globals.css";

export const metadata: Metadata = {
  title: "Relay Review",
  description: "Security review workbench for MCP relay servers",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: each response's scripts carry that response's CSP nonce (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body>
        <header className="app-header">
          <Link href="/" className="brand">
            Relay Review
          </Link>
          <nav aria-label="Main">
            <Link href="/">Reviews</Link>
            <Link href="/secrets">Secrets</Link>
          </nav>
          <span className="spacer" />
          <SignOut />
        </header>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
