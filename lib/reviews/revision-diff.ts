/**
 * What changed between two revisions of a review, item by item: which servers, tool assessments,
 * sources, agents, controls and decisions were added, removed or changed, and which of their
 * fields. The History section lists this and opens a text diff only for the item a reviewer
 * picks: a text diff of two whole documents of a 5,000-tool review (1.5 MB each) took seconds,
 * and its answer (thousands of changed lines) was not readable anyway.
 *
 * Items are matched by their identity in the review (a server's id, an assessment's server, tool
 * and item kind, …), never by position, so reordering a list is no change. Two items are equal
 * when their canonical JSON (RFC 8785, key order ignored) is equal.
 */
import canonicalize from "canonicalize";
import { CONTROLS, type ControlRegistry } from "@/lib/controls/registry";
import type { Review } from "@/lib/review/schema";
import { REVISION_ITEM_KINDS, type RevisionItemKind } from "./api";

export type RevisionItemChange = {
  kind: RevisionItemKind;
  /** Unique within one diff and stable across revisions: `server:<id>`, `tool:<server>/<tool>`, … */
  key: string;
  /** A person's name for the item (a server's or agent's name, `get_issue on Ops`, …). */
  label: string;
  change: "added" | "removed" | "changed";
  /** Top-level fields that differ, for a changed item (`["roles", "rolesConfirmed"]`); empty otherwise. */
  fields: string[];
  /** Counts inside a changed list field, such as an agent's or a server's tools. */
  details: string[];
  /** The item in the earlier revision (null when added) and in the later one (null when removed). */
  before: unknown;
  after: unknown;
};

type Item = { key: string; label: string; value: Record<string, unknown> };

/** Plain JSON first: both revisions went through one schema, so equal items almost always serialise alike. */
const same = (a: unknown, b: unknown) =>
  JSON.stringify(a) === JSON.stringify(b) || canonicalize(a) === canonicalize(b);

/**
 * Keys items by `key`; a key seen again gets `#2`, `#3`, … in order, so lists whose entries are
 * not unique (two egress policies for one server, repeated statements) still pair up one to one.
 */
function keyed<T extends object>(
  items: readonly T[],
  key: (item: T) => string,
  label: (item: T) => string,
): Map<string, Item> {
  const out = new Map<string, Item>();
  const seen = new Map<string, number>();
  for (const item of items) {
    const base = key(item);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const k = n === 1 ? base : `${base}#${n}`;
    out.set(k, { key: k, label: label(item), value: item as Record<string, unknown> });
  }
  return out;
}

/** Added, removed and changed members of a list field, by identity: "tools: 2 added, 1 removed". */
function listDetail(
  field: string,
  before: readonly unknown[],
  after: readonly unknown[],
  identity: (item: unknown) => string,
): string | null {
  const a = new Map(before.map((x) => [identity(x), x]));
  const b = new Map(after.map((x) => [identity(x), x]));
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const [k, v] of b) {
    const old = a.get(k);
    if (old === undefined) added++;
    else if (!same(old, v)) changed++;
  }
  for (const k of a.keys()) if (!b.has(k)) removed++;
  const parts = [
    added > 0 ? `${added} added` : "",
    removed > 0 ? `${removed} removed` : "",
    changed > 0 ? `${changed} changed` : "",
  ].filter(Boolean);
  return parts.length > 0 ? `${field}: ${parts.join(", ")}` : null;
}

/** For list fields whose members have an identity, what changed inside them. */
const LIST_FIELDS: Partial<Record<RevisionItemKind, Record<string, (item: unknown) => string>>> = {
  server: { declaredTools: (t) => (t as { name: string }).name },
  agent: {
    tools: (t) => `${(t as { serverId: string }).serverId}/${(t as { tool: string }).tool}`,
  },
  decision: {
    toolSet: (t) => `${(t as { serverId: string }).serverId}/${(t as { tool: string }).tool}`,
  },
};

function compare(
  kind: RevisionItemKind,
  before: Map<string, Item>,
  after: Map<string, Item>,
  out: RevisionItemChange[],
): void {
  for (const [key, b] of after) {
    const a = before.get(key);
    if (!a) {
      out.push({
        kind,
        key,
        label: b.label,
        change: "added",
        fields: [],
        details: [],
        before: null,
        after: b.value,
      });
      continue;
    }
    if (same(a.value, b.value)) continue;
    const fields = [...new Set([...Object.keys(a.value), ...Object.keys(b.value)])]
      .filter((f) => !same(a.value[f] ?? null, b.value[f] ?? null))
      .sort();
    const details = fields.flatMap((f) => {
      const identity = LIST_FIELDS[kind]?.[f];
      const x = a.value[f];
      const y = b.value[f];
      if (!identity || !Array.isArray(x) || !Array.isArray(y)) return [];
      const d = listDetail(f, x, y, identity);
      return d ? [d] : [];
    });
    out.push({
      kind,
      key,
      label: b.label,
      change: "changed",
      fields,
      details,
      before: a.value,
      after: b.value,
    });
  }
  for (const [key, a] of before) {
    if (!after.has(key))
      out.push({
        kind,
        key,
        label: a.label,
        change: "removed",
        fields: [],
        details: [],
        before: a.value,
        after: null,
      });
  }
}

/** Every item of a review, by kind, keyed by identity. */
function items(review: Review): [RevisionItemKind, Map<string, Item>][] {
  const serverName = new Map<string, string>(review.servers.map((s) => [s.id, s.name]));
  const onServer = (serverId: string) => serverName.get(serverId) ?? serverId;
  const agentName = new Map<string, string>(review.agents.map((a) => [a.id, a.name]));
  const ofAgent = (agentId: string) => agentName.get(agentId) ?? agentId;
  const names = { server: onServer, agent: ofAgent };
  const { servers, sources, tools, agents, controls, decisions, ...meta } = review;
  return [
    [
      "review",
      keyed(
        [meta],
        () => "review",
        () => "Title, summary and schema version",
      ),
    ],
    [
      "server",
      keyed(
        servers,
        (s) => `server:${s.id}`,
        (s) => s.name,
      ),
    ],
    [
      "tool",
      keyed(
        tools,
        (t) => `${t.item && t.item !== "tool" ? t.item : "tool"}:${t.serverId}/${t.tool}`,
        (t) =>
          `${t.item && t.item !== "tool" ? `${t.item.replace("_", " ")} ` : ""}${t.tool} on ${onServer(t.serverId)}`,
      ),
    ],
    [
      "source",
      keyed(
        sources,
        (s) => `source:${s.id}`,
        (s) => s.name,
      ),
    ],
    [
      "agent",
      keyed(
        agents,
        (a) => `agent:${a.id}`,
        (a) => a.name,
      ),
    ],
    [
      "control",
      new Map([
        // Each control's configurations, in registry order, as its module names them.
        ...(CONTROLS as ControlRegistry).flatMap((d) =>
          d.config
            ? [
                ...keyed(
                  controls[d.config.key] as readonly object[],
                  (c) => d.config!.revisionItem.key(c),
                  (c) => d.config!.revisionItem.label(c, names),
                ),
              ]
            : [],
        ),
        ...keyed(
          controls.statementsOfIntent,
          (s) => `intent:${s.text}`,
          (s) => `Statement of intent: ${s.text.length > 60 ? `${s.text.slice(0, 59)}…` : s.text}`,
        ),
      ]),
    ],
    [
      "decision",
      keyed(
        decisions,
        (d) => `decision:${d.id}`,
        (d) =>
          `${d.verdict.replaceAll("_", " ")}: ${onServer(d.serverId)} for ${ofAgent(d.agentId)}`,
      ),
    ],
  ];
}

/**
 * The item-level difference from `before` to `after`: changes in REVISION_ITEM_KINDS order, and
 * within a kind in the later revision's order, removed items last. Empty when nothing differs.
 */
export function diffReviews(before: Review, after: Review): RevisionItemChange[] {
  const a = new Map(items(before));
  const out: RevisionItemChange[] = [];
  for (const [kind, b] of items(after))
    compare(kind, a.get(kind) ?? new Map<string, Item>(), b, out);
  return out;
}

/** "3 changed, 1 added" per kind, for a summary line. */
export function summarizeChanges(changes: readonly RevisionItemChange[]): string {
  if (changes.length === 0) return "no differences";
  return REVISION_ITEM_KINDS.flatMap(({ kind, label }) => {
    const of = changes.filter((c) => c.kind === kind);
    if (of.length === 0) return [];
    const n = (what: RevisionItemChange["change"]) => of.filter((c) => c.change === what).length;
    const parts = (["added", "removed", "changed"] as const)
      .filter((w) => n(w) > 0)
      .map((w) => `${n(w)} ${w}`);
    return [`${label.toLowerCase()}: ${parts.join(", ")}`];
  }).join("; ");
}
