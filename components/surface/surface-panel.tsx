"use client";

import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "@/components/api-client";
import { analysisKeys, oauthKeys, surfaceKeys } from "@/components/query-keys";
import {
  ItemBrowser,
  PromptDetail,
  RejectDetail,
  ResourceDetail,
  ToolDetail,
} from "@/components/surface/items";
import { AppsPanel } from "@/components/surface/apps-panel";
import { FlagList } from "@/components/surface/flags";
import { LimitsForm, limitOverrides, type LimitDraft } from "@/components/surface/limits-form";
import { CredentialSurfaces } from "@/components/surface/credential-surfaces";
import { PinPanel } from "@/components/surface/pin-panel";
import { InspectErrorCallout, ProgressList } from "@/components/surface/progress";
import {
  streamInspection,
  surfaceOptions,
  type InspectResultLine,
} from "@/components/surface/queries";
import { Absent, RevealedText } from "@/components/surface/revealed-text";
import { SamplePanel } from "@/components/surface/sample-panel";
import { SandboxReportView } from "@/components/surface/sandbox-report";
import type { InspectError, InspectProgress } from "@/lib/mcp/types";
import type { RelayServer, Review } from "@/lib/review/schema";
import type { SuspiciousFlag } from "@/lib/surface/suspicious";
import type { SurfaceList } from "@/lib/surface/types";
import type { SurfaceView } from "@/lib/workbench/surface-api";
import "./surface.css";
import { utcSecond } from "@/lib/format/utc-time";

type Run =
  | { phase: "idle" }
  | { phase: "running"; events: InspectProgress[] }
  | { phase: "done"; events: InspectProgress[]; result: InspectResultLine }
  | {
      phase: "refused";
      events: InspectProgress[];
      message: string;
      launcherFile: string | null;
      secretsPage: string | null;
    }
  | { phase: "broken"; events: InspectProgress[]; message: string };

type Tab = SurfaceList | "rejects";
const TABS: { id: Tab; label: string }[] = [
  { id: "tools", label: "Tools" },
  { id: "resources", label: "Resources" },
  { id: "resourceTemplates", label: "Templates" },
  { id: "prompts", label: "Prompts" },
  { id: "rejects", label: "Rejected" },
];

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-ghost small"
      aria-label={label}
      onClick={() => {
        // clipboard may be refused (permissions); the hex stays selectable either way
        void navigator.clipboard
          .writeText(text)
          .then(() => setCopied(true))
          .catch(() => setCopied(false));
      }}
    >
      {copied ? "Copied" : "Copy"}
    </button>
  );
}

function SurfaceBody({ view }: { view: SurfaceView }) {
  const [tab, setTab] = useState<Tab>("tools");
  const current = view.current!;
  const s = current.snapshot;
  const flagsFor = (list: SurfaceList | "instructions", key: string) =>
    view.flags.filter((f) => f.list === list && f.key === key);
  const counts: Record<Tab, number> = {
    tools: s.tools.length,
    resources: s.resources.length,
    resourceTemplates: s.resourceTemplates.length,
    prompts: s.prompts.length,
    rejects: s.rejects.length,
  };
  const count = (list: SurfaceList, key: string) =>
    view.flags.filter((f: SuspiciousFlag) => f.list === list && f.key === key).length;
  return (
    <div className="stack">
      <dl className="kv">
        <dt>Fingerprint</dt>
        <dd className="row" style={{ gap: "0.25rem" }}>
          <code className="break" data-testid="surface-fingerprint">
            {s.surfaceSha256}
          </code>
          <CopyButton text={s.surfaceSha256} label="Copy fingerprint" />
        </dd>
        <dt>Server</dt>
        <dd>
          <RevealedText text={`${s.serverInfo.name} ${s.serverInfo.version}`} className="mono" />
          {s.serverInfo.title !== undefined && (
            <>
              {" "}
              (<RevealedText text={s.serverInfo.title} />)
            </>
          )}{" "}
          <span className="small muted">
            over {s.transport}, protocol {s.protocolVersion} ({s.era ?? "2025"} era)
          </span>
        </dd>
        <dt>Inspected</dt>
        <dd className="small">
          {utcSecond(s.inspectedAt)} in {Math.round(s.durationMs)} ms;{" "}
          {s.settle.listChangedNotifications} list_changed notifications
        </dd>
        <dt>Declared client capabilities</dt>
        <dd className="mono small">{s.declaredCapabilities.join(", ") || "none"}</dd>
        <dt>Server capabilities</dt>
        <dd className="mono small">{Object.keys(s.capabilities).join(", ") || "none"}</dd>
        <dt>Instructions</dt>
        <dd>
          {s.instructions === null ? (
            <Absent what="none sent" />
          ) : (
            <RevealedText text={s.instructions} />
          )}
        </dd>
      </dl>
      {s.instructions !== null && (
        <FlagList flags={flagsFor("instructions", "")} label="the instructions" />
      )}
      <AppsPanel snapshot={s} />
      <div className="subtabs" role="tablist" aria-label="Surface lists">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            onClick={() => setTab(t.id)}
            className="subtab"
          >
            {t.label} <span className="count">{counts[t.id]}</span>
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TABS.find((t) => t.id === tab)!.label}>
        {tab === "tools" && (
          <ItemBrowser
            items={s.tools}
            label="tools"
            keyOf={(t) => t.name}
            titleOf={(t) => t.title}
            flagCount={(t) => count("tools", t.name)}
            renderDetail={(t) => (
              <ToolDetail key={t.name} tool={t} flags={flagsFor("tools", t.name)} />
            )}
          />
        )}
        {tab === "resources" && (
          <ItemBrowser
            items={s.resources}
            label="resources"
            keyOf={(r) => r.uri}
            titleOf={(r) => r.name}
            flagCount={(r) => count("resources", r.uri)}
            renderDetail={(r) => (
              <ResourceDetail key={r.uri} item={r} flags={flagsFor("resources", r.uri)} />
            )}
          />
        )}
        {tab === "resourceTemplates" && (
          <ItemBrowser
            items={s.resourceTemplates}
            label="resource templates"
            keyOf={(r) => r.uriTemplate}
            titleOf={(r) => r.name}
            flagCount={(r) => count("resourceTemplates", r.uriTemplate)}
            renderDetail={(r) => (
              <ResourceDetail
                key={r.uriTemplate}
                item={r}
                flags={flagsFor("resourceTemplates", r.uriTemplate)}
              />
            )}
          />
        )}
        {tab === "prompts" && (
          <ItemBrowser
            items={s.prompts}
            label="prompts"
            keyOf={(p) => p.name}
            titleOf={(p) => p.title}
            flagCount={(p) => count("prompts", p.name)}
            renderDetail={(p) => (
              <PromptDetail key={p.name} item={p} flags={flagsFor("prompts", p.name)} />
            )}
          />
        )}
        {tab === "rejects" && (
          <ItemBrowser
            items={s.rejects}
            label="rejected items"
            keyOf={(r, i) => `${r.list} #${i + 1}: ${r.reason}`}
            flagCount={() => 0}
            renderDetail={(r, i) => <RejectDetail key={i} reject={r} />}
          />
        )}
      </div>
    </div>
  );
}

/** The per-server live-surface panel: inspect with progress, the surface, pin state, drift. */
export function SurfacePanel({
  reviewId,
  server,
  revision,
  review,
}: {
  reviewId: string;
  server: RelayServer;
  revision: number;
  /** The review document, for the tools it lets a reviewer sample (absent: no sampling panel). */
  review?: Review;
}) {
  const queryClient = useQueryClient();
  const query = useQuery(surfaceOptions(reviewId, server.id, revision));
  const [run, setRun] = useState<Run>({ phase: "idle" });
  const [limits, setLimits] = useState<LimitDraft>({});
  const abortRef = useRef<AbortController | null>(null);
  useEffect(() => () => abortRef.current?.abort(), []);

  const isRunning = run.phase === "running";
  const events = run.phase === "idle" ? [] : run.events;

  const inspect = async () => {
    const controller = new AbortController();
    abortRef.current = controller;
    const seen: InspectProgress[] = [];
    setRun({ phase: "running", events: seen });
    const overrides = limitOverrides(limits);
    try {
      const result = await streamInspection(
        reviewId,
        server.id,
        Object.keys(overrides).length ? { limits: overrides } : {},
        {
          signal: controller.signal,
          onLine: (line) => {
            if (line.type !== "progress") return;
            seen.push(line.event);
            setRun({ phase: "running", events: [...seen] });
          },
        },
      );
      setRun({ phase: "done", events: [...seen], result });
    } catch (error) {
      if (controller.signal.aborted) {
        setRun({
          phase: "broken",
          events: [...seen],
          message:
            "Cancelled. The server was stopped; the cancelled inspection is recorded as failed.",
        });
      } else if (error instanceof ApiError && error.status === 422) {
        const file = error.body?.error.details?.launcherFile;
        const secrets = error.body?.error.details?.secretsPage;
        setRun({
          phase: "refused",
          events: [...seen],
          message: error.message,
          launcherFile: typeof file === "string" ? file : null,
          secretsPage: secrets === "/secrets" ? secrets : null,
        });
      } else {
        setRun({
          phase: "broken",
          events: [...seen],
          message: error instanceof Error ? error.message : String(error),
        });
      }
    } finally {
      abortRef.current = null;
      await queryClient.invalidateQueries({ queryKey: surfaceKeys.server(reviewId, server.id) });
      await queryClient.invalidateQueries({ queryKey: analysisKeys.review(reviewId) });
      // A 401 shows Connect on the card; a refresh during the inspection moves the expiry.
      await queryClient.invalidateQueries({ queryKey: oauthKeys.server(reviewId, server.id) });
    }
  };

  const view = query.data;
  const latest = view?.latest;
  const latestError: InspectError | null = latest?.status === "failed" ? latest.error : null;
  const streamError = run.phase === "done" && !run.result.ok ? run.result.error : null;

  return (
    <section
      className="surface-panel stack"
      aria-label={`Live surface of ${server.name}`}
      data-testid={`surface-${server.id}`}
    >
      <div className="row" style={{ justifyContent: "space-between", alignItems: "flex-start" }}>
        <div className="stack" style={{ gap: "0.25rem" }}>
          <h4 style={{ margin: 0 }}>Live surface</h4>
          <span className="small muted">
            {latest
              ? `Last inspected ${utcSecond(latest.inspectedAt)} (${latest.status === "ok" ? "ok" : "failed"})`
              : "Never inspected."}
          </span>
        </div>
        <div className="row">
          {view?.blocked.isBlocked && <span className="badge badge-danger">BLOCKED</span>}
          {isRunning ? (
            <button type="button" className="btn" onClick={() => abortRef.current?.abort()}>
              Cancel inspection
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              onClick={
                () => void inspect() /* every outcome lands in `run`; nothing to await here */
              }
              aria-label={`Inspect ${server.name}`}
            >
              Inspect
            </button>
          )}
        </div>
      </div>
      <LimitsForm draft={limits} onChange={setLimits} disabled={isRunning} />
      {events.length > 0 && <ProgressList events={events} isRunning={isRunning} />}
      {run.phase === "refused" && (
        <div className="callout danger" role="alert" data-testid="inspect-refused">
          <strong>Not inspected.</strong> <RevealedText text={run.message} />
          {run.launcherFile && (
            <div className="small">
              The workbench owner lists runnable commands in {run.launcherFile}.
            </div>
          )}
          {run.secretsPage && (
            <div className="small">
              <Link href={run.secretsPage}>Set the value on the Secrets page</Link>; the next
              inspection uses it, with no restart.
            </div>
          )}
        </div>
      )}
      {run.phase === "broken" && (
        <div className="callout warn" role="alert">
          {run.message}
        </div>
      )}
      {streamError ? (
        <InspectErrorCallout error={streamError} />
      ) : (
        run.phase !== "running" &&
        latestError && (
          <InspectErrorCallout
            error={latestError}
            when={latest ? `(${utcSecond(latest.inspectedAt)})` : undefined}
          />
        )
      )}
      {query.isPending && <div className="skeleton" style={{ height: "6rem" }} aria-busy="true" />}
      {query.isError && (
        <div className="callout danger" role="alert">
          Could not load the surface: {query.error.message}
        </div>
      )}
      {view && (
        <>
          {view.snapshotProblem && <div className="callout warn">{view.snapshotProblem}</div>}
          {(view.current || view.pin) && (
            <PinPanel
              key={`${revision}:${view.current?.snapshot.surfaceSha256 ?? ""}`}
              view={view}
              revision={revision}
              isBusy={isRunning}
            />
          )}
          {view.current && (
            <CredentialSurfaces
              reviewId={view.reviewId}
              serverId={view.serverId}
              revision={revision}
            />
          )}
          {view.current ? (
            <>
              {latestError && (
                <p className="small muted" style={{ margin: 0 }}>
                  Below: the last successful inspection (
                  {utcSecond(view.current.inspection.inspectedAt)}
                  ).
                </p>
              )}
              <SurfaceBody view={view} />
              {review && <SamplePanel reviewId={reviewId} serverId={server.id} review={review} />}
            </>
          ) : (
            !isRunning && (
              <p className="small muted">
                Inspect to connect for real and list every tool, resource, template and prompt.
              </p>
            )
          )}
          {/* Evidence of the run, below the surface and the Pin box it would otherwise push down. */}
          {view.latest?.sandbox && !isRunning && <SandboxReportView report={view.latest.sandbox} />}
        </>
      )}
    </section>
  );
}
