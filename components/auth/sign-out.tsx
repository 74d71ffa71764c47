"use client";

import { usePathname } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { clearSessionProof, sessionProofHeaders } from "@/lib/auth/session-origin";

/**
 * Sign out of this browser, or of every browser at once (POST /api/auth/sign-out-everywhere: a
 * new session epoch, so a cookie left on a lost or shared machine stops working). Not shown to a
 * share-link reader or on the sign-in page, where there is no session to end. Plain fetch, as the
 * sign-in form: the header sits outside <Providers>, before zod is configured jitless, so loading
 * zod here would trip the CSP's eval check on every page.
 */
export function SignOut() {
  const pathname = usePathname();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (pathname.startsWith("/share/") || pathname === "/sign-in") return null;

  const signOut = async (path: "/api/auth/sign-out" | "/api/auth/sign-out-everywhere") => {
    setConfirming(false);
    setError(null);
    try {
      const res = await fetch(path, {
        method: "POST",
        headers: await sessionProofHeaders(),
        credentials: "same-origin",
      });
      if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
      // The session is over on the server; its proof is of no further use here.
      await clearSessionProof().catch(() => undefined);
      window.location.assign("/sign-in");
    } catch (e) {
      setError(`could not sign out: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <div className="row sign-out">
      {error ? (
        <span role="alert" className="small">
          {error}
        </span>
      ) : null}
      <button type="button" className="btn" onClick={() => void signOut("/api/auth/sign-out")}>
        Sign out
      </button>
      <button type="button" className="btn" onClick={() => setConfirming(true)}>
        Sign out everywhere
      </button>
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere?"
        body="Every browser signed in to this workbench, this one included, is signed out and needs the owner token to sign in again. Automation using the bearer token keeps working."
        confirmLabel="Sign out everywhere"
        danger
        onConfirm={() => void signOut("/api/auth/sign-out-everywhere")}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
