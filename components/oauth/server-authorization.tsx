"use client";
/**
 * On an HTTP server card: who is connected over OAuth, with which granted scopes, until when, with
 * Reconnect and Disconnect; or Connect when the server answered 401. Connect asks the workbench
 * for the authorization server's URL and sends the browser there; it comes back to
 * /oauth/callback. Disconnect says whether the authorization server revoked the tokens (they are
 * deleted either way). No token ever reaches the browser.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { disconnectOAuth, oauthStateQuery, startOAuthConnect } from "@/components/oauth/queries";
import { oauthKeys } from "@/components/query-keys";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { utcMinute } from "@/lib/format/utc-time";

function when(iso: string | null): string {
  if (!iso) return "no expiry given";
  const d = new Date(iso);
  return `${utcMinute(d)}${d.getTime() < Date.now() ? " (expired; refreshed at the next inspection if a refresh token was given)" : ""}`;
}

export function ServerAuthorization(props: {
  reviewId: string;
  serverId: string;
  serverName: string;
  revision: number;
}) {
  const { reviewId, serverId } = props;
  const qc = useQueryClient();
  const q = useQuery(oauthStateQuery(reviewId, serverId, props.revision));
  const [confirm, setConfirm] = useState(false);
  const connect = useMutation({
    mutationFn: () => startOAuthConnect(reviewId, serverId),
    onSuccess: ({ authorizationUrl }) => {
      // The schema admitted only http(s) URLs; the browser leaves for the authorization server.
      window.location.assign(authorizationUrl);
    },
  });
  const disconnect = useMutation({
    mutationFn: () => disconnectOAuth(reviewId, serverId),
    onSettled: () => qc.invalidateQueries({ queryKey: oauthKeys.server(reviewId, serverId) }),
  });
  if (q.isPending) return <span className="muted">…</span>;
  if (q.error) return <span role="alert">{q.error.message}</span>;
  const s = q.data;
  const connectButton = (label: string) => (
    <button
      type="button"
      className={label === "Connect" ? "btn btn-primary" : "btn"}
      onClick={() => connect.mutate()}
      disabled={connect.isPending}
      aria-label={`${label} ${props.serverName}`}
    >
      {connect.isPending ? "Connecting…" : label}
    </button>
  );
  return (
    <span className="stack" style={{ gap: 4 }} data-testid={`server-oauth-${serverId}`}>
      {s.state === "unavailable" && <span className="muted">{s.reason}</span>}
      {s.state === "not_connected" &&
        (s.isRequired ? (
          <span className="row" style={{ gap: 8, alignItems: "center" }}>
            <span className="badge badge-warn">authorization required</span>
            <span>The server answered 401: connect to inspect it.</span>
            {connectButton("Connect")}
          </span>
        ) : (
          <span className="row" style={{ gap: 8, alignItems: "center" }}>
            <span className="muted">not connected</span>
            {connectButton("Connect")}
          </span>
        ))}
      {s.state === "connected" && (
        <>
          <span>
            <span className="badge badge-ok">connected</span>{" "}
            {s.subject ? (
              <>
                as <strong data-testid="oauth-subject">{s.subject}</strong>
              </>
            ) : (
              "(the authorization server did not say who)"
            )}
            {s.issuer && <span className="muted"> via {s.issuer}</span>}
          </span>
          <span>
            Granted scopes:{" "}
            <span data-testid="oauth-scopes" className="mono">
              {s.scopes.length ? s.scopes.join(" ") : "none stated"}
            </span>
          </span>
          <span>
            Token expires: <span data-testid="oauth-expires">{when(s.expiresAt)}</span>
          </span>
          <span className="row" style={{ gap: 8 }}>
            {connectButton("Reconnect")}
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => setConfirm(true)}
              disabled={disconnect.isPending}
              aria-label={`Disconnect ${props.serverName}`}
            >
              Disconnect
            </button>
          </span>
        </>
      )}
      {connect.error && <span role="alert">{connect.error.message}</span>}
      {disconnect.error && <span role="alert">{disconnect.error.message}</span>}
      {disconnect.data && (
        <span role="status" data-testid="oauth-disconnect-outcome">
          <span
            className={`badge ${disconnect.data.revocation === "not_told" ? "badge-warn" : "badge-ok"}`}
          >
            {disconnect.data.revocation === "revoked"
              ? "revoked"
              : disconnect.data.revocation === "not_told"
                ? "not revoked at the authorization server"
                : "nothing to revoke"}
          </span>{" "}
          {disconnect.data.message}
        </span>
      )}
      <ConfirmDialog
        open={confirm}
        title="Disconnect this server?"
        body={`The authorization server is asked to revoke the stored tokens for “${props.serverName}” (if it offers revocation), and they and the client registration are deleted from the workbench whatever it answers. Inspecting it again needs Connect.`}
        confirmLabel="Disconnect"
        danger
        onCancel={() => setConfirm(false)}
        onConfirm={() => {
          setConfirm(false);
          disconnect.mutate();
        }}
      />
    </span>
  );
}
