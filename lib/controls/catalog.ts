/**
 * The shape of the control catalog, as pure data. Each control module (credential.ts, egress.ts,
 * separation.ts, approval.ts) declares its entry: where it sits in the path, what it stops, what it
 * leaves behind and whether it can cut the source-to-sink path, with a link to the seed section the
 * rule comes from; the registry (registry.ts) lists them. A coverage test fails when a control is
 * not cited by any test or lacks a source.
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

export type SourceLink = { document: string; section: string; quote: string };

export type ControlCatalogEntry = {
  /** The registry id, cited by tests as `[control:<id>]`. */
  id: string;
  name: string;
  sitsAt: ControlPosition;
  /** Which end of the path it narrows, or `path` for the one control that cuts it. */
  acts: "source_end" | "sink_end" | "path";
  canCutPath: boolean;
  stops: string;
  residue: string;
  source: SourceLink;
};

/** The seed's section on the four controls, which each control's entry quotes. */
export const CONTROLS_SECTION = "Four controls, and the one that addresses this";

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
      section: CONTROLS_SECTION,
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
