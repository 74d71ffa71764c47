/**
 * What one revision changed, in one line, from the difference to the revision before it: "mapped
 * 5 tools to Issue tracker; renamed agent coding assistant to coding assistant (read)". The History
 * list shows it beside each revision, so 45 revisions read as 45 steps, not 45 times the review's
 * title. Pure: computed from the two documents (diffReviews), never stored, so it cannot disagree
 * with the item-level difference the History section opens.
 */
import type { Review } from "@/lib/review/schema";
import { SAMPLE_KIND_LABEL } from "@/lib/roles/sampled-text";
import { diffReviews, type RevisionItemChange } from "./revision-diff";

/** Clauses shown before "and N more". */
export const LINE_CLAUSES_SHOWN = 3;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const quoteCut = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

type Tool = Review["tools"][number];
type Agent = Review["agents"][number];

/** The sample `after` keeps that `before` did not (a sample run from the workbench), or null. */
function newSample(before: Tool | null, after: Tool) {
  const last = after.samples?.at(-1);
  if (!last) return null;
  const key = JSON.stringify(last);
  return (before?.samples ?? []).some((s) => JSON.stringify(s) === key) ? null : last;
}

/** Clauses for the tool assessments: mapping to sources, roles set or confirmed, samples, anything else. */
function toolClauses(changes: RevisionItemChange[], sourceName: (id: string) => string): string[] {
  const mapped = new Map<string, number>();
  const unmapped = new Map<string, number>();
  const sampled: string[] = [];
  let rolesSet = 0;
  let confirmed = 0;
  let other = 0;
  for (const c of changes) {
    const before = (c.before ?? null) as Tool | null;
    const after = (c.after ?? null) as Tool | null;
    if (!after) {
      other++;
      continue;
    }
    const was = new Set(before?.sourceIds ?? []);
    const now = new Set(after.sourceIds ?? []);
    for (const s of now) if (!was.has(s)) mapped.set(s, (mapped.get(s) ?? 0) + 1);
    for (const s of was) if (!now.has(s)) unmapped.set(s, (unmapped.get(s) ?? 0) + 1);
    const rolesBefore = [...(before?.roles ?? [])].sort().join(",");
    const rolesAfter = [...(after.roles ?? [])].sort().join(",");
    const rolesChanged = rolesBefore !== rolesAfter;
    if (rolesChanged) rolesSet++;
    else if (!before?.rolesConfirmed && after.rolesConfirmed) confirmed++;
    const sourcesChanged = was.size !== now.size || [...now].some((s) => !was.has(s));
    const sample = newSample(before, after);
    if (sample) sampled.push(`sampled ${quoteCut(after.tool)}: ${SAMPLE_KIND_LABEL[sample.kind]}`);
    if (
      !rolesChanged &&
      !sourcesChanged &&
      !(!before?.rolesConfirmed && after.rolesConfirmed) &&
      !sample
    )
      other++;
  }
  return [
    ...[...mapped].map(([s, n]) => `mapped ${plural(n, "tool")} to ${sourceName(s)}`),
    ...[...unmapped].map(([s, n]) => `unmapped ${plural(n, "tool")} from ${sourceName(s)}`),
    ...(rolesSet > 0 ? [`set the roles of ${plural(rolesSet, "tool")}`] : []),
    ...(confirmed > 0 ? [`confirmed the roles of ${plural(confirmed, "tool")}`] : []),
    ...sampled,
    ...(other > 0 ? [`changed ${plural(other, "tool assessment")}`] : []),
  ];
}

/** Clauses for one agent: added, removed, renamed, tools given or taken. */
function agentClauses(c: RevisionItemChange): string[] {
  const before = c.before as Agent | null;
  const after = c.after as Agent | null;
  if (!before) return [`added agent ${quoteCut(c.label)}`];
  if (!after) return [`removed agent ${quoteCut(c.label)}`];
  const out: string[] = [];
  if (before.name !== after.name)
    out.push(`renamed agent ${quoteCut(before.name)} to ${quoteCut(after.name)}`);
  const key = (t: { serverId: string; tool: string }) => `${t.serverId}/${t.tool}`;
  const was = new Set(before.tools.map(key));
  const now = new Set(after.tools.map(key));
  const given = [...now].filter((k) => !was.has(k)).length;
  const taken = [...was].filter((k) => !now.has(k)).length;
  if (given > 0) out.push(`gave ${quoteCut(after.name)} ${plural(given, "tool")}`);
  if (taken > 0) out.push(`took ${plural(taken, "tool")} from ${quoteCut(after.name)}`);
  if (out.length === 0) out.push(`changed agent ${quoteCut(after.name)}`);
  return out;
}

/** A change to a named item: added, removed, renamed or changed (with its fields). */
function namedClause(noun: string, c: RevisionItemChange, addedVerb = "added"): string {
  const before = c.before as { name?: unknown } | null;
  const after = c.after as { name?: unknown } | null;
  if (c.change === "added") return `${addedVerb} ${noun} ${quoteCut(c.label)}`;
  if (c.change === "removed") return `removed ${noun} ${quoteCut(c.label)}`;
  if (
    typeof before?.name === "string" &&
    typeof after?.name === "string" &&
    before.name !== after.name
  )
    return `renamed ${noun} ${quoteCut(before.name)} to ${quoteCut(after.name)}`;
  return `changed ${noun} ${quoteCut(c.label)} (${c.fields.join(", ")})`;
}

/** Every clause of the line, in the order of the review's items. */
export function revisionClauses(before: Review | null, after: Review): string[] {
  if (!before) return ["created the review"];
  const changes = diffReviews(before, after);
  const sourceNames = new Map<string, string>(
    [...before.sources, ...after.sources].map((s) => [s.id, s.name]),
  );
  const sourceName = (id: string) => quoteCut(sourceNames.get(id) ?? id);
  const of = (kind: RevisionItemChange["kind"]) => changes.filter((c) => c.kind === kind);
  const out: string[] = [];
  for (const c of of("review")) {
    const b = c.before as { title?: string } | null;
    const a = c.after as { title?: string } | null;
    out.push(
      b?.title !== a?.title
        ? `retitled the review ${quoteCut(a?.title ?? "")}`
        : `changed the review's ${c.fields.join(", ")}`,
    );
  }
  for (const c of of("server")) out.push(namedClause("server", c, "registered"));
  for (const c of of("source")) out.push(namedClause("source", c));
  out.push(...toolClauses(of("tool"), sourceName));
  for (const c of of("agent")) out.push(...agentClauses(c));
  for (const c of of("control")) out.push(`${c.change} ${quoteCut(c.label)}`);
  for (const c of of("decision"))
    out.push(
      c.change === "added"
        ? `decided ${quoteCut(c.label)}`
        : `${c.change} decision ${quoteCut(c.label)}`,
    );
  return out;
}

/** The line: the first LINE_CLAUSES_SHOWN clauses, then how many more; "no change" when none. */
export function revisionLine(before: Review | null, after: Review): string {
  const clauses = revisionClauses(before, after);
  if (clauses.length === 0) return "no change";
  const shown = clauses.slice(0, LINE_CLAUSES_SHOWN).join("; ");
  const more = clauses.length - LINE_CLAUSES_SHOWN;
  return more > 0 ? `${shown}; and ${plural(more, "more change")}` : shown;
}
