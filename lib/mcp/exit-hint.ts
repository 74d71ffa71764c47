/**
 * A server that exits before answering leaves its reason in stderr, usually among stack frames
 * and banners. This picks the first line that reads as the error and says what to do about it, so
 * the reviewer sees it inline instead of opening the stderr tail. Both read attacker-controlled
 * text: the line is returned as text (rendered as text), cut at EXIT_LINE_MAX_CHARS, and only the
 * first STDERR_LINES_READ lines are scanned.
 */

export const STDERR_LINES_READ = 200;
export const EXIT_LINE_MAX_CHARS = 300;

const ERROR_LINE =
  /\b(error|fatal|panic|exception|cannot|could not|failed|not set|required|missing|denied|ENOENT|EACCES|ERR_[A-Z_]+)\b/i;

/** The first line of `stderrTail` that reads as an error, else its first non-empty line; null when empty. */
export function firstErrorLine(stderrTail: string | undefined): string | null {
  if (!stderrTail) return null;
  const lines = stderrTail
    .split(/\r?\n/, STDERR_LINES_READ)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^at\s/.test(l));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines[0];
  return line ? line.slice(0, EXIT_LINE_MAX_CHARS) : null;
}

/** What to do about a server that exited with `line` as its first error. */
export function exitAdvice(line: string | null): string {
  if (!line)
    return "The server exited without writing a reason. Run its launcher's command by hand on the workbench host to see why.";
  if (
    /\b[A-Z][A-Z0-9_]{2,}\b.*\b(not set|required|missing|undefined)\b/i.test(line) ||
    /\b(token|api key|credential)\b/i.test(line)
  )
    return "It is missing a variable or credential: set the value it names on the Secrets page (the launcher must list the name in envNames), then inspect again.";
  if (/ENOENT|Cannot find module|MODULE_NOT_FOUND|no such file/i.test(line))
    return "A file it needs is missing inside the sandbox: the workbench owner installs the server (npm ci) or fixes the script path in launchers.json.";
  if (/EACCES|EPERM|permission denied|operation not permitted/i.test(line))
    return "The sandbox refused something it tried: see the sandbox report below; the owner grants a read path or egress in launchers.json only if the server truly needs it.";
  if (/ENOTFOUND|ECONNREFUSED|EAI_AGAIN|getaddrinfo|network/i.test(line))
    return "It tried to reach the network, which the sandbox denies unless its launcher grants egress.";
  return "Fix what the line names and inspect again; the full stderr tail is below.";
}
