import type { Metadata } from "next";
import { SignInForm } from "@/app/sign-in/_components/sign-in-form";
import { safeNextPath } from "@/lib/auth/next-path";
import { OIDC_START_PATH, oidcEnabled } from "@/lib/auth/oidc";

export const metadata: Metadata = { title: "Sign in · Relay Review" };
// Whether an identity provider is configured is read from the environment at request time.
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = (await searchParams).next;
  const nextPath = safeNextPath(typeof next === "string" ? next : null);
  if (oidcEnabled()) {
    return (
      <main className="page">
        <div className="card" style={{ maxWidth: 560, margin: "3rem auto" }}>
          <h1>Sign in</h1>
          <p>
            <a
              className="btn btn-primary"
              href={`${OIDC_START_PATH}?next=${encodeURIComponent(nextPath)}`}
              data-testid="oidc-sign-in"
            >
              Sign in with your organisation
            </a>
          </p>
          <details>
            <summary className="small muted">Break-glass: the owner token</summary>
            <p className="muted small">
              The owner token is the workbench&apos;s bootstrap and break-glass credential; every
              use of it is logged.
            </p>
            <SignInForm />
          </details>
        </div>
      </main>
    );
  }
  return (
    <main className="page">
      <div className="card" style={{ maxWidth: 560, margin: "3rem auto" }}>
        <h1>Sign in</h1>
        <p className="muted">
          This workbench serves only its owner. Open the sign-in link the server printed when it
          started, or paste the owner token below (it is in <code>RELAY_REVIEW_TOKEN</code> or the{" "}
          <code>owner-token</code> file in the data folder).
        </p>
        <SignInForm />
      </div>
    </main>
  );
}
