/**
 * The server form's one text field for URL-elicitation hosts: entries separated by commas or
 * line breaks, read into the list `RelayServerSchema.elicitationUrlHosts` holds.
 */
import { MAX_ELICITATION_URL_HOSTS, elicitationUrlHostIssue } from "@/lib/review/schema";

export type ElicitationUrlHostsText =
  { hosts: string[]; error: null } | { hosts: null; error: string };

/**
 * The hosts in `text`, or the first problem naming the entry at fault. Host names are matched
 * case-insensitively by DNS, so entries are lower-cased here; a repeated entry is kept once.
 */
export function parseElicitationUrlHostsText(text: string): ElicitationUrlHostsText {
  const entries = text
    .split(/[,\n]/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const hosts = [...new Set(entries)];
  for (const host of hosts) {
    const issue = elicitationUrlHostIssue(host);
    if (issue) return { hosts: null, error: issue };
  }
  if (hosts.length > MAX_ELICITATION_URL_HOSTS)
    return {
      hosts: null,
      error: `${hosts.length} hosts listed; at most ${MAX_ELICITATION_URL_HOSTS} are allowed`,
    };
  return { hosts, error: null };
}

/** The field's text for a stored list. */
export const elicitationUrlHostsText = (hosts: readonly string[]): string => hosts.join(", ");
