"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { reviewKeys, surfaceKeys } from "@/components/query-keys";
import { DiffView, NameDiffView } from "@/components/surface/diff-view";
import { DownloadLink } from "@/components/ui/download-link";
import { pinSurface, registrationUrl, removePin } from "@/components/surface/queries";
import { credentialText } from "@/lib/credential";
import type { SurfaceView } from "@/lib/workbench/surface-api";
import { utcMinute } from "@/lib/format/utc-time";

/** Pin state, the comparison with the live surface (BLOCKED under "block"), the diff, and Pin / Re-pin. */
export function PinPanel({
  view,
  revision,
  isBusy,
}: {
  view: SurfaceView;
  revision: number;
  isBusy: boolean;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [onChange, setOnChange] = useState<"block" | "warn">(view.pin?.onSurfaceChange ?? "block");
  const { pin, comparison, current } = view;
  const isRepin = pin !== null;
  const needsReason = comparison !== null && comparison.status !== "match";
  const canPin =
    current !== null &&
    !(pin && comparison?.status === "match" && onChange === pin.onSurfaceChange);

  const mutation = useMutation({
    mutationFn: () =>
      pinSurface(view.reviewId, view.serverId, {
        reason,
        onSurfaceChange: onChange,
        baseRevision: revision,
        ...(current ? { surfaceSha256: current.snapshot.surfaceSha256 } : {}),
      }),
    onSuccess: (res) => {
      queryClient.setQueryData(reviewKeys.detail(view.reviewId), res.record);
      setReason("");
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: surfaceKeys.server(view.reviewId, view.serverId) }),
  });

  return (
    <section className="stack pin-panel" aria-label="Pin and drift">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h4 style={{ margin: 0 }}>Pin</h4>
        {current && (
          <DownloadLink
            className="btn"
            href={registrationUrl(view.reviewId, view.serverId)}
            fallbackName={`${view.serverId}.registration.json`}
          >
            Export registration record
          </DownloadLink>
        )}
      </div>
      {view.blocked.isBlocked && (
        <div className="callout danger" role="alert" data-testid="blocked-banner">
          <strong>BLOCKED.</strong> {view.blocked.reason}
        </div>
      )}
      {pin ? (
        <dl className="kv">
          <dt>Pinned fingerprint</dt>
          <dd className="mono small break">{pin.surfaceSha256}</dd>
          <dt>Pinned by</dt>
          <dd>
            {pin.pinnedBy}, {utcMinute(pin.pinnedAt)}
          </dd>
          <dt>Reason</dt>
          <dd>
            {pin.reason ? (
              <span className="server-text">{pin.reason}</span>
            ) : (
              <span className="muted">none given</span>
            )}
          </dd>
          <dt>on_surface_change</dt>
          <dd>
            <strong>{pin.onSurfaceChange}</strong>
          </dd>
          <dt>Declared capabilities</dt>
          <dd className="mono small">{pin.declaredCapabilities.join(", ") || "none"}</dd>
          <dt>Live surface</dt>
          <dd data-testid="pin-status">
            {!comparison && (
              <span className="muted">not compared yet: no successful inspection</span>
            )}
            {comparison?.status === "match" && (
              <span className="badge badge-ok">matches the pin</span>
            )}
            {comparison?.status === "mismatch" && (
              <span className="badge badge-danger">does not match the pin</span>
            )}
            {comparison?.status === "incomparable" && (
              <span>
                <span className="badge badge-warn">incomparable</span>{" "}
                <span className="small">{comparison.reason}</span>
              </span>
            )}
          </dd>
        </dl>
      ) : (
        <p className="small muted" style={{ margin: 0 }}>
          Not pinned. Pinning records this surface&apos;s fingerprint; a later inspection that
          differs is blocked until a reviewer re-pins it.
        </p>
      )}
      {view.otherPins && view.otherPins.length > 0 && (
        <OtherPins view={view} revision={revision} isBusy={isBusy} />
      )}
      {comparison?.status === "incomparable" && (
        <p className="small">
          Pinned with <span className="mono">{comparison.pinned.join(", ") || "none"}</span>;
          inspected with <span className="mono">{comparison.inspected.join(", ") || "none"}</span>.
        </p>
      )}
      {comparison?.status === "mismatch" && (
        <div className="stack">
          <h4 style={{ margin: 0 }}>What changed since the pin</h4>
          {view.diff ? (
            <DiffView diff={view.diff} />
          ) : comparison.names ? (
            <NameDiffView names={comparison.names} />
          ) : (
            <p className="small muted">
              {view.pinnedSnapshot && !view.pinnedSnapshot.found
                ? view.pinnedSnapshot.reason
                : "No item-level detail is available."}
            </p>
          )}
        </div>
      )}
      {current && (
        <form
          className="stack pin-form"
          aria-label={isRepin ? "Re-pin this surface" : "Pin this surface"}
          onSubmit={(e) => {
            e.preventDefault();
            mutation.mutate();
          }}
        >
          <div className="grid-2">
            <label className="field">
              <span className="label-text">
                {needsReason
                  ? "Reason (required: what changed and why it is acceptable)"
                  : "Reason (optional)"}
              </span>
              <textarea
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                required={needsReason}
                maxLength={4000}
                rows={2}
              />
            </label>
            <label className="field">
              <span className="label-text">On surface change</span>
              <select
                value={onChange}
                onChange={(e) => setOnChange(e.target.value === "warn" ? "warn" : "block")}
              >
                <option value="block">block (default)</option>
                <option value="warn">warn</option>
              </select>
            </label>
          </div>
          <div className="row">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={
                !canPin || isBusy || mutation.isPending || (needsReason && reason.trim() === "")
              }
            >
              {isRepin ? "Re-pin to this surface" : "Pin this surface"}
            </button>
            <span className="small muted mono">{current.snapshot.surfaceSha256.slice(0, 16)}…</span>
            {mutation.isError && (
              <span className="field-error" role="alert">
                {mutation.error.message}
              </span>
            )}
          </div>
        </form>
      )}
    </section>
  );
}

/**
 * The server's pins of other eras and credentials (issue 30): each is compared only with a surface
 * listed in its own context, so none of them is the pin above. Each can be removed with a reason
 * (audited); the server keeps at least one pin, and the one the current surface is compared with
 * is re-pinned, never removed (the route refuses both).
 */
function OtherPins({
  view,
  revision,
  isBusy,
}: {
  view: SurfaceView;
  revision: number;
  isBusy: boolean;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const mutation = useMutation({
    mutationFn: (pin: { surfaceSha256: string; pinnedAt: string }) =>
      removePin(view.reviewId, view.serverId, {
        surfaceSha256: pin.surfaceSha256,
        pinnedAt: pin.pinnedAt,
        reason,
        baseRevision: revision,
      }),
    onSuccess: (res) => {
      queryClient.setQueryData(reviewKeys.detail(view.reviewId), res.record);
      setReason("");
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: surfaceKeys.server(view.reviewId, view.serverId) }),
  });
  const others = view.otherPins ?? [];
  const lastPin = others.length === 1 && view.pin === null;
  return (
    <div className="stack" data-testid="other-pins">
      <h4 style={{ margin: 0 }}>Pins of other eras and credentials ({others.length})</h4>
      <p className="small muted" style={{ margin: 0 }}>
        Each is compared only with a surface listed in its own era and under its own credential.
      </p>
      <table className="data small" aria-label="Pins of other eras and credentials">
        <thead>
          <tr>
            <th scope="col">Era</th>
            <th scope="col">Credential</th>
            <th scope="col">Fingerprint</th>
            <th scope="col">Pinned</th>
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {others.map(({ pin, context }) => {
            return (
              <tr key={`${pin.pinnedAt}:${pin.surfaceSha256}`}>
                <td>
                  {pin.era === undefined ? "any" : pin.era === "2026" ? "2026-07-28" : "2025"}
                </td>
                <td className="server-text">
                  {pin.credential ? credentialText(pin.credential) : "any credential"}
                </td>
                <td className="mono" title={pin.surfaceSha256}>
                  {pin.surfaceSha256.slice(0, 12)}…
                </td>
                <td>
                  {pin.pinnedBy}, {utcMinute(pin.pinnedAt)}
                </td>
                <td>
                  <button
                    type="button"
                    className="btn"
                    disabled={isBusy || mutation.isPending || lastPin}
                    aria-label={`Remove the pin of ${context}`}
                    onClick={() => mutation.mutate(pin)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <label className="field">
        <span className="label-text">
          Reason for a removal (optional, recorded in the audit log)
        </span>
        <input value={reason} maxLength={4000} onChange={(e) => setReason(e.target.value)} />
      </label>
      {mutation.isError && (
        <span className="field-error" role="alert">
          {mutation.error.message}
        </span>
      )}
    </div>
  );
}
