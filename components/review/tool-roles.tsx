"use client";

import { useState } from "react";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { RoleReasons } from "@/components/review/role-reasons";
import { RevealedText } from "@/components/surface/revealed-text";
import type { ToolView } from "@/lib/analysis/analyze";
import { shownName } from "@/lib/analysis/prose";
import { ANNOTATION_HINTS } from "@/lib/tools/annotations";
import { TOOL_ROLES, type Review, type ToolAssessment, type ToolRole } from "@/lib/review/schema";

export const ROLE_LABEL: Record<ToolRole, string> = {
  returns_untrusted_text: "returns text from sources",
  reads_private_data: "reads private data",
  writes: "writes",
  deploys_or_destroys: "deploys or destroys",
  network_or_shares: "reaches the network or shares",
};

/** Rows shown before "Show all", and sources listed per row before "Show all sources". */
export const TOOL_ROWS_SHOWN = 100;
export const SOURCES_SHOWN_PER_TOOL = 12;

function ToolRoleRow({ tool, review, editor }: { tool: ToolView; review: Review; editor: ReviewEditor }) {
  const [roles, setRoles] = useState<Set<ToolRole>>(new Set(tool.roles));
  const [sources, setSources] = useState<Set<string>>(new Set(tool.sourceIds));
  const [allSources, setAllSources] = useState(false);
  const manySources = review.sources.length > SOURCES_SHOWN_PER_TOOL;
  // With many sources, the ones mapped to this tool (saved or ticked since), until the reviewer asks for all.
  const sourcesShown = manySources && !allSources ? review.sources.filter((s) => sources.has(s.id) || tool.sourceIds.includes(s.id)) : review.sources;
  const dirty =
    tool.rolesOrigin !== "confirmed" ||
    roles.size !== tool.roles.length ||
    tool.roles.some((r) => !roles.has(r)) ||
    sources.size !== tool.sourceIds.length ||
    tool.sourceIds.some((s) => !sources.has(s));
  const suggested = new Map(tool.suggestedRoles.map((r) => [r.role, r.reasons]));

  const toggle = <T,>(set: Set<T>, value: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const confirm = () => {
    const assessment: ToolAssessment = {
      serverId: tool.serverId,
      tool: tool.name,
      // A resource or template is assessed as a tool is, marked as what it is.
      ...(tool.item !== "tool" ? { item: tool.item } : {}),
      roles: TOOL_ROLES.filter((r) => roles.has(r)),
      sourceIds: review.sources.filter((s) => sources.has(s.id)).map((s) => s.id),
      rolesConfirmed: true,
    };
    void editor.save((r) => ({
      ...r,
      tools: [...r.tools.filter((t) => !(t.serverId === tool.serverId && t.tool === tool.name && (t.item ?? "tool") === tool.item)), assessment],
    })); // the outcome shows in the save status
  };

  return (
    <tr data-testid={`tool-roles-${tool.key}`}>
      <td>
        <div className="mono" style={{ fontWeight: 600 }}>
          <RevealedText text={tool.name} className="mono" />
        </div>
        <div className="small muted">{review.servers.find((s) => s.id === tool.serverId)?.name ?? tool.serverId}</div>
        {tool.rolesOrigin === "confirmed" ? (
          <span className="badge badge-ok">confirmed</span>
        ) : (
          <span className="badge badge-warn" title="The analysis is relying on a suggestion for this tool">
            suggestion, unconfirmed
          </span>
        )}
        <div className="small muted" style={{ marginTop: "0.25rem" }}>
          {ANNOTATION_HINTS.map((h) => `${h}=${String(tool.annotations[h].value)}${tool.annotations[h].origin === "spec_default" ? " (default)" : ""}`).join(" · ")}
        </div>
      </td>
      <td>
        <fieldset style={{ border: "none", padding: 0, margin: 0 }}>
          <legend className="sr-only">Roles of {shownName(tool.name)}</legend>
          {TOOL_ROLES.map((role) => (
            <label key={role} className="check" title={suggested.get(role)?.join("; ") ?? "not suggested"}>
              <input type="checkbox" checked={roles.has(role)} onChange={(e) => setRoles(toggle(roles, role, e.target.checked))} />
              {ROLE_LABEL[role]}
              {suggested.has(role) && <RoleReasons reasons={suggested.get(role) ?? []} />}
            </label>
          ))}
        </fieldset>
      </td>
      <td>
        <fieldset style={{ border: "none", padding: 0, margin: 0 }}>
          <legend className="sr-only">Sources whose text {shownName(tool.name)} returns</legend>
          {review.sources.length === 0 && <span className="small muted">no sources entered</span>}
          {sourcesShown.map((s) => (
            <label key={s.id} className="check">
              <input type="checkbox" checked={sources.has(s.id)} onChange={(e) => setSources(toggle(sources, s.id, e.target.checked))} />
              {s.name}
            </label>
          ))}
          {manySources && (
            <button type="button" className="btn btn-ghost small" onClick={() => setAllSources((v) => !v)} aria-expanded={allSources}>
              {allSources ? "Show only the sources mapped" : `Show all ${review.sources.length} sources`}
            </button>
          )}
        </fieldset>
      </td>
      <td style={{ textAlign: "right" }}>
        <button type="button" className="btn btn-primary" onClick={confirm} disabled={!dirty || editor.isSaving} aria-label={`Confirm roles of ${shownName(tool.name)}`}>
          Confirm
        </button>
      </td>
    </tr>
  );
}

/**
 * Each tool's roles and the sources whose text it returns. Annotations and names only suggest roles;
 * the reviewer confirms each, and until then the analysis says where it relied on a suggestion.
 */
export function ToolRolesTable({ tools, review, editor, revision }: { tools: readonly ToolView[]; review: Review; editor: ReviewEditor; revision: number }) {
  const [filter, setFilter] = useState("");
  const [showAll, setShowAll] = useState(false);
  if (tools.length === 0) return null;
  const unconfirmed = tools.filter((t) => t.rolesOrigin !== "confirmed").length;
  const needle = filter.trim().toLowerCase();
  const matching = needle ? tools.filter((t) => t.key.toLowerCase().includes(needle)) : tools;
  const rows = showAll ? matching : matching.slice(0, TOOL_ROWS_SHOWN);
  return (
    <section className="card stack" aria-labelledby="tool-roles-heading" style={{ padding: 0 }}>
      <div style={{ padding: "1rem 1.25rem 0" }}>
        <h3 id="tool-roles-heading">Tool roles and sources</h3>
        <p className="small muted" style={{ margin: 0 }}>
          Annotations are the server&apos;s claims, and an absent hint is the spec&apos;s default, not &quot;safe&quot;.{" "}
          {unconfirmed > 0 ? `${unconfirmed} tool(s) still rely on a suggestion.` : "Every tool's roles are confirmed."}
        </p>
        {tools.length > TOOL_ROWS_SHOWN && (
          <label className="field" style={{ marginTop: "0.5rem", maxWidth: "24rem" }}>
            <span className="label-text">Filter tools by server or name</span>
            <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. deploy" />
          </label>
        )}
      </div>
      <table className="data" aria-label="Tool roles and sources">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Roles</th>
            <th scope="col">Returns text from</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            // Keyed on the revision so each row starts from the stored assessment after a save.
            <ToolRoleRow key={`${t.key}@${revision}`} tool={t} review={review} editor={editor} />
          ))}
        </tbody>
      </table>
      {(matching.length > TOOL_ROWS_SHOWN || (needle && matching.length === 0)) && (
        <div className="row small muted" style={{ padding: "0 1.25rem 1rem" }}>
          {matching.length === 0 ? (
            <span>No tool matches “{filter.trim()}”.</span>
          ) : (
            <>
              <span>
                {rows.length} of {matching.length} tools shown{needle ? ` matching “${filter.trim()}”` : ""}.
              </span>
              <button type="button" className="btn" onClick={() => setShowAll((v) => !v)}>
                {showAll ? `Show the first ${TOOL_ROWS_SHOWN}` : `Show all ${matching.length}`}
              </button>
            </>
          )}
        </div>
      )}
    </section>
  );
}
