"use client";
/**
 * The Secrets page: set a value by name, replace it (rotate) or delete it. Write-only: the value
 * field is cleared once saved and no response carries a value, so nothing here can show one.
 */
import { refreshAfterWrite } from "@/components/refresh-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { secretKeys } from "@/components/query-keys";
import { deleteSecretValue, secretsQuery, setSecretValue } from "@/components/secrets/queries";
import { utcMinute } from "@/lib/format/utc-time";

export function SecretsPanel() {
  const queryClient = useQueryClient();
  const list = useQuery(secretsQuery());
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const [pendingDelete, setPendingDelete] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => setSecretValue(name.trim(), value),
    onSuccess: (r) => {
      setValue("");
      setSaved(`${r.name} ${r.created ? "saved" : "replaced"} at ${utcMinute(r.updatedAt)}`);
    },
    onSettled: () => refreshAfterWrite(queryClient, secretKeys.all),
  });
  const remove = useMutation({
    mutationFn: (n: string) => deleteSecretValue(n),
    onSuccess: (_r, n) => setSaved(`${n} deleted`),
    onSettled: () => refreshAfterWrite(queryClient, secretKeys.all),
  });

  return (
    <div className="stack">
      {list.data && !list.data.available && (
        <div className="card" role="alert">
          <strong>The secret store is unavailable on this instance.</strong>{" "}
          <span className="small">{list.data.keyMessage}</span>
        </div>
      )}
      <form
        className="card stack"
        aria-label="Set a secret"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(null);
          save.mutate();
        }}
      >
        <h2 style={{ margin: 0 }}>Set a value</h2>
        <p className="small muted" style={{ margin: 0 }}>
          Setting a name that is already set replaces its value (rotation). The value is encrypted
          at rest and never shown again; the next inspection of a server allowed to receive the name
          uses it, with no restart.
        </p>
        <div className="row">
          <label className="stack" style={{ gap: 4 }}>
            <span className="small">Name</span>
            <input
              className="mono"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="GITHUB_TOKEN"
              autoComplete="off"
              spellCheck={false}
              required
            />
          </label>
          <label className="stack" style={{ gap: 4, flex: 1 }}>
            <span className="small">Value</span>
            <input
              type="password"
              className="mono"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              autoComplete="new-password"
              spellCheck={false}
              required
            />
          </label>
        </div>
        <div className="row">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={save.isPending || name.trim() === "" || value === ""}
          >
            {save.isPending ? "Saving…" : "Save secret"}
          </button>
          {save.error && (
            <span role="alert" className="small" style={{ color: "var(--danger)" }}>
              {save.error.message}
            </span>
          )}
          {saved && (
            <span role="status" className="small">
              {saved}
            </span>
          )}
        </div>
      </form>
      <section className="card stack" aria-labelledby="secret-names-heading">
        <h2 id="secret-names-heading" style={{ margin: 0 }}>
          Names
        </h2>
        <p className="small muted" style={{ margin: 0 }}>
          A server is given a name only when its launcher (stdio) or HTTP target in{" "}
          <span className="mono">launchers.json</span> allows it. RELAY_REVIEW_* and DATABASE_URL
          are never given to a server.
        </p>
        {list.isPending ? (
          <p className="muted">Loading…</p>
        ) : list.error ? (
          <p role="alert">{list.error.message}</p>
        ) : list.data.names.length === 0 ? (
          <p className="muted">No secret is set and no launcher asks for one.</p>
        ) : (
          <table className="data" data-testid="secret-names">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">May be given to</th>
                <th scope="col" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {list.data.names.map((n) => (
                <tr key={n.name} data-secret-name={n.name}>
                  <td className="mono">{n.name}</td>
                  <td className="small">
                    {n.set ? (
                      <span className="badge badge-neutral">set, {utcMinute(n.updatedAt!)}</span>
                    ) : n.fixedBy.length ? (
                      <span className="badge badge-neutral">fixed by {n.fixedBy.join(", ")}</span>
                    ) : (
                      <span className="badge badge-danger">not set</span>
                    )}
                  </td>
                  <td className="small">
                    {n.allowedBy.length === 0 ? (
                      <span className="muted">no server (no allowlist entry names it)</span>
                    ) : (
                      n.allowedBy
                        .map((u) => `${u.kind === "launcher" ? "launcher" : "HTTP target"} ${u.id}`)
                        .join(", ")
                    )}
                  </td>
                  <td>
                    <div className="row">
                      <button
                        type="button"
                        className="btn"
                        onClick={() => setName(n.name)}
                        aria-label={`${n.set ? "Replace" : "Set"} ${n.name}`}
                      >
                        {n.set ? "Replace" : "Set"}
                      </button>
                      {n.set && (
                        <button
                          type="button"
                          className="btn btn-danger"
                          onClick={() => setPendingDelete(n.name)}
                          aria-label={`Delete ${n.name}`}
                        >
                          Delete
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <ConfirmDialog
        open={pendingDelete !== null}
        title="Delete this secret?"
        body={`Servers that need ${pendingDelete ?? ""} will be refused at their next inspection until it is set again.`}
        confirmLabel="Delete secret"
        danger
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => {
          if (pendingDelete) remove.mutate(pendingDelete);
          setPendingDelete(null);
        }}
      />
    </div>
  );
}
