/**
 * The seed's own four controls (its section "Four controls, and the one that addresses this"), as
 * a registry. Tests of the seed's worked example and of its sentences evaluate these, so a control
 * added to the registry later (docs/controls.md) leaves what they check as the seed wrote it; the
 * catalog test checks that the registry holds all four.
 */
import { approvalControl } from "@/lib/controls/approval";
import { credentialControl } from "@/lib/controls/credential";
import { egressControl } from "@/lib/controls/egress";
import type { ControlRegistry } from "@/lib/controls/registry";
import { separationControl } from "@/lib/controls/separation";

export const SEED_CONTROLS: ControlRegistry = [
  credentialControl,
  egressControl,
  separationControl,
  approvalControl,
];
