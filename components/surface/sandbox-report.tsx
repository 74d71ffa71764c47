"use client";

import { RevealedText } from "@/components/surface/revealed-text";
import type { EgressReport } from "@/lib/sandbox/egress";
import type { SandboxAttempt, SandboxReport } from "@/lib/sandbox/plan";
import { summarizeSandbox } from "@/lib/sandbox/report-summary";

const RESULT_WORDS: Record<string, string> = {
  ENOENT: "not in the sandbox's view",
  ENOTDIR: "not in the sandbox's view",
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "read-only",
  ECONNREFUSED: "refused (nothing listens in the sandbox)",
  ENETUNREACH: "no route (the sandbox has no network)",
  EHOSTUNREACH: "no route (the sandbox has no network)",
  EINPROGRESS: "no answer",
  ok: "allowed",
};

const KIND_WORDS: Record<SandboxAttempt["kind"], string> = {
  connect: "connect",
  send: "send to",
  open: "open",
  exec: "run",
};

function resultWords(a: SandboxAttempt, hasEgress: boolean): string {
  if (a.kind === "connect" && a.result === "ok")
    return hasEgress && a.target === "127.0.0.1:3128"
      ? "the workbench's egress proxy (what went through it is listed under Egress)"
      : "connected inside the sandbox (its own loopback)";
  return RESULT_WORDS[a.result] ?? a.result;
}

const bytes = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${(n / 1048576).toFixed(1)} MiB`;

/**
 * Every request the server made through the workbench's egress proxy, allowed or refused, with
 * the grant that admitted it or the reason it was refused. Destinations are the server's text.
 */
function EgressView({ egress }: { egress: EgressReport }) {
  const l = egress.limits;
  return (
    <section
      className="stack"
      aria-label="Egress"
      data-testid="sandbox-egress"
      style={{ gap: "0.5rem" }}
    >
      <h6 style={{ margin: 0 }}>Egress</h6>
      <dl className="kv">
        <dt>Granted</dt>
        <dd className="small mono" data-testid="sandbox-egress-grants">
          {egress.grants.join(", ")}
        </dd>
        <dt>How</dt>
        <dd className="small">
          only through the workbench&apos;s proxy, which the server was told of in HTTP_PROXY,
          HTTPS_PROXY and ALL_PROXY (<span className="mono">{egress.proxy}</span>); a client that
          ignores them has no network
        </dd>
        <dt>Limits</dt>
        <dd className="small mono" data-testid="sandbox-egress-limits">
          {l.connections} connections at once · {l.requests} requests · {l.totalMiB} MiB · idle{" "}
          {l.idleSeconds} s · connect {l.connectSeconds} s
        </dd>
      </dl>
      {egress.attempts.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }}>
          The server made no request through the proxy.
        </p>
      ) : (
        <table className="data compact" aria-label="Egress through the workbench's proxy">
          <thead>
            <tr>
              <th>Request</th>
              <th>Destination</th>
              <th>Decision</th>
              <th>Why</th>
              <th className="num">Sent / received</th>
              <th className="num">Times</th>
            </tr>
          </thead>
          <tbody>
            {egress.attempts.map((a) => (
              <tr
                key={JSON.stringify([a.via, a.target, a.decision, a.reason, a.address, a.outcome])}
                data-testid={`sandbox-egress-${a.decision}`}
              >
                <td className="mono">
                  <RevealedText text={a.via} className="mono" />
                </td>
                <td className="mono break">
                  <RevealedText text={a.target} className="mono" />
                  {a.address && a.address !== a.target.replace(/:\d+$/, "") && (
                    <span className="muted"> ({a.address})</span>
                  )}
                </td>
                <td>
                  <span
                    className={`badge ${a.decision === "allowed" ? "badge-warn" : "badge-neutral"}`}
                  >
                    {a.decision}
                  </span>
                </td>
                <td className="small break">
                  <RevealedText text={a.reason} />
                  {a.outcome && <span className="muted"> · ended: {a.outcome}</span>}
                </td>
                <td className="num small">
                  {bytes(a.bytesSent)} / {bytes(a.bytesReceived)}
                </td>
                <td className="num">{a.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {egress.droppedAttempts > 0 && (
        <p className="small muted" style={{ margin: 0 }}>
          {egress.droppedAttempts} further distinct requests are not listed.
        </p>
      )}
    </section>
  );
}

/**
 * What the sandbox let a stdio server see and what it tried: the evidence of a run, shown beside
 * the surface. Paths and addresses are the server's own text, so they render through RevealedText.
 */
export function SandboxReportView({ report }: { report: SandboxReport }) {
  if (!report.sandboxed) {
    return (
      <div className="callout danger" role="alert" data-testid="sandbox-report">
        <strong>Ran without a sandbox.</strong> {report.reason}
      </div>
    );
  }
  const l = report.limits;
  const summary = summarizeSandbox(report);
  return (
    <section
      className="stack"
      aria-label="Sandbox"
      data-testid="sandbox-report"
      style={{ gap: "0.5rem" }}
    >
      <h5 style={{ margin: 0 }}>Sandbox</h5>
      <p className="small" style={{ margin: 0 }} data-testid="sandbox-lead">
        {summary.lead}
      </p>
      <dl className="kv">
        <dt>Ran in</dt>
        <dd className="small">
          {report.mechanism}: its own user (nobody inside, a host uid of its own), processes and
          files, no nested namespaces, a seccomp filter; network: {report.network}
          {report.egress
            ? ", and egress only through the workbench's proxy, to what its launcher grants"
            : " (no network)"}
        </dd>
        <dt>Limits</dt>
        <dd className="small mono" data-testid="sandbox-limits">
          memory {l.memoryMiB} MiB · CPU {l.cpuSeconds} s · processes {l.processes} · file size{" "}
          {l.fileSizeMiB} MiB · open files {l.openFiles} · /tmp, HOME and /dev/shm {l.tmpMiB} MiB
          each
        </dd>
        {report.totalBound && (
          <>
            <dt>Whole sandbox</dt>
            <dd className="small" data-testid="sandbox-total-bound">
              {report.totalBound.enforced
                ? `${report.totalBound.memoryMiB} MiB and ${report.totalBound.processes} processes in all (${report.totalBound.by})`
                : `not bounded as a whole, only per process: ${report.totalBound.reason}`}
            </dd>
          </>
        )}
        <dt>Could read</dt>
        <dd className="small mono">
          <details>
            <summary>
              {report.visible.length} host paths, read-only; a private /tmp and HOME
            </summary>
            <ul style={{ margin: 0 }}>
              {report.visible.map((p) => (
                <li key={p}>
                  <RevealedText text={p} className="mono" />
                </li>
              ))}
            </ul>
          </details>
        </dd>
      </dl>
      {!report.traced ? (
        <p className="small muted" style={{ margin: 0 }}>
          {report.traceNote}
        </p>
      ) : summary.listed.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }} data-testid="sandbox-no-attempts">
          The server tried nothing the sandbox refused
          {summary.benign.length > 0 ? " beyond the benign misses below" : ""}.
        </p>
      ) : (
        <table className="data compact" aria-label="What the server tried">
          <thead>
            <tr>
              <th>Tried to</th>
              <th>What</th>
              <th>Result</th>
              <th className="num">Times</th>
            </tr>
          </thead>
          <tbody>
            {summary.listed.map((a) => (
              <tr
                key={`${a.kind}\u0000${a.target}\u0000${a.result}\u0000${a.write ? "w" : ""}`}
                data-testid={`sandbox-attempt-${a.kind}`}
              >
                <td>
                  {KIND_WORDS[a.kind]}
                  {a.write ? " (write)" : ""}
                </td>
                <td className="mono break">
                  <RevealedText text={a.target} className="mono" />
                </td>
                <td className="small">
                  <span className="mono">{a.result}</span>{" "}
                  {resultWords(a, !!report.egress) !== a.result && (
                    <span className="muted">{resultWords(a, !!report.egress)}</span>
                  )}
                </td>
                <td className="num">{a.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report.traced && summary.benign.length > 0 && (
        <details data-testid="sandbox-benign">
          <summary className="small">
            {summary.benign.length} benign misses ({summary.benignCount} lookups): files a Node
            server probes for that are not in its view (loader, tsx cache, cgroup)
          </summary>
          <ul className="small mono" style={{ margin: 0 }}>
            {summary.benign.map((a) => (
              <li key={`${a.target}\u0000${a.result}`}>
                <RevealedText text={a.target} className="mono" /> {a.result} ×{a.count}
              </li>
            ))}
          </ul>
        </details>
      )}
      {report.traced && (
        <p className="small muted" style={{ margin: 0 }}>
          {report.notFoundInView > 0 &&
            `${report.notFoundInView} lookups of files that do not exist on the host either are left out. `}
          {report.droppedAttempts > 0 &&
            `${report.droppedAttempts} further distinct attempts are not listed. `}
          {report.truncated && "The trace reached its size bound; later attempts are not recorded."}
        </p>
      )}
      {report.egress && <EgressView egress={report.egress} />}
    </section>
  );
}
