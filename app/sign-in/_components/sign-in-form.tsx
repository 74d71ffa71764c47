"use client";
/**
 * Reads the token from the URL fragment (`/sign-in#token=…`: a fragment never reaches a request
 * line or a log), removes it from the address bar, and exchanges it for a session cookie and the
 * session's origin proof, which it keeps where only this origin can read it and which the
 * session worker then attaches to every request (lib/auth/session-origin.ts).
 *
 * A browser that still holds a live session lands here when a page was loaded past the worker
 * (a hard reload bypasses it): the form checks the session once and sends the browser back.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { safeNextPath } from "@/lib/auth/next-path";
import type { SignInRequest } from "@/lib/auth/api";
import {
  readSessionProof,
  SESSION_PROOF_HEADER_NAME,
  sessionOriginUnsupported,
  storeSessionProof,
} from "@/lib/auth/session-origin";

type Status = { kind: "idle" } | { kind: "working" } | { kind: "error"; message: string };

const RESUMED_AT = "relay-review:session-resumed-at";

/** Whether this browser's session is live from this origin; asked at most once per 10 seconds, so a refusal cannot loop. */
async function liveSession(): Promise<boolean> {
  const last = Number(window.sessionStorage.getItem(RESUMED_AT) ?? "0");
  if (Date.now() - last < 10_000) return false;
  const proof = await readSessionProof().catch(() => null);
  if (!proof) return false;
  const res = await fetch("/api/auth/session-check", {
    headers: { [SESSION_PROOF_HEADER_NAME]: proof },
    credentials: "same-origin",
  });
  if (res.status !== 204 || !(await navigator.serviceWorker.getRegistration())?.active)
    return false;
  window.sessionStorage.setItem(RESUMED_AT, String(Date.now()));
  return true;
}

/** Keeps the proof an OpenID Connect sign-in handed over in the fragment (`#proof=…`). */
async function keepHandedProof(proof: string): Promise<string | null> {
  try {
    await storeSessionProof(proof);
    return null;
  } catch (error) {
    return `Sign-in failed: the browser could not keep the session (${error instanceof Error ? error.message : String(error)}).`;
  }
}

async function signIn(token: string): Promise<string | null> {
  const body: SignInRequest = { token };
  const res = await fetch("/api/auth/sign-in", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  if (res.ok) {
    const proof = res.headers.get(SESSION_PROOF_HEADER_NAME);
    if (!proof) return "Sign-in failed: the workbench sent no session proof.";
    try {
      await storeSessionProof(proof);
    } catch (error) {
      return `Sign-in failed: the browser could not keep the session (${error instanceof Error ? error.message : String(error)}).`;
    }
    return null;
  }
  return res.status === 401
    ? "That is not this workbench's owner token."
    : `Sign-in failed (${res.status}).`;
}

export function SignInForm() {
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [token, setToken] = useState("");
  const started = useRef(false);

  const submit = async (value: string) => {
    const unsupported = sessionOriginUnsupported();
    if (unsupported) {
      setStatus({ kind: "error", message: unsupported });
      return;
    }
    setStatus({ kind: "working" });
    const error = await signIn(value.trim());
    if (error) {
      setStatus({ kind: "error", message: error });
      return;
    }
    window.location.replace(safeNextPath(new URLSearchParams(window.location.search).get("next")));
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const handedProof = fragment.get("proof");
    if (handedProof) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
      const unsupported = sessionOriginUnsupported();
      if (unsupported) {
        setStatus({ kind: "error", message: unsupported });
        return;
      }
      void keepHandedProof(handedProof).then((error) => {
        if (error) setStatus({ kind: "error", message: error });
        else
          window.location.replace(
            safeNextPath(new URLSearchParams(window.location.search).get("next")),
          );
      });
      return;
    }
    const fromFragment = fragment.get("token");
    if (!fromFragment) {
      if (sessionOriginUnsupported()) return;
      void liveSession().then(
        (live) => {
          if (live)
            window.location.replace(
              safeNextPath(new URLSearchParams(window.location.search).get("next")),
            );
        },
        () => undefined, // no live session: the form stays
      );
      return;
    }
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    void submit(fromFragment); // errors are shown through status
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(token); // errors are shown through status
  };

  return (
    <form onSubmit={onSubmit} className="stack">
      <label htmlFor="owner-token">Owner token</label>
      <input
        id="owner-token"
        type="password"
        autoComplete="current-password"
        value={token}
        onChange={(e) => setToken(e.target.value)}
        spellCheck={false}
      />
      {status.kind === "error" ? (
        <p className="field-error" role="alert">
          {status.message}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={status.kind === "working" || token.trim() === ""}
        >
          {status.kind === "working" ? "Signing in…" : "Sign in"}
        </button>
      </div>
    </form>
  );
}
