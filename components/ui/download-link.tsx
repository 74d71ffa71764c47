"use client";
/**
 * Downloads of the owner's own files (a record, a report, SARIF, the public key) fetched by the
 * page, not by the browser's download manager: a download request bypasses the session worker,
 * so it would arrive with the session cookie but without the session's origin proof
 * (docs/security.md) and be refused. An error (a stale record is 409) shows as a message instead
 * of a saved error page. `DownloadLink` keeps a real link (copy, open in a tab).
 */
import { useState, type MouseEvent, type ReactNode } from "react";
import { AppErrorBodySchema } from "@/lib/errors";
import { sessionProofHeaders } from "@/lib/auth/session-origin";

export async function downloadWithSession(url: string, fallbackName: string): Promise<void> {
  const res = await fetch(url, {
    headers: await sessionProofHeaders(),
    credentials: "same-origin",
  });
  if (!res.ok) {
    const body = AppErrorBodySchema.safeParse(await res.json().catch(() => null));
    throw new Error(body.success ? body.data.error.message : `${res.status} ${res.statusText}`);
  }
  const name =
    /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

export function DownloadLink(props: {
  href: string;
  fallbackName: string;
  className?: string;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setError(null);
    downloadWithSession(props.href, props.fallbackName).catch((e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <>
      <a className={props.className} href={props.href} download onClick={onClick}>
        {props.children}
      </a>
      {error ? (
        <span role="alert" className="small">
          {" "}
          could not download: {error}
        </span>
      ) : null}
    </>
  );
}
