"use client";
/** On a server card: the variable names the server needs and whether each is set now (never a value). */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { serverVariablesQuery } from "@/components/secrets/queries";
import type { ServerVariablesResponse } from "@/lib/secrets/api";

const STATE_LABEL: Record<ServerVariablesResponse["variables"][number]["state"], string> = {
  secret: "set (secret store)",
  launcher: "fixed by its launcher",
  environment: "set (workbench environment)",
  unset: "not set",
  reserved: "never given to a server",
  not_allowed: "not allowed by the allowlist",
};

export function ServerVariables({
  reviewId,
  serverId,
  revision,
}: {
  reviewId: string;
  serverId: string;
  revision: number;
}) {
  const q = useQuery(serverVariablesQuery(reviewId, serverId, revision));
  if (q.isPending) return <span className="muted">…</span>;
  if (q.error) return <span role="alert">{q.error.message}</span>;
  if (q.data.variables.length === 0) return <span>none</span>;
  const missing = q.data.variables.some((v) => v.state === "unset");
  return (
    <span className="stack" style={{ gap: 2 }} data-testid={`server-variables-${serverId}`}>
      {q.data.variables.map((v) => (
        <span key={v.name} data-variable={v.name} data-state={v.state}>
          <span className="mono">{v.name}</span>{" "}
          <span className="muted">({v.where.join(", ")})</span>:{" "}
          <span
            className={
              v.state === "unset" || v.state === "not_allowed" || v.state === "reserved"
                ? "badge badge-danger"
                : "badge badge-neutral"
            }
          >
            {STATE_LABEL[v.state]}
          </span>
        </span>
      ))}
      {q.data.allowlist && <span className="small muted">{q.data.allowlist}</span>}
      {missing && (
        <span className="small">
          Set missing values on the <Link href="/secrets">Secrets page</Link>.
        </span>
      )}
    </span>
  );
}
