"use client";

import { Fragment, useEffect, useId, useMemo, useRef, useState } from "react";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { RoleReasons } from "@/components/review/role-reasons";
import { RevealedText } from "@/components/surface/revealed-text";
import { useRovingGrid } from "@/components/ui/roving-grid";
import type { ToolView } from "@/lib/analysis/analyze";
import { itemKey, type ToolKey } from "@/lib/model/ids";
import { shownName } from "@/lib/model/prose";
import type { SourceId } from "@/lib/ids";
import { bulkRoleAssessments, upsertToolAssessments, type RoleEdit } from "@/lib/review/edit";
import { sampleDisagrees, sampledTextAdvice, sampleEvidenceLine } from "@/lib/roles/sampled-text";
import { ANNOTATION_HINTS } from "@/lib/tools/annotations";
import {
  TOOL_ROLES,
  type Review,
  type SampleEvidence,
  type ToolAssessment,
  type ToolRole,
} from "@/lib/review/schema";

export const ROLE_LABEL: Record<ToolRole, string> = {
  returns_untrusted_text: "returns text from sources",
  reads_private_data: "reads private data",
  writes: "writes",
  deploys_or_destroys: "deploys or destroys",
  network_or_shares: "reaches the network or shares",
};

/**
 * A tick is saved this long after the last one: a burst of ticks across rows is one revision, and
 * until it lands the row says "unsaved" and the header says so (leaving the page warns).
 */
export const AUTOSAVE_DELAY_MS = 800;

/** Rows shown before "Show all", and sources listed per row before "Show all sources". */
export const TOOL_ROWS_SHOWN = 100;
export const SOURCES_SHOWN_PER_TOOL = 12;

/** What a row shows and a save writes: the reviewer's unsaved edit, else the saved roles, else the suggestion. */
type Shown = { roles: readonly ToolRole[]; sourceIds: readonly SourceId[]; confirmed: boolean };
type Draft = { roles: readonly ToolRole[]; sourceIds: readonly SourceId[] };

const sameSet = <T,>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((x) => b.includes(x));
const toggled = <T,>(list: readonly T[], value: T, on: boolean): T[] =>
  on ? (list.includes(value) ? [...list] : [...list, value]) : list.filter((x) => x !== value);
const percent = (x: number) => `${Math.round(x * 100)}%`;

/**
 * The item's latest sample beside its returned-text role (issue 32): when, by whom, what came back.
 * Where it disagrees with the role ticked now, it says so in sampledTextAdvice's words; it never
 * ticks or clears the role itself.
 */
function SampleNote({
  sample,
  assessedAsText,
}: {
  sample: SampleEvidence;
  assessedAsText: boolean;
}) {
  const disagrees = sampleDisagrees(sample, assessedAsText);
  return (
    <div
      className={disagrees ? "callout warn small" : "small muted"}
      style={{ margin: "0.15rem 0 0.35rem 1.5rem" }}
      data-testid="role-sample"
    >
      {/* The line names a server's field paths: their hidden characters are marked, in body text. */}
      <RevealedText text={sampleEvidenceLine(sample)} className="" />
      {disagrees && <div>{sampledTextAdvice(sample, assessedAsText)}</div>}
    </div>
  );
}

type RowProps = {
  tool: ToolView;
  serverName: string;
  shown: Shown;
  /** The newest sample kept with the item's assessment, if it was sampled. */
  sample: SampleEvidence | undefined;
  draft: Draft | undefined;
  sources: Review["sources"];
  selected: boolean;
  locked: boolean;
  onSelect: (key: ToolKey, on: boolean) => void;
  onDraft: (key: ToolKey, draft: Draft | undefined) => void;
  onConfirm: (tool: ToolView, roles: readonly ToolRole[], sourceIds: readonly SourceId[]) => void;
};

function ToolRoleRow({
  tool,
  serverName,
  shown,
  sample,
  draft,
  sources,
  selected,
  locked,
  onSelect,
  onDraft,
  onConfirm,
}: RowProps) {
  const [allSources, setAllSources] = useState(false);
  const roles = draft?.roles ?? shown.roles;
  const sourceIds = draft?.sourceIds ?? shown.sourceIds;
  const manySources = sources.length > SOURCES_SHOWN_PER_TOOL;
  // With many sources, the ones mapped to this tool (saved or ticked since), until the reviewer asks for all.
  const sourcesShown =
    manySources && !allSources
      ? sources.filter((s) => sourceIds.includes(s.id) || shown.sourceIds.includes(s.id))
      : sources;
  const edited = !sameSet(roles, shown.roles) || !sameSet(sourceIds, shown.sourceIds);
  const suggested = new Map(tool.suggestedRoles.map((r) => [r.role, r.reasons]));
  const confidence = new Map(tool.suggestedRoles.map((r) => [r.role, r.confidence]));
  const name = shownName(tool.name);
  const edit = (next: Draft) =>
    onDraft(
      tool.key,
      sameSet(next.roles, shown.roles) && sameSet(next.sourceIds, shown.sourceIds)
        ? undefined
        : next,
    );

  return (
    <tr data-testid={`tool-roles-${tool.key}`} aria-busy={locked || undefined}>
      <td>
        <input
          type="checkbox"
          checked={selected}
          onChange={(e) => onSelect(tool.key, e.target.checked)}
          aria-label={`Select ${name}`}
        />
      </td>
      <td>
        <div className="mono" style={{ fontWeight: 600 }}>
          <RevealedText text={tool.name} className="mono" />
        </div>
        <div className="small muted">{serverName}</div>
        {shown.confirmed && !edited ? (
          <span className="badge badge-ok" data-testid="roles-confirmed">
            confirmed:{" "}
            {shown.roles.length === 0
              ? "no role"
              : shown.roles.map((r) => ROLE_LABEL[r]).join(", ")}
          </span>
        ) : edited ? (
          <span className="badge badge-warn" data-testid="roles-unsaved">
            unsaved, saving…
          </span>
        ) : (
          <span
            className="badge badge-warn"
            title="The analysis is relying on a suggestion for this tool"
          >
            suggestion, unconfirmed
          </span>
        )}
        {tool.item !== "tool" && (
          <div className="small">
            {tool.item === "resource" ? "resource" : "resource template"}: its contents are returned
            as a tool&apos;s result is
          </div>
        )}
        {!shown.confirmed && (
          <div className="small muted">suggestion {percent(tool.suggestionConfidence)} sure</div>
        )}
        {tool.verb && <div className="small muted">verb: {tool.verb}</div>}
        <div className="small muted" style={{ marginTop: "0.25rem" }} hidden={tool.item !== "tool"}>
          {ANNOTATION_HINTS.map(
            (h) =>
              `${h}=${String(tool.annotations[h].value)}${tool.annotations[h].origin === "spec_default" ? " (default)" : ""}`,
          ).join(" · ")}
        </div>
        {tool.conflicts.map((c, i) => (
          <div
            key={i}
            className="callout warn small"
            style={{ marginTop: "0.25rem" }}
            data-testid="role-conflict"
          >
            {c.message}
          </div>
        ))}
      </td>
      <td>
        <fieldset style={{ border: "none", padding: 0, margin: 0 }} disabled={locked}>
          <legend className="sr-only">Roles of {name}</legend>
          {TOOL_ROLES.map((role) => (
            <Fragment key={role}>
              <label className="check" title={suggested.get(role)?.join("; ") ?? "not suggested"}>
                <input
                  type="checkbox"
                  checked={roles.includes(role)}
                  onChange={(e) =>
                    edit({ roles: toggled(roles, role, e.target.checked), sourceIds })
                  }
                />
                {ROLE_LABEL[role]}
                {suggested.has(role) && <RoleReasons reasons={suggested.get(role) ?? []} />}
                {suggested.has(role) && (
                  <span className="small muted"> · {percent(confidence.get(role) ?? 0)} sure</span>
                )}
              </label>
              {role === "returns_untrusted_text" && sample && (
                <SampleNote sample={sample} assessedAsText={roles.includes(role)} />
              )}
            </Fragment>
          ))}
        </fieldset>
      </td>
      <td>
        <fieldset style={{ border: "none", padding: 0, margin: 0 }} disabled={locked}>
          <legend className="sr-only">Sources whose text {name} returns</legend>
          {sources.length === 0 && <span className="small muted">no sources entered</span>}
          {sourcesShown.map((s) => (
            <label key={s.id} className="check">
              <input
                type="checkbox"
                checked={sourceIds.includes(s.id)}
                onChange={(e) =>
                  edit({ roles, sourceIds: toggled(sourceIds, s.id, e.target.checked) })
                }
              />
              {s.name}
            </label>
          ))}
          {manySources && (
            <button
              type="button"
              className="btn btn-ghost small"
              onClick={() => setAllSources((v) => !v)}
              aria-expanded={allSources}
            >
              {allSources ? "Show only the sources mapped" : `Show all ${sources.length} sources`}
            </button>
          )}
        </fieldset>
      </td>
      <td style={{ textAlign: "right" }}>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => onConfirm(tool, roles, sourceIds)}
          disabled={locked || (shown.confirmed && !edited)}
          aria-label={`Confirm roles of ${name}`}
        >
          Confirm
        </button>
      </td>
    </tr>
  );
}

/**
 * A select named by its label alone (`htmlFor`): a select inside its label would also be named by
 * the option it shows.
 */
function SelectField<T extends string>(props: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  children: React.ReactNode;
  inline?: boolean;
}) {
  const id = useId();
  return (
    <div
      className="field"
      style={
        props.inline ? { flexDirection: "row", alignItems: "center", gap: "0.35rem" } : undefined
      }
    >
      <label htmlFor={id} className="label-text">
        {props.label}
      </label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
        {props.children}
      </select>
    </div>
  );
}

type ConfidenceFilter = "any" | "0.9" | "0.7" | "0.5";
type Filters = {
  server: string;
  name: string;
  verb: string;
  role: ToolRole | "" | "none";
  confidence: ConfidenceFilter;
  status: "" | "unconfirmed" | "confirmed";
  conflicts: boolean;
};
const NO_FILTER: Filters = {
  server: "",
  name: "",
  verb: "",
  role: "",
  confidence: "any",
  status: "",
  conflicts: false,
};
type Sort = "server" | "confidence";

/** What a tool's row shows before any unsaved edit: the saved confirmed roles, else the suggestion. */
function shownOf(tool: ToolView, saved: ToolAssessment | undefined): Shown {
  if (saved?.rolesConfirmed)
    return { roles: saved.roles, sourceIds: saved.sourceIds, confirmed: true };
  return { roles: tool.roles, sourceIds: saved?.sourceIds ?? tool.sourceIds, confirmed: false };
}

/** How sure the suggestion is; a confirmed tool is settled, so it sorts after every uncertain one. */
const certainty = (tool: ToolView, shown: Shown) =>
  shown.confirmed ? 2 : tool.suggestionConfidence;

/**
 * Each tool's roles and the sources whose text it returns. Annotations and names only suggest roles;
 * the reviewer confirms each, one row at a time or a filtered selection at once (one revision per
 * action), and until then the analysis says where it relied on a suggestion.
 *
 * A row shows the saved review's confirmed roles as soon as a save lands, and its suggestion from the
 * analysis. Its controls stay disabled while a save is in flight or the analysis on screen was computed
 * from an older revision than the saved one, so nothing is confirmed from a suggestion that is out of date.
 */
export function ToolRolesTable(props: {
  tools: readonly ToolView[];
  analysisRevision: number;
  review: Review;
  editor: ReviewEditor;
  revision: number;
}) {
  const { tools, review, editor, revision, analysisRevision } = props;
  const [filters, setFilters] = useState<Filters>(NO_FILTER);
  const [sort, setSort] = useState<Sort>("server");
  const [showAll, setShowAll] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<ToolKey>>(new Set());
  const [drafts, setDrafts] = useState<ReadonlyMap<ToolKey, Draft>>(new Map());
  const [bulkRole, setBulkRole] = useState<ToolRole>("reads_private_data");
  const [bulkSource, setBulkSource] = useState<string>("");
  const bulkSourceId = (review.sources.find((s) => s.id === bulkSource) ?? review.sources[0])?.id;
  const stale = analysisRevision !== revision;
  const locked = stale || editor.isSaving;
  const grid = useRovingGrid<HTMLTableSectionElement>();

  const serverNames = useMemo(
    () => new Map(review.servers.map((s) => [s.id as string, s.name])),
    [review.servers],
  );
  const saved = useMemo(
    () => new Map(review.tools.map((t) => [itemKey(t.serverId, t.item ?? "tool", t.tool), t])),
    [review.tools],
  );
  const shown = useMemo(
    () => new Map(tools.map((t) => [t.key, shownOf(t, saved.get(t.key))])),
    [tools, saved],
  );
  const verbs = useMemo(
    () => [...new Set(tools.flatMap((t) => (t.verb ? [t.verb] : [])))].sort(),
    [tools],
  );
  const hasConflicts = tools.some((t) => t.conflicts.length > 0);

  const needle = filters.name.trim().toLowerCase();
  const matching = useMemo(() => {
    const out = tools.filter((t) => {
      const s = shown.get(t.key)!;
      if (filters.server && t.serverId !== filters.server) return false;
      if (
        needle &&
        !t.key.toLowerCase().includes(needle) &&
        !(serverNames.get(t.serverId) ?? "").toLowerCase().includes(needle)
      )
        return false;
      if (filters.verb && t.verb !== filters.verb) return false;
      if (filters.role === "none" && t.suggestedRoles.length > 0) return false;
      if (
        filters.role &&
        filters.role !== "none" &&
        !t.suggestedRoles.some((r) => r.role === filters.role)
      )
        return false;
      if (filters.confidence !== "any" && !(certainty(t, s) < Number(filters.confidence)))
        return false;
      if (filters.status === "confirmed" && !s.confirmed) return false;
      if (filters.status === "unconfirmed" && s.confirmed) return false;
      if (filters.conflicts && t.conflicts.length === 0) return false;
      return true;
    });
    if (sort === "confidence")
      out.sort((a, b) => certainty(a, shown.get(a.key)!) - certainty(b, shown.get(b.key)!));
    return out;
  }, [tools, shown, filters, needle, sort, serverNames]);

  const unconfirmed = tools.filter((t) => !shown.get(t.key)!.confirmed).length;
  const rows = showAll ? matching : matching.slice(0, TOOL_ROWS_SHOWN);
  const chosen = matching.filter((t) => selected.has(t.key));
  const allChosen = matching.length > 0 && chosen.length === matching.length;
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTER);

  const setFilter = <K extends keyof Filters>(key: K, value: Filters[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));
  const select = (key: ToolKey, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const selectMatching = (on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const t of matching) {
        if (on) next.add(t.key);
        else next.delete(t.key);
      }
      return next;
    });
  const draft = (key: ToolKey, d: Draft | undefined) =>
    setDrafts((prev) => {
      const next = new Map(prev);
      if (d) next.set(key, d);
      else next.delete(key);
      return next;
    });

  /** Saves `changes` as one revision, based on the revision the analysis on screen comes from. */
  const write = async (changes: ToolAssessment[]) => {
    if (changes.length === 0) return;
    const ok = await editor.save(
      (r) => ({ ...r, tools: upsertToolAssessments(r.tools, changes) }),
      { basedOn: analysisRevision },
    );
    if (ok) {
      setDrafts((prev) => {
        const next = new Map(prev);
        for (const c of changes) next.delete(itemKey(c.serverId, c.item ?? "tool", c.tool));
        return next;
      });
    }
  };

  /** A row's roles and sources as the reviewer confirms them (an edit of a row confirms it). */
  const confirmed = (
    tool: ToolView,
    roles: readonly ToolRole[],
    sourceIds: readonly SourceId[],
  ): ToolAssessment => ({
    serverId: tool.serverId,
    tool: tool.name,
    // A resource or template is assessed as a tool is, marked as what it is.
    ...(tool.item !== "tool" ? { item: tool.item } : {}),
    roles: TOOL_ROLES.filter((r) => roles.includes(r)),
    sourceIds: review.sources.filter((s) => sourceIds.includes(s.id)).map((s) => s.id),
    rolesConfirmed: true,
  });
  const confirmRow = (tool: ToolView, roles: readonly ToolRole[], sourceIds: readonly SourceId[]) =>
    void write([confirmed(tool, roles, sourceIds)]);

  // Every tick saves: the rows edited since the last save are written together, one revision per
  // burst, AUTOSAVE_DELAY_MS after the last tick (and at once when the table leaves the page).
  const flushRef = useRef<() => void>(() => {});
  flushRef.current = () => {
    if (drafts.size === 0 || locked) return;
    const byKey = new Map(tools.map((t) => [t.key, t]));
    const changes: ToolAssessment[] = [];
    for (const [key, d] of drafts) {
      const tool = byKey.get(key);
      if (tool) changes.push(confirmed(tool, d.roles, d.sourceIds));
    }
    void write(changes); // the outcome shows in the save status and the rows' badges
  };
  useEffect(() => {
    if (drafts.size === 0 || locked) return;
    const timer = setTimeout(() => flushRef.current(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [drafts, locked]);
  useEffect(() => () => flushRef.current(), []);
  const { setUnsavedCount } = editor;
  useEffect(() => {
    setUnsavedCount("tool-roles", drafts.size);
  }, [drafts.size, setUnsavedCount]);
  useEffect(() => () => setUnsavedCount("tool-roles", 0), [setUnsavedCount]);

  // A bulk action acts on what each selected row shows, its unsaved edit included.
  const bulkInput = chosen.map((t) => {
    const s = shown.get(t.key)!;
    const d = drafts.get(t.key);
    return {
      ref: { serverId: t.serverId, tool: t.name, item: t.item },
      shownRoles: d?.roles ?? s.roles,
      sourceIds: d?.sourceIds ?? s.sourceIds,
      confirmed: s.confirmed && !d,
    };
  });
  const bulk = (edit: RoleEdit) => {
    const isSourceEdit = edit.kind === "map_source" || edit.kind === "unmap_source";
    // An edited row is one the reviewer decided: a source mapped on top of it keeps it confirmed.
    const input = isSourceEdit
      ? bulkInput.map((t, i) => ({
          ...t,
          confirmed: t.confirmed || drafts.has(chosen[i]!.key),
        }))
      : bulkInput;
    const changes = bulkRoleAssessments(input, edit);
    // Rows edited but not selected are saved in the same revision rather than after it.
    const chosenKeys = new Set(chosen.map((t) => t.key));
    const byKey = new Map(tools.map((t) => [t.key, t]));
    for (const [key, d] of drafts) {
      const tool = byKey.get(key);
      if (tool && !chosenKeys.has(key)) changes.push(confirmed(tool, d.roles, d.sourceIds));
    }
    void write(changes); // the outcome shows in the save status
  };
  const toConfirm = bulkInput.filter((t) => !t.confirmed).length;

  if (tools.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="tool-roles-heading" style={{ padding: 0 }}>
      <div className="stack" style={{ padding: "1rem 1.25rem 0" }}>
        <div>
          <h3 id="tool-roles-heading">Tool roles and sources</h3>
          <p className="small muted" style={{ margin: 0 }}>
            Annotations are the server&apos;s claims, and an absent hint is the spec&apos;s default,
            not &quot;safe&quot;.{" "}
            {unconfirmed > 0
              ? `${unconfirmed} tool(s) still rely on a suggestion.`
              : "Every tool's roles are confirmed."}
          </p>
        </div>
        <form
          className="row"
          role="search"
          aria-label="Filter tools"
          onSubmit={(e) => e.preventDefault()}
          style={{ alignItems: "flex-end" }}
        >
          <label className="field" style={{ minWidth: "14rem" }}>
            <span className="label-text">Filter tools by server or name</span>
            <input
              value={filters.name}
              onChange={(e) => setFilter("name", e.target.value)}
              placeholder="e.g. deploy"
            />
          </label>
          {review.servers.length > 1 && (
            <SelectField
              label="Server"
              value={filters.server}
              onChange={(v) => setFilter("server", v)}
            >
              <option value="">every server</option>
              {review.servers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </SelectField>
          )}
          {verbs.length > 0 && (
            <SelectField label="Verb" value={filters.verb} onChange={(v) => setFilter("verb", v)}>
              <option value="">any verb</option>
              {verbs.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </SelectField>
          )}
          <SelectField
            label="Suggested role"
            value={filters.role}
            onChange={(v) => setFilter("role", v)}
          >
            <option value="">any</option>
            {TOOL_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
            <option value="none">no role suggested</option>
          </SelectField>
          <SelectField
            label="Confidence"
            value={filters.confidence}
            onChange={(v) => setFilter("confidence", v)}
          >
            <option value="any">any</option>
            <option value="0.9">below 90%</option>
            <option value="0.7">below 70%</option>
            <option value="0.5">below 50%</option>
          </SelectField>
          <SelectField
            label="Status"
            value={filters.status}
            onChange={(v) => setFilter("status", v)}
          >
            <option value="">confirmed or not</option>
            <option value="unconfirmed">unconfirmed</option>
            <option value="confirmed">confirmed</option>
          </SelectField>
          {hasConflicts && (
            <label className="check">
              <input
                type="checkbox"
                checked={filters.conflicts}
                onChange={(e) => setFilter("conflicts", e.target.checked)}
              />
              only claim-vs-name conflicts
            </label>
          )}
          <SelectField label="Sort" value={sort} onChange={(v) => setSort(v)}>
            <option value="server">by server, as listed</option>
            <option value="confidence">by confidence, uncertain first</option>
          </SelectField>
          {filtered && (
            <button type="button" className="btn btn-ghost" onClick={() => setFilters(NO_FILTER)}>
              Clear filters
            </button>
          )}
        </form>
        <div className="row" role="group" aria-label="Selected tools" data-testid="tool-roles-bulk">
          <label className="check">
            <input
              type="checkbox"
              checked={allChosen}
              ref={(el) => {
                if (el) el.indeterminate = chosen.length > 0 && !allChosen;
              }}
              onChange={(e) => selectMatching(e.target.checked)}
              disabled={matching.length === 0}
            />
            {filtered
              ? `Select all ${matching.length} matching tools`
              : `Select all ${matching.length} tools`}
          </label>
          <span className="small muted" role="status">
            {chosen.length} selected
          </span>
          <button
            type="button"
            className="btn btn-primary"
            disabled={locked || toConfirm === 0}
            onClick={() => bulk({ kind: "confirm" })}
          >
            Confirm the suggestions of {toConfirm} selected
          </button>
          <SelectField label="Role" value={bulkRole} onChange={(v) => setBulkRole(v)} inline>
            {TOOL_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </SelectField>
          <button
            type="button"
            className="btn"
            disabled={locked || chosen.length === 0}
            onClick={() => bulk({ kind: "set", role: bulkRole })}
          >
            Set on {chosen.length} selected
          </button>
          <button
            type="button"
            className="btn"
            disabled={locked || chosen.length === 0}
            onClick={() => bulk({ kind: "strike", role: bulkRole })}
          >
            Strike from {chosen.length} selected
          </button>
          {bulkSourceId && (
            <>
              <SelectField
                label="Source"
                value={bulkSourceId}
                onChange={(v) => setBulkSource(v)}
                inline
              >
                {review.sources.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </SelectField>
              <button
                type="button"
                className="btn"
                disabled={locked || chosen.length === 0}
                onClick={() => bulk({ kind: "map_source", sourceId: bulkSourceId })}
              >
                Map {chosen.length} selected to this source
              </button>
              <button
                type="button"
                className="btn"
                disabled={locked || chosen.length === 0}
                onClick={() => bulk({ kind: "unmap_source", sourceId: bulkSourceId })}
              >
                Unmap from {chosen.length} selected
              </button>
            </>
          )}
          {stale && (
            <span className="small muted" data-testid="tool-roles-updating">
              Updating the suggestions for revision {revision}…
            </span>
          )}
        </div>
      </div>
      {/* Fixed column widths: a role's further reasons open on focus or hover, and with widths that
          followed content the Confirm button moved between a click's press and release. */}
      <p className="small muted" id="tool-roles-keys" style={{ margin: "0 1.25rem" }}>
        Every tick is saved. In the table, Tab enters and leaves; the arrow keys move between the
        checkboxes and Space ticks.
      </p>
      <table
        className="data"
        aria-label="Tool roles and sources"
        aria-describedby="tool-roles-keys"
        style={{ tableLayout: "fixed" }}
      >
        <colgroup>
          <col style={{ width: "2.5rem" }} />
          <col style={{ width: "28%" }} />
          <col style={{ width: "34%" }} />
          <col />
          <col style={{ width: "7.5rem" }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Selected</span>
            </th>
            <th scope="col">Tool</th>
            <th scope="col">Roles</th>
            <th scope="col">Returns text from</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody ref={grid.ref} onFocus={grid.onFocus} onKeyDown={grid.onKeyDown}>
          {rows.map((t) => (
            <ToolRoleRow
              key={t.key}
              tool={t}
              serverName={serverNames.get(t.serverId) ?? t.serverId}
              shown={shown.get(t.key)!}
              sample={saved.get(t.key)?.samples?.at(-1)}
              draft={drafts.get(t.key)}
              sources={review.sources}
              selected={selected.has(t.key)}
              locked={locked}
              onSelect={select}
              onDraft={draft}
              onConfirm={confirmRow}
            />
          ))}
        </tbody>
      </table>
      {(matching.length > TOOL_ROWS_SHOWN || (filtered && matching.length === 0)) && (
        <div className="row small muted" style={{ padding: "0 1.25rem 1rem" }}>
          {matching.length === 0 ? (
            <span>
              {needle
                ? `No tool matches “${filters.name.trim()}”.`
                : "No tool matches these filters."}
            </span>
          ) : (
            <>
              <span>
                {rows.length} of {matching.length} tools shown
                {needle ? ` matching “${filters.name.trim()}”` : ""}.
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
