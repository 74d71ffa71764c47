"use client";

import { useState, type ReactNode } from "react";
import { CodeEditor } from "@/components/code/code-editor";
import { FlagList } from "@/components/surface/flags";
import { Absent, RevealedText } from "@/components/surface/revealed-text";
import type { SuspiciousFlag } from "@/lib/surface/suspicious";
import {
  ANNOTATION_HINTS,
  SPEC_DEFAULT_HINTS,
  effectiveAnnotations,
} from "@/lib/tools/annotations";
import type {
  PromptItem,
  ResourceItem,
  ResourceTemplateItem,
  SurfaceReject,
  ToolItem,
} from "@/lib/surface/types";

/** Items shown in a list at once; the filter narrows a long list. */
export const ITEM_LIST_CAP = 200;

export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "undefined";
}

function editorHeight(text: string): number {
  return Math.min(360, Math.max(72, text.split("\n").length * 19 + 16));
}

/** Server-sent JSON in read-only Monaco: never interpreted, hidden characters highlighted. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  const text = jsonText(value);
  return (
    <CodeEditor
      value={text}
      language="json"
      readOnly
      height={editorHeight(text)}
      ariaLabel={label}
    />
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

const text = (v: string | undefined) => (v === undefined ? <Absent /> : <RevealedText text={v} />);

export function AnnotationsTable({
  annotations,
}: {
  annotations: Record<string, unknown> | undefined;
}) {
  const effective = effectiveAnnotations(annotations);
  return (
    <div className="stack" style={{ gap: "0.35rem" }}>
      <table className="data compact" aria-label="Annotations">
        <thead>
          <tr>
            <th>Hint</th>
            <th>Effective value</th>
            <th>Where it came from</th>
          </tr>
        </thead>
        <tbody>
          {ANNOTATION_HINTS.map((hint) => {
            const e = effective[hint];
            const raw = annotations?.[hint];
            return (
              <tr key={hint} data-testid={`annotation-${hint}`}>
                <td className="mono">{hint}</td>
                <td className="mono">{String(e.value)}</td>
                <td>
                  {e.origin === "declared" ? (
                    <span className="badge badge-neutral">declared by the server</span>
                  ) : (
                    <span className="badge badge-accent">
                      spec default ({String(SPEC_DEFAULT_HINTS[hint])})
                    </span>
                  )}
                  {raw !== undefined && typeof raw !== "boolean" && (
                    <span className="small muted">
                      {" "}
                      sent as {JSON.stringify(raw)}, not a boolean, so it counts as absent
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="small muted" style={{ margin: 0 }}>
        Annotations are claims the server makes about itself: hints, never facts. An absent hint is
        the spec&apos;s default, not &ldquo;safe&rdquo;.
      </p>
    </div>
  );
}

export function ToolDetail({ tool, flags }: { tool: ToolItem; flags: readonly SuspiciousFlag[] }) {
  return (
    <div className="stack">
      <dl className="kv">
        <Field label="Name">
          <RevealedText text={tool.name} />
        </Field>
        <Field label="Title">{text(tool.title)}</Field>
        <Field label="Description">{text(tool.description)}</Field>
      </dl>
      <FlagList flags={flags} label={`tool ${tool.name}`} />
      <h4>Annotations</h4>
      <AnnotationsTable annotations={tool.annotations} />
      <h4>Input schema</h4>
      <JsonView value={tool.inputSchema} label={`Input schema of ${tool.name}`} />
      <h4>Output schema</h4>
      {tool.outputSchema ? (
        <JsonView value={tool.outputSchema} label={`Output schema of ${tool.name}`} />
      ) : (
        <Absent what="none declared" />
      )}
    </div>
  );
}

export function ResourceDetail({
  item,
  flags,
}: {
  item: ResourceItem | ResourceTemplateItem;
  flags: readonly SuspiciousFlag[];
}) {
  const key = "uri" in item ? item.uri : item.uriTemplate;
  return (
    <div className="stack">
      <dl className="kv">
        <Field label={"uri" in item ? "URI" : "URI template"}>
          <RevealedText text={key} />
        </Field>
        <Field label="Name">
          <RevealedText text={item.name} />
        </Field>
        <Field label="Title">{text(item.title)}</Field>
        <Field label="Description">{text(item.description)}</Field>
        <Field label="MIME type">{text(item.mimeType)}</Field>
      </dl>
      <FlagList flags={flags} label={key} />
      <h4>As sent</h4>
      <JsonView value={item} label={`${key} as sent`} />
    </div>
  );
}

export function PromptDetail({
  item,
  flags,
}: {
  item: PromptItem;
  flags: readonly SuspiciousFlag[];
}) {
  return (
    <div className="stack">
      <dl className="kv">
        <Field label="Name">
          <RevealedText text={item.name} />
        </Field>
        <Field label="Title">{text(item.title)}</Field>
        <Field label="Description">{text(item.description)}</Field>
      </dl>
      <FlagList flags={flags} label={`prompt ${item.name}`} />
      <h4>Arguments</h4>
      {item.arguments?.length ? (
        <table className="data compact">
          <thead>
            <tr>
              <th>Name</th>
              <th>Required</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {item.arguments.map((a, i) => (
              <tr key={i}>
                <td>
                  <RevealedText text={a.name} />
                </td>
                <td>{a.required === undefined ? <Absent /> : String(a.required)}</td>
                <td>{text(a.description)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <Absent what="none" />
      )}
      <h4>As sent</h4>
      <JsonView value={item} label={`prompt ${item.name} as sent`} />
    </div>
  );
}

export function RejectDetail({ reject }: { reject: SurfaceReject }) {
  return (
    <div className="stack">
      <div className="callout warn">
        Failed the protocol schema and was kept as a finding, not dropped:{" "}
        <RevealedText text={reject.reason} />
      </div>
      <dl className="kv">
        <Field label="List">{reject.list}</Field>
        <Field label="Where">
          page {reject.page}, item {reject.index + 1}
        </Field>
      </dl>
      <JsonView value={reject.raw} label="Rejected item as sent" />
    </div>
  );
}

/**
 * A list of items with one selected and shown in detail (one Monaco at a time, so a server with
 * thousands of tools stays usable). The filter matches the item's key and title.
 */
export function ItemBrowser<T>(props: {
  items: readonly T[];
  label: string;
  keyOf: (item: T, index: number) => string;
  titleOf?: (item: T) => string | undefined;
  flagCount: (item: T, index: number) => number;
  renderDetail: (item: T, index: number) => ReactNode;
}) {
  const [selected, setSelected] = useState(0);
  const [filter, setFilter] = useState("");
  if (props.items.length === 0)
    return <p className="muted small">The server listed no {props.label}.</p>;
  const needle = filter.trim().toLowerCase();
  const matches = props.items
    .map((item, index) => ({ item, index, key: props.keyOf(item, index) }))
    .filter(
      (e) =>
        !needle ||
        e.key.toLowerCase().includes(needle) ||
        (props.titleOf?.(e.item) ?? "").toLowerCase().includes(needle),
    );
  const shown = matches.slice(0, ITEM_LIST_CAP);
  const current = props.items[selected] !== undefined ? selected : 0;
  const item = props.items[current]!;
  return (
    <div className="item-browser">
      <div className="item-list">
        {props.items.length > 10 && (
          <input
            type="search"
            aria-label={`Filter ${props.label}`}
            placeholder={`Filter ${props.items.length} ${props.label}`}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        )}
        {/* A list of buttons, the shown one marked current: an option may not hold a button (nested-interactive). */}
        <ul aria-label={props.label}>
          {shown.map((e) => {
            const n = props.flagCount(e.item, e.index);
            return (
              <li key={e.index}>
                <button
                  type="button"
                  onClick={() => setSelected(e.index)}
                  className="item-button"
                  aria-current={e.index === current ? "true" : undefined}
                >
                  <RevealedText text={e.key} className="mono item-key" />
                  {n > 0 && (
                    <span
                      className="badge badge-warn"
                      title="suspicious-text flags: where to look, not a control"
                    >
                      {n}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
        {matches.length > shown.length && (
          <p className="small muted">
            Showing {shown.length} of {matches.length}; filter to find the rest.
          </p>
        )}
      </div>
      <div className="item-detail" aria-label={`Selected ${props.label}`} role="region">
        {props.renderDetail(item, current)}
      </div>
    </div>
  );
}
