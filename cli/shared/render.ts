/**
 * Terminal rendering, and the CLI's one escaping scheme. Text from a server, a record, a pin file
 * or a workbench is hostile: every string goes through `revealHidden` (via `q` or `safeText`), so
 * an ANSI escape, a control character or a bidi override shows as ⟦…⟧ (`⟦ANSI ESC[2J⟧`,
 * `⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧`) instead of acting on the operator's terminal, the same
 * notation the workbench shows.
 */
import { effectiveAnnotations, ANNOTATION_HINTS } from "@/lib/tools/annotations";
import type { SuspiciousFlag } from "@/lib/surface/suspicious";
import { revealCodePoint, revealHidden } from "@/lib/surface/reveal";
import type { SurfaceSnapshot } from "@/lib/surface/types";

/** Quote server text for a terminal: hidden characters revealed, control characters escaped. */
export function q(text: string): string {
  return JSON.stringify(revealHidden(text));
}

/**
 * Free text made safe for a terminal, without quoting. Line breaks stay (CRLF becomes LF); a lone
 * CR, which would let text overwrite the line it is on, is revealed like any control character.
 */
export function safeText(text: string): string {
  return revealHidden(text.replace(/\r\n/g, "\n")).replace(/\r/g, revealCodePoint(0x0d));
}

function schemaSummary(schema: Record<string, unknown> | undefined): string {
  if (!schema) return "(none)";
  const props = schema.properties;
  if (!props || typeof props !== "object") return "(no properties)";
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === "string")
      : [],
  );
  const parts = Object.entries(props as Record<string, unknown>).map(([k, v]) => {
    const t = v && typeof v === "object" ? (v as Record<string, unknown>).type : undefined;
    const type = typeof t === "string" ? t : Array.isArray(t) ? t.join("|") : "any";
    return `${q(k)}: ${type}${required.has(k) ? " (required)" : ""}`;
  });
  return parts.length ? parts.join(", ") : "(no properties)";
}

export function renderSnapshot(s: SurfaceSnapshot, flags: readonly SuspiciousFlag[]): string {
  const out: string[] = [];
  const hashOf = (list: "tools" | "resources" | "resourceTemplates" | "prompts", key: string) =>
    s.itemHashes[list].find((h) => h.key === key)?.sha256 ?? "";
  out.push(
    `server: ${q(s.serverInfo.name)} ${q(s.serverInfo.version)} (protocol ${q(s.protocolVersion)}, ${s.era ?? "2025"} era, ${s.transport})`,
  );
  out.push(`declared client capabilities: ${s.declaredCapabilities.join(", ")}`);
  out.push(`server capabilities: ${Object.keys(s.capabilities).sort().join(", ") || "(none)"}`);
  out.push(`instructions: ${s.instructions === null ? "(none)" : q(s.instructions)}`);
  out.push(
    `settled after ${s.settle.listChangedNotifications} list_changed notification(s), ${Object.values(s.settle.relists).reduce((a, b) => a + b, 0)} re-list(s)`,
  );
  out.push("");
  out.push(`tools (${s.tools.length}):`);
  for (const t of s.tools) {
    out.push(`  ${q(t.name)}${t.title !== undefined ? `  title ${q(t.title)}` : ""}`);
    out.push(`    description: ${t.description === undefined ? "(none)" : q(t.description)}`);
    const eff = effectiveAnnotations(t.annotations);
    out.push(
      `    annotations: ${ANNOTATION_HINTS.map((h) => `${h}=${eff[h].value}${eff[h].origin === "declared" ? " (declared)" : " (spec default)"}`).join(", ")}`,
    );
    out.push(`    input: ${schemaSummary(t.inputSchema)}`);
    if (t.outputSchema) out.push(`    output: ${schemaSummary(t.outputSchema)}`);
    out.push(`    sha256: ${hashOf("tools", t.name)}`);
  }
  out.push(`resources (${s.resources.length}):`);
  for (const r of s.resources)
    out.push(
      `  ${q(r.uri)} name ${q(r.name)}${r.description !== undefined ? ` — ${q(r.description)}` : ""}  sha256 ${hashOf("resources", r.uri)}`,
    );
  out.push(`resource templates (${s.resourceTemplates.length}):`);
  for (const r of s.resourceTemplates)
    out.push(
      `  ${q(r.uriTemplate)} name ${q(r.name)}${r.description !== undefined ? ` — ${q(r.description)}` : ""}  sha256 ${hashOf("resourceTemplates", r.uriTemplate)}`,
    );
  out.push(`prompts (${s.prompts.length}):`);
  for (const p of s.prompts) {
    const args = (p.arguments ?? [])
      .map((a) => `${q(a.name)}${a.required ? " (required)" : ""}`)
      .join(", ");
    out.push(
      `  ${q(p.name)}${p.description !== undefined ? ` — ${q(p.description)}` : ""}${args ? `  args: ${args}` : ""}  sha256 ${hashOf("prompts", p.name)}`,
    );
  }
  if (s.rejects.length) {
    out.push(
      `rejected items (${s.rejects.length}) — kept, not dropped; they count in the fingerprint:`,
    );
    for (const r of s.rejects)
      out.push(
        `  ${r.list} page ${r.page} #${r.index}: ${safeText(r.reason)}  raw ${q(JSON.stringify(r.raw) ?? "undefined").slice(0, 300)}`,
      );
  }
  out.push("");
  if (flags.length) {
    out.push(`suspicious text (${flags.length}) — where to look, not a control:`);
    for (const f of flags.slice(0, 200)) {
      const where = f.list === "instructions" ? "instructions" : `${f.list} ${q(f.key)} ${f.field}`;
      out.push(
        `  ! ${f.kind}/${f.detail} at ${where} [${f.start}, ${f.end}): ${JSON.stringify(f.revealed)}`,
      );
    }
    if (flags.length > 200) out.push(`  … and ${flags.length - 200} more (use --json for all)`);
  } else out.push("suspicious text: none found (which proves nothing; detection is not a control)");
  out.push("");
  out.push(`surface_sha256: ${s.surfaceSha256}`);
  return out.join("\n");
}
