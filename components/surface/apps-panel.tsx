"use client";

import { RevealedText } from "@/components/surface/revealed-text";
import {
  CSP_LISTS,
  KNOWN_UI_PERMISSIONS,
  isAppOnlyTool,
  uiDeclarations,
  type CspList,
} from "@/lib/surface/apps";
import type { SurfaceSnapshot } from "@/lib/surface/types";

const CSP_LABEL: Record<CspList, string> = {
  connectDomains: "Connects to (connect-src)",
  resourceDomains: "Loads scripts, images, styles from",
  frameDomains: "Frames",
  baseUriDomains: "Base URIs",
};

/**
 * MCP Apps on one surface: each ui:// resource the server's tools render with, what its CSP says
 * the UI will reach, the browser permissions it asks for, and the tools only the app calls. All of
 * it is server-authored text, shown as claims: nothing here is granted or verified.
 */
export function AppsPanel({ snapshot: s }: { snapshot: SurfaceSnapshot }) {
  const appOnly = s.tools.filter((t) => isAppOnlyTool(t._meta)).map((t) => t.name);
  if (!s.uiResources?.length && appOnly.length === 0) return null;
  const uis = uiDeclarations(s.uiResources ?? [], s.resources, s.tools);
  return (
    <section className="stack" aria-label="MCP Apps" data-testid="apps-panel">
      <h4>MCP Apps: UIs this server renders</h4>
      {appOnly.length > 0 && (
        <p className="small">
          App-only tools (the UI calls them without the model; they are tools the agent holds):{" "}
          {appOnly.map((name, i) => (
            <span key={name}>
              {i > 0 && ", "}
              <RevealedText text={name} className="mono" />{" "}
              <span className="badge badge-warn">app-only</span>
            </span>
          ))}
        </p>
      )}
      {uis.map((ui) => (
        <dl key={ui.uri} className="kv" data-testid="apps-ui-resource">
          <dt>UI resource</dt>
          <dd>
            <RevealedText text={ui.uri} className="mono" />
            {ui.unreadable !== null && (
              <span className="small muted">
                {" "}
                (not read: <RevealedText text={ui.unreadable} />)
              </span>
            )}
          </dd>
          <dt>Rendered by</dt>
          <dd className="small">
            {ui.renderedBy.length ? (
              ui.renderedBy.map((name, i) => (
                <span key={name}>
                  {i > 0 && ", "}
                  <RevealedText text={name} className="mono" />
                  {ui.appOnlyTools.includes(name) && " (app-only)"}
                </span>
              ))
            ) : (
              <span className="muted">no tool names it</span>
            )}
          </dd>
          {CSP_LISTS.map((list) => (
            <div key={list} style={{ display: "contents" }}>
              <dt>{CSP_LABEL[list]}</dt>
              <dd className="small">
                {ui.csp[list]?.length ? (
                  <ul className="plain-list">
                    {ui.csp[list].map((d) => (
                      <li key={d}>
                        <RevealedText text={d} className="mono" />
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">none declared (the host allows none)</span>
                )}
              </dd>
            </div>
          ))}
          <dt>Permissions claimed</dt>
          <dd className="small" data-testid="apps-permissions">
            {ui.permissions.length ? (
              <>
                {ui.permissions.map((p, i) => (
                  <span key={p}>
                    {i > 0 && ", "}
                    <RevealedText text={p} className="mono" />
                    {!KNOWN_UI_PERMISSIONS.includes(p) && " (not defined by MCP Apps)"}
                  </span>
                ))}{" "}
                <span className="muted">
                  — a request the server makes; whether a host grants it is the host&apos;s choice,
                  and nothing here verifies it
                </span>
              </>
            ) : (
              <span className="muted">none</span>
            )}
          </dd>
          {ui.domain !== null && (
            <>
              <dt>Dedicated origin claimed</dt>
              <dd>
                <RevealedText text={ui.domain} className="mono" />
              </dd>
            </>
          )}
        </dl>
      ))}
    </section>
  );
}
