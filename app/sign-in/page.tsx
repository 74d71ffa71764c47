import type { Metadata } from "next";
import { SignInForm } from "@/app/sign-in/_components/sign-in-form";

export const metadata: Metadata = { title: "Sign in · Relay Review" };

export default function SignInPage() {
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
