/**
 * Residue composition: what survives the controls present, as one statement for the review. Read
 * the residue column of the catalog downward and compose it (the seed): "a payload already in the
 * source, reaching the tools that stayed in the session, in front of a person reading a sentence
 * the payload helped write". Each part comes from one control and appears only when that control is
 * present; where it is missing, the part says what is uncovered instead, so a review with fewer
 * controls never reads better than one with more.
 */
import type { ControlId } from "./catalog";
import { namesInProse } from "@/lib/model/prose";

export type ResidueClause = { controlIds: ControlId[]; present: boolean; text: string };

export type ResidueStatement = {
  text: string;
  clauses: ResidueClause[];
  /** Controls present whose configuration fails a condition: the statement is their best case. */
  caveats: string[];
};

export type ResidueInput = {
  /** Every relay server's credential holds. */
  credentialPresent: boolean;
  /** Every relay server's egress policy is an allowlist. */
  egressPresent: boolean;
  /** No agent holds both a returning tool and a sensitive sink. */
  separationInPlace: boolean;
  /** Sink names in agents that hold both, for the statement when separation is missing. */
  sinksSharingASession: string[];
  /** Every agent's sensitive sinks are covered by an approval configuration. */
  approvalPresent: boolean;
  caveats: string[];
};

/** Most sink names quoted in the statement; the rest are counted. */
export const MAX_SINKS_NAMED_IN_RESIDUE = 3;

/** Compose the residue statement. Pure; the same input yields the same sentence. */
export function composeResidue(input: ResidueInput): ResidueStatement {
  const clauses: ResidueClause[] = [];
  if (input.egressPresent && input.credentialPresent) {
    clauses.push({
      controlIds: ["credential", "egress"],
      present: true,
      text: "a payload already in the source",
    });
  } else if (input.egressPresent) {
    clauses.push({
      controlIds: ["egress"],
      present: true,
      text: "a payload already in the source",
    });
    clauses.push({
      controlIds: [],
      present: false,
      text: "behind a server token that can do more than read",
    });
  } else if (input.credentialPresent) {
    clauses.push({
      controlIds: ["credential"],
      present: true,
      text: "a payload in what the server legitimately reads",
    });
    clauses.push({
      controlIds: [],
      present: false,
      text: "or on any host the server can fetch from, with a way out to any host",
    });
  } else {
    clauses.push({
      controlIds: [],
      present: false,
      text: "a payload in the source or on any host the server can fetch from, with a way out to any host",
    });
    clauses.push({
      controlIds: [],
      present: false,
      text: "behind a server token that can do more than read",
    });
  }
  if (input.separationInPlace) {
    clauses.push({
      controlIds: ["separation"],
      present: true,
      text: "reaching the tools that stayed in the session",
    });
  } else {
    const names = [...new Set(input.sinksSharingASession)].sort();
    clauses.push({
      controlIds: [],
      present: false,
      text: `reaching every tool in the session, ${namesInProse(names, MAX_SINKS_NAMED_IN_RESIDUE)} among them`,
    });
  }
  if (input.approvalPresent) {
    clauses.push({
      controlIds: ["approval"],
      present: true,
      text: "in front of a person reading a sentence the payload helped write",
    });
  } else {
    clauses.push({
      controlIds: [],
      present: false,
      text: "with no person in front of the sink call",
    });
  }
  return { text: clauses.map((c) => c.text).join(", "), clauses, caveats: input.caveats };
}
