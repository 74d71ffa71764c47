import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Relay Review",
  description: "Security review workbench for MCP relay servers",
};

export default function RootLayout({ children }: { children: ReactNode }) {
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
        </header>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
