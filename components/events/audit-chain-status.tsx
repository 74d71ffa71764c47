"use client";
/**
 * The audit chain's state, checked on request (GET /api/audit/verify walks every row and signed
 * head, so it is not run on each page load): intact with how many rows and signed heads, or the
 * first break named by row. `relay-review audit verify` checks an export with a key the operator
 * brings, so this answer is a convenience, not the evidence.
 */
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { AuditVerifyResponseSchema, type AuditVerifyResponse } from "@/lib/audit/api";

export function AuditChainStatus() {
  const [verdict, setVerdict] = useState<AuditVerifyResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    setError(null);
    try {
      setVerdict(await apiFetch("/api/audit/verify", AuditVerifyResponseSchema));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card stack" aria-label="Audit chain" data-testid="audit-chain">
      <div className="row">
        <strong>Audit chain</strong>
        <span className="small muted">
          Every event carries the hash of the one before it; the head is signed with the workbench
          key.
        </span>
        <span className="spacer" />
        <button type="button" className="btn" onClick={() => void verify()} disabled={isBusy}>
          {isBusy ? "Verifying…" : "Verify the chain"}
        </button>
      </div>
      {error && (
        <div className="callout danger small" role="alert">
          Could not verify: {error}
        </div>
      )}
      {verdict && verdict.isIntact && (
        <div className="callout small" role="status" data-state="intact">
          Intact: {verdict.rows} events, {verdict.signedHeads} signed head
          {verdict.signedHeads === 1 ? "" : "s"} (key {verdict.keyId.slice(0, 16)}…)
          {verdict.rowsAfterLastSignedHead > 0 &&
            `; the last ${verdict.rowsAfterLastSignedHead} event${verdict.rowsAfterLastSignedHead === 1 ? " is" : "s are"} not yet under a signed head, so their removal from the end would not show until the next one`}
          .
        </div>
      )}
      {verdict && !verdict.isIntact && verdict.firstBreak && (
        <div className="callout danger small" role="alert" data-state="broken">
          <strong>Broken</strong>
          {verdict.firstBreak.seq !== null && ` at event ${verdict.firstBreak.seq}`} (
          {verdict.firstBreak.kind}): {verdict.firstBreak.message}
        </div>
      )}
    </section>
  );
}
