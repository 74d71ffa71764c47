"use client";
/**
 * Reads the token from the URL fragment (`/sign-in#token=…`: a fragment never reaches a request
 * line or a log), removes it from the address bar, and exchanges it for a session cookie.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { safeNextPath } from "@/lib/auth/next-path";
import type { SignInRequest } from "@/lib/auth/api";

type Status = { kind: "idle" } | { kind: "working" } | { kind: "error"; message: string };

async function signIn(token: string): Promise<string | null> {
  const body: SignInRequest = { token };
  const res = await fetch("/api/auth/sign-in", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  if (res.ok) return null;
  return res.status === 401
    ? "That is not this workbench's owner token."
    : `Sign-in failed (${res.status}).`;
}

export function SignInForm() {
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [token, setToken] = useState("");
  const started = useRef(false);

  const submit = async (value: string) => {
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
    const fromFragment = new URLSearchParams(window.location.hash.slice(1)).get("token");
    if (!fromFragment) return;
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
