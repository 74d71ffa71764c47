/**
 * What the register form offers from the launcher allowlist: each launcher's command line, the
 * variable names it may receive and the egress it grants, so a reviewer picks an entry instead of
 * retyping it to match launchers.json. Names and grants only: a launcher's fixed `env` values are
 * not secret, but the form has no use for them.
 */
import { z } from "zod";
import type { Launcher } from "@/lib/sandbox/launchers";

export const LauncherChoiceSchema = z.object({
  id: z.string(),
  label: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  envNames: z.array(z.string()),
  egress: z.array(z.string()),
});
export type LauncherChoice = z.infer<typeof LauncherChoiceSchema>;

export const ListLaunchersResponseSchema = z.object({
  launchers: z.array(LauncherChoiceSchema),
  /** Why the allowlist could not be read, when it could not (the form then offers none). */
  problem: z.string().nullable(),
});
export type ListLaunchersResponse = z.infer<typeof ListLaunchersResponseSchema>;

/** The form's choices, in the allowlist's order. */
export function launcherChoices(launchers: readonly Launcher[]): LauncherChoice[] {
  return launchers.map((l) => ({
    id: l.id,
    label: l.label || l.id,
    command: l.command,
    args: [...l.args],
    envNames: [...l.envNames],
    egress: [...(l.sandbox?.egress ?? [])],
  }));
}
