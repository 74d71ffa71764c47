"use client";

import { RevealedText } from "@/components/surface/revealed-text";
import type { SandboxAttempt, SandboxReport } from "@/lib/mcp/sandbox-plan";

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
  open: "open",
  exec: "run",
};

function resultWords(a: SandboxAttempt): string {
  if (a.kind === "connect" && a.result === "ok")
    return "connected inside the sandbox (its own loopback)";
  return RESULT_WORDS[a.result] ?? a.result;
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
  return (
    <section
      className="stack"
      aria-label="Sandbox"
      data-testid="sandbox-report"
      style={{ gap: "0.5rem" }}
    >
      <h5 style={{ margin: 0 }}>Sandbox</h5>
      <dl className="kv">
        <dt>Ran in</dt>
        <dd className="small">
          {report.mechanism}: its own user (nobody), processes and files; network: {report.network}
        </dd>
        <dt>Limits</dt>
        <dd className="small mono" data-testid="sandbox-limits">
          memory {l.memoryMiB} MiB · CPU {l.cpuSeconds} s · processes {l.processes} · file size{" "}
          {l.fileSizeMiB} MiB · open files {l.openFiles} · /tmp and HOME {l.tmpMiB} MiB each
        </dd>
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
      ) : report.attempts.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }} data-testid="sandbox-no-attempts">
          The server tried nothing the sandbox refused.
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
            {report.attempts.map((a) => (
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
                  {resultWords(a) !== a.result && <span className="muted">{resultWords(a)}</span>}
                </td>
                <td className="num">{a.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
    </section>
  );
}
