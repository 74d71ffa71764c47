/**
 * The control catalog, as pure data. Each control names where it sits in the path, what it stops,
 * what it leaves behind and whether it can cut the source-to-sink path, with a link to the seed
 * section the rule comes from. Evaluations (credential.ts, separation.ts, egress.ts, approval.ts)
 * cite these ids; a coverage test fails when a control is not cited by any test or lacks a source.
 *
 * Only tool-set separation can cut the path; the other three narrow what sits at either end of it
 * (docs/analysis.md § Controls). Things that are not controls are catalogued too, with the reason,
 * so that nobody adds them as mitigations by accident.
 */

export const SEED_DOCUMENT = "shared/seed/002_e2f23ab2b6b209f1.txt";

/** Where a control sits in the request's path. */
export const CONTROL_POSITIONS = [
  "server_credential",
  "session_boundary",
  "server_egress",
  "sink_call",
] as const;
export type ControlPosition = (typeof CONTROL_POSITIONS)[number];

export const CONTROL_IDS = ["credential", "separation", "egress", "approval"] as const;
export type ControlId = (typeof CONTROL_IDS)[number];

export type SourceLink = { document: string; section: string; quote: string };

export type ControlCatalogEntry = {
  id: ControlId;
  name: string;
  sitsAt: ControlPosition;
  /** Which end of the path it narrows, or `path` for the one control that cuts it. */
  acts: "source_end" | "sink_end" | "path";
  canCutPath: boolean;
  stops: string;
  residue: string;
  source: SourceLink;
};

const section = "Four controls, and the one that addresses this";

export const CONTROL_CATALOG: readonly ControlCatalogEntry[] = [
  {
    id: "credential",
    name: "Scoped credential",
    sitsAt: "server_credential",
    acts: "source_end",
    canCutPath: false,
    stops: "what a compromised server could do beyond reading",
    residue: "everything the server legitimately reads",
    source: {
      document: SEED_DOCUMENT,
      section,
      quote:
        "The token the server holds should be read-only, project-scoped, and issued to a service identity that is not a person",
    },
  },
  {
    id: "separation",
    name: "Tool-set separation",
    sitsAt: "session_boundary",
    acts: "path",
    canCutPath: true,
    stops: "the path from a returned text to a sensitive sink",
    residue: "whatever damage the remaining tools can do",
    source: {
      document: SEED_DOCUMENT,
      section,
      quote: "Tool-set separation is the control that actually addresses this deployment",
    },
  },
  {
    id: "egress",
    name: "Network egress boundary",
    sitsAt: "server_egress",
    acts: "source_end",
    canCutPath: false,
    stops: "the exfiltration half of an attack, and new fetch features",
    residue: "payloads already sitting in the sources",
    source: {
      document: SEED_DOCUMENT,
      section,
      quote:
        "The network boundary matters more than it looks, because it is what stops the second half of most attacks",
    },
  },
  {
    id: "approval",
    name: "Approval on the sensitive path",
    sitsAt: "sink_call",
    acts: "sink_end",
    canCutPath: false,
    stops: "unreviewed sensitive calls, if rare and out of band",
    residue: "an approver who trusts the model's justification",
    source: {
      document: SEED_DOCUMENT,
      section,
      quote: "Approval on the sensitive path is the weakest of the four",
    },
  },
];

/** Things that are offered as defences and are not controls: no position in the path. */
export type NotAControl = { id: string; name: string; reason: string; source: SourceLink };

export const NOT_CONTROLS: readonly NotAControl[] = [
  {
    id: "statement_of_intent",
    name: "Statement of intent",
    reason:
      "a sentence in a document occupies no position in the path: no process reads it during a tool call",
    source: {
      document: SEED_DOCUMENT,
      section,
      quote: "Prose is not a control, and the reason is mechanical rather than cultural",
    },
  },
  {
    id: "detection_flags",
    name: "Detection flags on suspicious text",
    reason:
      "flags tell the reviewer where to look; none of them stops a payload or shrinks what it can reach",
    source: {
      document: SEED_DOCUMENT,
      section: "Server honesty, and the gap detection leaves",
      quote: "none of them tells you that a payload arrived",
    },
  },
  {
    id: "maintainer_reputation",
    name: "Maintainer reputation",
    reason:
      "orthogonal to this risk: a more faithful server returns more attacker-authored text, not less",
    source: {
      document: SEED_DOCUMENT,
      section: "Counting who can write into the input",
      quote: "maintainer quality is orthogonal to this risk rather than a mitigation for it",
    },
  },
];

/** The catalog entry of a control id. */
export function controlEntry(id: ControlId): ControlCatalogEntry {
  const entry = CONTROL_CATALOG.find((c) => c.id === id);
  if (!entry) throw new Error(`control ${id} is missing from the catalog`); // unreachable: CONTROL_IDS and CONTROL_CATALOG are checked by a test
  return entry;
}
