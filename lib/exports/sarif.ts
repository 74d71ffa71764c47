/**
 * A review's findings as a SARIF 2.1.0 log, for the tools teams already read (code scanning,
 * security dashboards). Pure: lib/workbench/sarif.ts gathers the review, its analysis, the
 * surface flags of each server's current surface and the failed inspections; the route and
 * `relay-review sarif` serve the result. docs/sarif.md describes the format.
 *
 * - Rules: one per finding kind (lib/exports/sarif-rules.ts), every rule in every log, so a rule's
 *   index never depends on what was found. Control rules cite the control catalog and the seed
 *   through a taxonomy of the four controls (and of what is not a control).
 * - Locations: each result's primary location names the agent, server and tool (or resource) it is
 *   about as logical locations, and as a physical artifact a stable review-relative URI,
 *   `relay-review://review/<review>/servers/<server>/tools/<tool>` (each segment percent-encoded);
 *   related locations name the other tools the finding rests on.
 * - Fingerprints: SHA-256 of the rule id and the finding's identity (its id, which names the kind
 *   and the agent, server, tool or configuration entry it is about; for a flag, the server, item,
 *   field and flag detail), never of a title or a description, so a re-run updates a result
 *   instead of adding one, and a reworded description keeps its result.
 * - Levels: critical and high → error, medium → warning, low and info → note; `rank` and
 *   `security-severity` carry the finer grade.
 * - Text: every message is plain text (no Markdown). Server-authored names and excerpts have their
 *   hidden characters revealed (lib/surface/suspicious.ts `revealHidden`, the scheme the UI uses)
 *   and square brackets and backslashes escaped, so a name cannot become a SARIF embedded link.
 * - Deterministic: no timestamps but the failed inspections' own, no random ids; the same review
 *   exports byte for byte the same log.
 */
import { describeDetectionCount, type DetectionView } from "@/lib/detection/view";
import type {
  Invocation,
  Location,
  Log,
  LogicalLocation,
  Notification,
  ReportingDescriptor,
  Result,
  Run,
} from "sarif";
import type { Analysis } from "@/lib/analysis/analyze";
import type { Finding, Severity } from "@/lib/model/findings";
import { splitItemKey, type ItemKind, type ToolKey } from "@/lib/model/ids";
import { NOT_CONTROLS } from "@/lib/controls/catalog";
import { CONTROL_CATALOG, controlEntry } from "@/lib/controls/registry";
import { sha256Hex } from "@/lib/hash";
import type { Review } from "@/lib/review/schema";
import { revealHidden } from "@/lib/surface/reveal";
import type { SuspiciousFlag } from "@/lib/surface/suspicious";
import type { SurfaceList } from "@/lib/surface/types";
import { RELAY_REVIEW_VERSION } from "@/lib/version";
import { SARIF_RULES, flagRuleId, sarifRuleFor, type SarifRuleSpec } from "./sarif-rules";

export const SARIF_SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/** The key of both fingerprints; bump the version when what is hashed changes. */
export const SARIF_FINGERPRINT_KEY = "relayReview/finding/v1";
export const SARIF_TAXONOMY = "RelayReviewControls";
/** Most related locations (tools a finding rests on) one result lists; `properties.relatedCount` says how many there were. */
export const MAX_RELATED_LOCATIONS = 25;
/** Most surface-flag results one log carries (a 10,000-tool surface can flag every field); a notification says when it stopped. */
export const MAX_FLAG_RESULTS = 5000;
/** Most characters of a flagged excerpt quoted in a message. */
export const MAX_EXCERPT_CHARS = 200;

const LEVEL: Record<Severity, Result.level> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "note",
  info: "note",
};
/** GitHub code scanning reads `security-severity` (0–10) from rules; results carry `rank` (0–100). */
const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: "9.5",
  high: "8.0",
  medium: "5.5",
  low: "3.0",
  info: "1.0",
};
const RANK: Record<Severity, number> = { critical: 95, high: 80, medium: 55, low: 30, info: 10 };

/** A server's latest inspection that failed, as the workbench stored it. */
export type FailedInspection = {
  serverId: string;
  inspectedAt: string;
  error: { code: string; limit?: string; message: string };
};

export type SarifInput = {
  reviewId: string;
  revision: number;
  review: Review;
  analysis: Analysis;
  /** The suspicious-text flags of each server's current surface (lib/surface/suspicious.ts scanSurface). */
  surfaceFlags: readonly { serverId: string; flags: readonly SuspiciousFlag[] }[];
  failedInspections: readonly FailedInspection[];
  /** Detection counts (issue 31): a run property, never a result, since a count is not a finding. */
  detection?: DetectionView;
};

/** Server-authored (or any) text for a SARIF plain-text message: hidden characters revealed, `[`, `]` and `\` escaped (SARIF §3.11.6). */
export function sarifText(text: string): string {
  return revealHidden(text).replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** Text shown outside messages (names, descriptions): hidden characters revealed, nothing else to escape. */
const shown = (text: string) => revealHidden(text);

/** The stable fingerprint of a result: the rule and the identity of what it is about, never its wording. */
export function sarifFingerprint(ruleId: string, identity: string): string {
  return sha256Hex(`${ruleId}\u0000${identity}`);
}

/** A correlation GUID derived from a fingerprint (version and variant bits set so it reads as a GUID). */
function guidOf(fingerprint: string): string {
  const h = fingerprint.slice(0, 32).split("");
  h[12] = "5";
  h[16] = "89ab"[parseInt(h[16]!, 16) % 4]!;
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

const seg = (s: string) => encodeURIComponent(s);

const ITEM_SEGMENT: Record<ItemKind, string> = {
  tool: "tools",
  resource: "resources",
  resource_template: "resource-templates",
};
const LIST_SEGMENT: Record<SurfaceList | "instructions", string> = {
  tools: "tools",
  resources: "resources",
  resourceTemplates: "resource-templates",
  prompts: "prompts",
  instructions: "instructions",
};
const LIST_WORD: Record<SurfaceList | "instructions", string> = {
  tools: "tool",
  resources: "resource",
  resourceTemplates: "resource template",
  prompts: "prompt",
  instructions: "instructions",
};
const ITEM_WORD: Record<ItemKind, string> = {
  tool: "tool",
  resource: "resource",
  resource_template: "resource template",
};

/** Where results point: the review-relative URIs and the names a person reads. */
class Places {
  readonly root: string;
  private readonly serverNames: Map<string, string>;
  private readonly agentNames: Map<string, string>;
  constructor(reviewId: string, review: Review) {
    this.root = `relay-review://review/${seg(reviewId)}`;
    this.serverNames = new Map(review.servers.map((s) => [s.id, s.name]));
    this.agentNames = new Map(review.agents.map((a) => [a.id, a.name]));
  }
  serverName(id: string) {
    return this.serverNames.get(id) ?? id;
  }
  agentName(id: string) {
    return this.agentNames.get(id) ?? id;
  }
  serverUri(serverId: string) {
    return `${this.root}/servers/${seg(serverId)}`;
  }
  agentUri(agentId: string) {
    return `${this.root}/agents/${seg(agentId)}`;
  }
  itemUri(serverId: string, item: ItemKind, name: string) {
    return `${this.serverUri(serverId)}/${ITEM_SEGMENT[item]}/${seg(name)}`;
  }
  listItemUri(serverId: string, list: SurfaceList | "instructions", key: string) {
    return list === "instructions"
      ? `${this.serverUri(serverId)}/instructions`
      : `${this.serverUri(serverId)}/${LIST_SEGMENT[list]}/${seg(key)}`;
  }
  agent(agentId: string): LogicalLocation {
    return {
      kind: "object",
      name: shown(this.agentName(agentId)),
      fullyQualifiedName: `agents/${shown(agentId)}`,
      properties: { relayReviewKind: "agent", id: shown(agentId) },
    };
  }
  server(serverId: string): LogicalLocation {
    return {
      kind: "module",
      name: shown(this.serverName(serverId)),
      fullyQualifiedName: `servers/${shown(serverId)}`,
      properties: { relayReviewKind: "server", id: shown(serverId) },
    };
  }
  item(serverId: string, item: ItemKind, name: string): LogicalLocation {
    return {
      kind: item === "tool" ? "function" : "resource",
      name: shown(name),
      fullyQualifiedName: `servers/${shown(serverId)}/${ITEM_SEGMENT[item]}/${shown(name)}`,
      properties: { relayReviewKind: item },
    };
  }
  /** "tool search_pages on Knowledge base" */
  itemPhrase(key: ToolKey) {
    const { serverId, tool, item } = splitItemKey(key);
    return `${ITEM_WORD[item]} ${shown(tool)} on ${shown(this.serverName(serverId))}`;
  }
  /** A tool (or resource) with its server, and the agent when given. */
  itemLocation(key: ToolKey, agentId?: string): Location {
    const { serverId, tool, item } = splitItemKey(key);
    return {
      physicalLocation: { artifactLocation: { uri: this.itemUri(serverId, item, tool) } },
      logicalLocations: [
        ...(agentId ? [this.agent(agentId)] : []),
        this.server(serverId),
        this.item(serverId, item, tool),
      ],
    };
  }
}

/** The primary location of a finding: its subject's tool, else server, else agent, else the review. */
function findingLocation(places: Places, f: Finding): Location {
  const { agentId, serverId, tool } = f.subject;
  if (tool) return places.itemLocation(tool, agentId);
  const logical: LogicalLocation[] = [
    ...(agentId ? [places.agent(agentId)] : []),
    ...(serverId ? [places.server(serverId)] : []),
  ];
  const uri = serverId
    ? places.serverUri(serverId)
    : agentId
      ? places.agentUri(agentId)
      : places.root;
  return {
    physicalLocation: { artifactLocation: { uri } },
    ...(logical.length ? { logicalLocations: logical } : {}),
  };
}

function findingResult(places: Places, f: Finding, ruleIndex: Map<string, number>): Result {
  const { spec } = sarifRuleFor(f.kind);
  const fingerprint = sarifFingerprint(spec.id, f.id);
  const primary = f.subject.tool ?? null;
  const related = [...new Set(f.why.tools)].filter((t) => t !== primary);
  return {
    ruleId: spec.id,
    ruleIndex: ruleIndex.get(spec.id)!, // every rule id is indexed (unknown kinds get one in buildSarif)
    kind: "fail",
    level: LEVEL[f.severity],
    rank: RANK[f.severity],
    message: { text: sarifText(`${f.title}. ${f.why.summary}`) },
    locations: [findingLocation(places, f)],
    ...(related.length
      ? {
          relatedLocations: related.slice(0, MAX_RELATED_LOCATIONS).map((key, i) => ({
            id: i + 1,
            ...places.itemLocation(key),
            message: { text: sarifText(`rests on ${places.itemPhrase(key)}`) },
          })),
        }
      : {}),
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprint },
    fingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprint },
    correlationGuid: guidOf(fingerprint),
    properties: {
      findingId: shown(f.id),
      severity: f.severity,
      ...(f.controlId ? { controlId: f.controlId } : {}),
      reliesOnSuggestions: f.why.reliesOnSuggestions,
      sources: f.why.sources.map(shown),
      config: f.why.config.map((c) => ({
        path: shown(c.path),
        value: shown(c.value),
        ...(c.line !== undefined ? { line: c.line } : {}),
      })),
      ...(related.length > MAX_RELATED_LOCATIONS ? { relatedCount: related.length } : {}),
      tags: ["security", ...(f.controlId ? [f.controlId] : [])],
    },
  };
}

type FlagGroup = { serverId: string; first: SuspiciousFlag; offsets: [number, number][] };

/** One result per server, item, field, flag kind and detail (a field with three zero-width spaces is one place to look). */
function flagGroups(input: SarifInput): FlagGroup[] {
  const order = new Map<string, number>(input.review.servers.map((s, i) => [s.id, i]));
  const groups = new Map<string, FlagGroup>();
  for (const { serverId, flags } of input.surfaceFlags)
    for (const f of flags) {
      const id = [serverId, f.list, f.key, f.field, f.kind, f.detail].join("\u0000");
      const g = groups.get(id);
      if (g) g.offsets.push([f.start, f.end]);
      else groups.set(id, { serverId, first: f, offsets: [[f.start, f.end]] });
    }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...groups.values()].sort(
    (a, b) =>
      (order.get(a.serverId) ?? 0) - (order.get(b.serverId) ?? 0) ||
      cmp(a.first.list, b.first.list) ||
      cmp(a.first.key, b.first.key) ||
      cmp(a.first.field, b.first.field) ||
      cmp(a.first.kind, b.first.kind) ||
      cmp(a.first.detail, b.first.detail),
  );
}

function flagResult(places: Places, g: FlagGroup, ruleIndex: Map<string, number>): Result {
  const f = g.first;
  const spec = sarifRuleFor(flagRuleId(f.kind)).spec;
  const identity = ["flag", g.serverId, f.list, f.key, f.field, f.detail].join("\u0000");
  const fingerprint = sarifFingerprint(spec.id, identity);
  const server = shown(places.serverName(g.serverId));
  const where =
    f.list === "instructions"
      ? `the instructions of ${server}`
      : `${LIST_WORD[f.list]} ${shown(f.key)} on ${server}`;
  const excerpt =
    f.revealed.length > MAX_EXCERPT_CHARS
      ? `${f.revealed.slice(0, MAX_EXCERPT_CHARS)}…`
      : f.revealed;
  const times = g.offsets.length === 1 ? "" : ` (${g.offsets.length} places)`;
  const itemUri = places.listItemUri(g.serverId, f.list, f.key);
  const logical: LogicalLocation[] = [places.server(g.serverId)];
  if (f.list !== "instructions")
    logical.push({
      kind: f.list === "tools" ? "function" : "resource",
      name: shown(f.key),
      fullyQualifiedName: `servers/${shown(g.serverId)}/${LIST_SEGMENT[f.list]}/${shown(f.key)}`,
      properties: { relayReviewKind: LIST_WORD[f.list] },
    });
  logical.push({
    kind: "property",
    name: shown(f.field),
    fullyQualifiedName: `servers/${shown(g.serverId)}/${LIST_SEGMENT[f.list]}${f.list === "instructions" ? "" : `/${shown(f.key)}`}#${shown(f.field)}`,
  });
  return {
    ruleId: spec.id,
    ruleIndex: ruleIndex.get(spec.id)!, // flag rules are all in SARIF_RULES
    kind: "fail",
    level: LEVEL[spec.severity],
    rank: RANK[spec.severity],
    message: {
      text: sarifText(
        `${spec.short}: ${f.detail ? `${shown(f.detail)} in ` : ""}${f.field || "the text"} of ${where}${times}: ${excerpt}`,
      ),
    },
    locations: [
      { physicalLocation: { artifactLocation: { uri: itemUri } }, logicalLocations: logical },
    ],
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprint },
    fingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprint },
    correlationGuid: guidOf(fingerprint),
    properties: {
      severity: spec.severity,
      list: f.list,
      field: shown(f.field),
      detail: shown(f.detail),
      occurrences: g.offsets.length,
      offsets: g.offsets.slice(0, 20).map(([start, end]) => ({ start, end })),
      tags: ["security", "detection"],
    },
  };
}

function ruleDescriptor(spec: SarifRuleSpec): ReportingDescriptor {
  const control = spec.control ? controlEntry(spec.control) : null;
  const notControl = spec.notAControl
    ? (NOT_CONTROLS.find((n) => n.id === spec.notAControl) ?? null)
    : null;
  const cite = control
    ? ` Control: ${control.name}, at ${control.sitsAt.replace("_", " ")}; it stops ${control.stops} and leaves ${control.residue}${control.canCutPath ? "; the one control that cuts the source-to-sink path" : ""}. Source: “${control.source.quote}” (${control.source.document}, § ${control.source.section}).`
    : notControl
      ? ` Not a control: ${notControl.reason}. Source: “${notControl.source.quote}” (${notControl.source.document}, § ${notControl.source.section}).`
      : "";
  const taxon = control?.id ?? notControl?.id ?? null;
  return {
    id: spec.id,
    name: spec.name,
    shortDescription: { text: spec.short },
    fullDescription: { text: `${spec.short}. ${spec.help}` },
    help: { text: `${spec.help}${cite}` },
    defaultConfiguration: { level: LEVEL[spec.severity] },
    ...(taxon
      ? {
          relationships: [
            {
              target: { id: taxon, toolComponent: { name: SARIF_TAXONOMY } },
              kinds: ["relevant"],
            },
          ],
        }
      : {}),
    properties: {
      tags: ["security", ...(control ? [control.id] : []), ...(notControl ? ["detection"] : [])],
      "security-severity": SECURITY_SEVERITY[spec.severity],
      ...(control
        ? {
            control: {
              id: control.id,
              name: control.name,
              sitsAt: control.sitsAt,
              canCutPath: control.canCutPath,
              source: control.source,
            },
          }
        : {}),
    },
  };
}

const taxonomy = {
  name: SARIF_TAXONOMY,
  shortDescription: {
    text: "The four controls of a relay-server review, and what is offered as a defence but is not one",
  },
  taxa: [
    ...CONTROL_CATALOG.map((c) => ({
      id: c.id,
      name: c.name,
      shortDescription: { text: `Stops ${c.stops}; leaves ${c.residue}` },
      fullDescription: {
        text: `“${c.source.quote}” (${c.source.document}, § ${c.source.section})`,
      },
      properties: { isControl: true, sitsAt: c.sitsAt, canCutPath: c.canCutPath },
    })),
    ...NOT_CONTROLS.map((n) => ({
      id: n.id,
      name: n.name,
      shortDescription: { text: `Not a control: ${n.reason}` },
      fullDescription: {
        text: `“${n.source.quote}” (${n.source.document}, § ${n.source.section})`,
      },
      properties: { isControl: false },
    })),
  ],
};

function inspectionNotification(places: Places, f: FailedInspection): Notification {
  const e = f.error;
  const why = e.limit ? `limit ${e.limit} tripped: ${e.message}` : `${e.code}: ${e.message}`;
  return {
    descriptor: { id: "inspection.failed" },
    level: "error",
    timeUtc: f.inspectedAt,
    message: {
      text: sarifText(
        `The latest inspection of ${places.serverName(f.serverId)} failed (${why}); its surface now is unknown, and the findings rest on its last good inspection or its declared tools`,
      ),
    },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: places.serverUri(f.serverId) } },
        logicalLocations: [places.server(f.serverId)],
      },
    ],
    properties: { code: e.code, ...(e.limit ? { limit: e.limit } : {}) },
  };
}

/** The review's findings, surface flags and failed inspections as one SARIF 2.1.0 log with one run. */
export function buildSarif(input: SarifInput): Log {
  const places = new Places(input.reviewId, input.review);
  const specs = [...SARIF_RULES];
  const ruleIndex = new Map(specs.map((s, i) => [s.id, i]));
  for (const f of input.analysis.findings) {
    const { spec, isKnown } = sarifRuleFor(f.kind);
    if (!isKnown && !ruleIndex.has(spec.id)) {
      ruleIndex.set(spec.id, specs.length);
      specs.push(spec);
    }
  }
  const results: Result[] = input.analysis.findings.map((f) => findingResult(places, f, ruleIndex));
  const groups = flagGroups(input);
  for (const g of groups.slice(0, MAX_FLAG_RESULTS)) results.push(flagResult(places, g, ruleIndex));

  const notifications: Notification[] = input.failedInspections.map((f) =>
    inspectionNotification(places, f),
  );
  if (groups.length > MAX_FLAG_RESULTS)
    notifications.push({
      descriptor: { id: "flags.truncated" },
      level: "warning",
      message: {
        text: `${groups.length} places carry surface flags; the first ${MAX_FLAG_RESULTS} are listed (MAX_FLAG_RESULTS); the review's surface panel shows them all`,
      },
    });
  const invocation: Invocation = {
    executionSuccessful: true,
    ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
  };
  const run: Run = {
    tool: {
      driver: {
        name: "Relay Review",
        fullName: "Relay Review: the second security review of an MCP relay server",
        version: RELAY_REVIEW_VERSION,
        semanticVersion: RELAY_REVIEW_VERSION,
        rules: specs.map(ruleDescriptor),
        supportedTaxonomies: [{ name: SARIF_TAXONOMY }],
      },
    },
    taxonomies: [taxonomy],
    automationDetails: {
      id: `relay-review/review-${input.reviewId}/`,
      description: {
        text: sarifText(`Relay Review findings for the review ${input.review.title}`),
      },
    },
    invocations: [invocation],
    results,
    properties: {
      reviewId: input.reviewId,
      reviewTitle: shown(input.review.title),
      revision: input.revision,
      analysisVersion: input.analysis.version,
      flagResults: Math.min(groups.length, MAX_FLAG_RESULTS),
      flagPlaces: groups.length,
      blockedServers: input.analysis.toolLists.filter((l) => l.blocked).map((l) => l.serverId),
      ...(input.detection ? { detection: sarifDetection(input.detection) } : {}),
    },
  };
  return { $schema: SARIF_SCHEMA_URI, version: "2.1.0", runs: [run] };
}

/**
 * The run's detection property: per source and per agent "k flagged of n scanned" with its 95 %
 * interval, the implied true share, and the detector's measured recall and FP rate. Names are
 * server- or reviewer-authored: shown with hidden characters revealed.
 */
function sarifDetection(d: DetectionView) {
  const count = (c: DetectionView["perSource"][number]) => ({
    name: shown(c.name),
    flagged: c.flagged.k,
    scanned: c.flagged.n,
    interval95: [c.flagged.low, c.flagged.high],
    trueShare: c.trueShare.informative
      ? { estimate: c.trueShare.estimate, interval95: [c.trueShare.low, c.trueShare.high] }
      : null,
    text: describeDetectionCount(c, d.detector),
  });
  return {
    isControl: false,
    detector: {
      recall: d.detector.recall.share,
      recallInterval95: [d.detector.recall.low, d.detector.recall.high],
      falsePositiveRate: d.detector.falsePositive.share,
      falsePositiveInterval95: [d.detector.falsePositive.low, d.detector.falsePositive.high],
      modelSha256: d.detector.modelSha256,
    },
    perSource: d.perSource.map(count),
    perAgent: d.perAgent.map(count),
  };
}
