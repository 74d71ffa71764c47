/**
 * The common shape of a control evaluation: computed from configuration only, never from prose.
 * `status` is a value, including the expected outcomes "absent" and "cannot_evaluate" with a reason.
 */
import type { Finding } from "@/lib/model/findings";
import type { NodeId } from "@/lib/model/ids";
import type { AgentId, ServerId } from "@/lib/ids";
import type { ControlId, ControlPosition } from "./catalog";

export type ControlStatus =
  /** Configured, and the configuration meets the control's conditions. */
  | "holds"
  /** Configured, and some condition fails (see findings). */
  | "fails"
  /** Not configured where it would sit. */
  | "absent"
  /** Configured, but the configuration cannot be read (e.g. malformed policy YAML). */
  | "cannot_evaluate";

export type ControlScope =
  { kind: "server"; serverId: ServerId } | { kind: "agent"; agentId: AgentId } | { kind: "review" };

export type ControlEvaluationBase = {
  controlId: ControlId;
  scope: ControlScope;
  status: ControlStatus;
  sitsAt: ControlPosition;
  /** Whether this control, as configured, removes the source-to-sink path. Only separation can. */
  cutsPath: boolean;
  stops: string;
  residue: string;
  /** One sentence for the UI. */
  summary: string;
  findings: Finding[];
  /** Graph nodes the control is drawn on. */
  attachesTo: NodeId[];
};
