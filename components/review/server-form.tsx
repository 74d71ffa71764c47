"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { fieldIssuesFromZod } from "@/lib/errors";
import { ListLaunchersResponseSchema, type LauncherChoice } from "@/lib/sandbox/launcher-choices";
import { newId } from "@/lib/ids";
import {
  elicitationUrlHostsText,
  parseElicitationUrlHostsText,
} from "@/lib/review/elicitation-url-hosts";
import { RelayServerSchema, type RelayServer } from "@/lib/review/schema";
import { isRemote, isRemoteTransport, type ServerTransportKind } from "@/lib/transport-kind";

type Draft = {
  name: string;
  kind: ServerTransportKind;
  command: string;
  args: string;
  envNames: string;
  url: string;
  headerEnv: string;
  imageDigest: string;
  declaredTools: string;
  elicitationUrlHosts: string;
  hostRendersApps: boolean;
};

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

function toDraft(s: RelayServer | null): Draft {
  const t = s?.transport;
  return {
    name: s?.name ?? "",
    kind: t?.kind ?? "stdio",
    command: t?.kind === "stdio" ? t.command : "node",
    args: t?.kind === "stdio" ? t.args.join("\n") : "",
    envNames: t?.kind === "stdio" ? t.envNames.join(", ") : "",
    url: isRemoteTransport(t) ? t.url : "http://127.0.0.1:",
    headerEnv: isRemoteTransport(t)
      ? Object.entries(t.headerEnv)
          .map(([h, e]) => `${h}=${e}`)
          .join("\n")
      : "",
    imageDigest: s?.imageDigest ?? "",
    declaredTools: (s?.declaredTools ?? [])
      .map((t) => (t.description ? `${t.name} — ${t.description}` : t.name))
      .join("\n"),
    elicitationUrlHosts: elicitationUrlHostsText(s?.elicitationUrlHosts ?? []),
    hostRendersApps: s?.hostRendersApps === true,
  };
}

function fromDraft(id: string, d: Draft, previous: RelayServer | null, hosts: string[]) {
  const transport =
    d.kind === "stdio"
      ? {
          kind: "stdio",
          command: d.command,
          args: lines(d.args),
          envNames: d.envNames
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : d.kind === "manual"
        ? { kind: "manual" }
        : {
            kind: d.kind,
            url: d.url.trim(),
            headerEnv: Object.fromEntries(
              lines(d.headerEnv).map((l) => l.split("=").map((p) => p.trim()) as [string, string]),
            ),
          };
  const previousTools = new Map((previous?.declaredTools ?? []).map((t) => [t.name, t]));
  const declaredTools = lines(d.declaredTools).map((line) => {
    const [name = "", ...rest] = line.split(" — ");
    const description = rest.join(" — ");
    const before = previousTools.get(name.trim());
    return {
      name: name.trim(),
      description,
      ...(before?.annotations ? { annotations: before.annotations } : {}),
      // The form edits names and descriptions; the schemas a tool was declared with stay.
      ...(before?.inputSchema ? { inputSchema: before.inputSchema } : {}),
      ...(before?.outputSchema ? { outputSchema: before.outputSchema } : {}),
    };
  });
  return RelayServerSchema.safeParse({
    ...(previous ?? {}),
    id,
    name: d.name,
    transport,
    imageDigest: d.imageDigest.trim() || null,
    declaredTools,
    elicitationUrlHosts: hosts,
    // Written only when on (or when turning it off), so saving an untouched entry adds nothing.
    ...(d.hostRendersApps || previous?.hostRendersApps !== undefined
      ? { hostRendersApps: d.hostRendersApps }
      : {}),
  });
}

/** The launcher allowlist the register form picks from (names, command lines and egress only). */
const launchersQuery = {
  queryKey: ["launchers"] as const,
  queryFn: () => apiFetch("/api/launchers", ListLaunchersResponseSchema),
  staleTime: 60_000,
};

/** Which allowlisted launcher a draft's command line is, if any. */
const launcherOf = (launchers: readonly LauncherChoice[], d: Draft) =>
  launchers.find(
    (l) =>
      l.command === d.command.trim() &&
      l.args.length === lines(d.args).length &&
      l.args.every((a, i) => a === lines(d.args)[i]),
  );

/** Register or edit a relay server. Secrets are never entered here: only the names of variables holding them. */
export function ServerForm(props: {
  server: RelayServer | null;
  isSaving: boolean;
  onSubmit: (server: RelayServer) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(props.server));
  const [errors, setErrors] = useState<string[]>([]);
  const [id] = useState(() => props.server?.id ?? newId("srv"));
  const launchers = useQuery(launchersQuery);
  const choices = launchers.data?.launchers ?? [];
  const picked = launcherOf(choices, draft);
  const pick = (launcherId: string) => {
    const l = choices.find((c) => c.id === launcherId);
    if (!l) return;
    setDraft((d) => ({
      ...d,
      kind: "stdio",
      name: d.name.trim() ? d.name : l.id,
      command: l.command,
      args: l.args.join("\n"),
      envNames: l.envNames.join(", "),
    }));
  };
  const hostsRead = parseElicitationUrlHostsText(draft.elicitationUrlHosts);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (hostsRead.error !== null) {
      setErrors([`URL elicitation hosts: ${hostsRead.error}`]);
      return;
    }
    const parsed = fromDraft(id, draft, props.server, hostsRead.hosts);
    if (!parsed.success) {
      setErrors(fieldIssuesFromZod(parsed.error.issues).map((i) => `${i.path}: ${i.message}`));
      return;
    }
    setErrors([]);
    if (await props.onSubmit(parsed.data)) props.onCancel();
  };

  const heading = props.server ? `Edit ${props.server.name}` : "Register a relay server";
  return (
    <form className="card stack" onSubmit={(e) => void submit(e)} aria-label={heading}>
      <h3>{heading}</h3>
      <div className="grid-2">
        <label className="field">
          <span className="label-text">Name</span>
          <input value={draft.name} onChange={(e) => set("name", e.target.value)} autoFocus />
        </label>
        <label className="field">
          <span className="label-text">How to reach it</span>
          <select value={draft.kind} onChange={(e) => set("kind", e.target.value as Draft["kind"])}>
            <option value="stdio">
              stdio command (must be on the owner&apos;s launcher allowlist)
            </option>
            <option value="http">Streamable HTTP URL (falls back to SSE)</option>
            <option value="sse">Legacy SSE URL</option>
            <option value="manual">Not under review: tools entered by hand</option>
          </select>
        </label>
      </div>
      {draft.kind === "stdio" && (
        <div className="stack" style={{ gap: "0.25rem" }}>
          <label className="field">
            <span className="label-text">Launcher from the allowlist</span>
            <select
              value={picked?.id ?? ""}
              onChange={(e) => pick(e.target.value)}
              disabled={choices.length === 0}
            >
              <option value="">
                {launchers.isPending
                  ? "loading the allowlist…"
                  : choices.length === 0
                    ? "no launcher is allowlisted"
                    : "pick a launcher, or type the command below"}
              </option>
              {choices.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
          <span className="small muted" data-testid="launcher-picked">
            {picked
              ? `${picked.id}: ${picked.envNames.length > 0 ? `receives ${picked.envNames.join(", ")} from the secret store; ` : ""}network: ${picked.egress.length > 0 ? picked.egress.join(", ") : "none (offline)"}`
              : launchers.data?.problem
                ? `The allowlist could not be read: ${launchers.data.problem}`
                : "A command that matches no launcher is refused when inspected."}
          </span>
        </div>
      )}
      {draft.kind === "stdio" && (
        <div className="grid-3">
          <label className="field">
            <span className="label-text">Command</span>
            <input
              className="mono"
              value={draft.command}
              onChange={(e) => set("command", e.target.value)}
            />
          </label>
          <label className="field">
            <span className="label-text">Arguments, one per line</span>
            <textarea
              className="mono"
              value={draft.args}
              onChange={(e) => set("args", e.target.value)}
              rows={3}
            />
          </label>
          <label className="field">
            <span className="label-text">
              Environment variable names (values stay on the server)
            </span>
            <input
              className="mono"
              value={draft.envNames}
              onChange={(e) => set("envNames", e.target.value)}
              placeholder="TRACKER_TOKEN, WIKI_URL"
            />
          </label>
        </div>
      )}
      {draft.kind !== "manual" && (
        <p className="small muted" style={{ margin: 0 }}>
          Never type a secret here: write{" "}
          <span className="mono">
            ${"{"}NAME{"}"}
          </span>{" "}
          where a token goes (an argument, a URL query) and set NAME on the{" "}
          <a href="/secrets">Secrets page</a>; a review that holds a token, a password or URL
          credentials is refused.
        </p>
      )}
      {isRemote(draft.kind) && (
        <div className="grid-2">
          <label className="field">
            <span className="label-text">URL</span>
            <input
              className="mono"
              type="url"
              value={draft.url}
              onChange={(e) => set("url", e.target.value)}
            />
          </label>
          <label className="field">
            <span className="label-text">
              Headers from variables, one per line: Header=VARIABLE
            </span>
            <textarea
              className="mono"
              value={draft.headerEnv}
              onChange={(e) => set("headerEnv", e.target.value)}
              rows={2}
              placeholder="Authorization=KNOWLEDGE_TOKEN"
            />
          </label>
        </div>
      )}
      <label className="field">
        <span className="label-text">Image digest (optional)</span>
        <input
          className="mono"
          value={draft.imageDigest}
          onChange={(e) => set("imageDigest", e.target.value)}
          placeholder="ghcr.io/org/server@sha256:…"
        />
      </label>
      <label className="field">
        <span className="label-text">
          Tools entered by hand, one per line: name — description (used until a live inspection)
        </span>
        <textarea
          className="mono"
          value={draft.declaredTools}
          onChange={(e) => set("declaredTools", e.target.value)}
          rows={4}
        />
      </label>
      <label className="field">
        <span className="label-text">
          Hosts a URL-mode elicitation may send the user to through the gate, comma or line
          separated (exact names: a subdomain is another host; empty: none)
        </span>
        <textarea
          className="mono"
          value={draft.elicitationUrlHosts}
          onChange={(e) => set("elicitationUrlHosts", e.target.value)}
          rows={2}
          placeholder="login.example.com"
          aria-invalid={hostsRead.error !== null}
          aria-describedby={hostsRead.error !== null ? `${id}-elicitation-hosts-error` : undefined}
        />
        {hostsRead.error !== null && (
          <span
            className="field-error"
            id={`${id}-elicitation-hosts-error`}
            data-testid="elicitation-hosts-error"
          >
            {hostsRead.error}
          </span>
        )}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.hostRendersApps}
          onChange={(e) => set("hostRendersApps", e.target.checked)}
        />
        <span>
          Declare MCP Apps (the agent&apos;s host renders them): the server may list UI tools only
          to hosts that render them
        </span>
      </label>
      {errors.length > 0 && (
        // The alert wraps the list, so the <ul> keeps its list role (axe: listitem).
        <div role="alert">
          <ul className="field-error">
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={props.isSaving}>
          {props.server ? "Save server" : "Register server"}
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
