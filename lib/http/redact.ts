/**
 * Share-link tokens out of log lines: a share link's path carries its token (`/share/<token>`,
 * `/api/share/<token>/…`), and a token may ride in a query (`?token=…`). Anyone who can read the
 * log must not be able to open the review. The error logged beside a route's message is scrubbed
 * the same way (its message, stack, causes and plain fields), credential shapes too. Pure.
 */
import { redactTokenShapes } from "@/lib/secrets/redact";

// Up to the next path, query or fragment delimiter, or the quote or bracket that ends the URL in a log line.
const SHARE_SEGMENT = /(\/share\/)[^/?#\s"'<>()[\]{}\\]+/g;
const TOKEN_QUERY = /([?&#](?:token|share_token|access_token|api_key|apikey|key)=)[^&#\s]*/gi;

export function redactUrlSecrets(text: string): string {
  return text.replace(SHARE_SEGMENT, "$1[redacted]").replace(TOKEN_QUERY, "$1[redacted]");
}

/** A log line with share tokens and credential-shaped values replaced. */
export function scrubLogText(text: string): string {
  return redactTokenShapes(redactUrlSecrets(text));
}

/** How deep a chain of causes is followed; deeper ones are cut. */
const MAX_CAUSE_DEPTH = 4;
/** Longest text kept from one field of a logged error. */
const MAX_LOG_FIELD = 8_000;

const scrubField = (v: string) =>
  scrubLogText(v.length > MAX_LOG_FIELD ? `${v.slice(0, MAX_LOG_FIELD)}…` : v);

/**
 * A copy of what a route logs beside its message, safe to write: an Error keeps its name, code
 * and other string, number and boolean fields, with message, stack and each string scrubbed, and
 * its causes scrubbed the same way (bounded); fields of other kinds (a query's `params`, a
 * request object) are left out. Any other value is logged as scrubbed text.
 */
export function scrubErrorForLog(value: unknown, depth = 0): unknown {
  if (value === undefined || value === null) return value;
  if (!(value instanceof Error)) {
    let text: string;
    try {
      text = typeof value === "string" ? value : (JSON.stringify(value) ?? `[${typeof value}]`);
    } catch {
      text = Object.prototype.toString.call(value);
    }
    return scrubField(text);
  }
  const copy = new Error(scrubField(value.message));
  copy.name = value.name;
  copy.stack = value.stack === undefined ? undefined : scrubField(value.stack);
  const fields = copy as unknown as Record<string, unknown>; // safe: a fresh Error we own
  for (const [key, v] of Object.entries(value)) {
    if (key === "cause" || key === "stack" || key === "message") continue;
    if (typeof v === "string") fields[key] = scrubField(v);
    else if (typeof v === "number" || typeof v === "boolean") fields[key] = v;
  }
  if (value.cause !== undefined)
    copy.cause =
      depth + 1 >= MAX_CAUSE_DEPTH
        ? "[further causes not logged]"
        : scrubErrorForLog(value.cause, depth + 1);
  return copy;
}
