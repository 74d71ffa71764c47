/**
 * Talking to a workbench from the CLI (`verify-record --workbench | --share`, `check`, `sarif`,
 * `flags`, `release`):
 * the owner token (RELAY_REVIEW_TOKEN, else the data folder's owner-token file, read and never
 * created), one GET bounded in time and size that never follows a redirect (the token must not
 * travel), the workbench's own error message shortened, and the options and `--help`/usage-error
 * handling of a command that asks about one review. Whatever the workbench answers is printed through `safeText`
 * (cli/shared/render.ts): a review holds server-authored names.
 */
import { open } from "node:fs/promises";
import path from "node:path";
import { parseCommandLine, type CommandLine, type CommandSpec } from "@/cli/shared/args";
import { safeText } from "@/cli/shared/render";
import { OWNER_TOKEN_FILE } from "@/lib/auth/owner-token";
import { resolveDataDir } from "@/lib/data-dir";
import { ReviewIdSchema } from "@/lib/ids";
import {
  parseWorkbenchBase,
  sendsCredentialInClear,
  workbenchHttpFailure,
  type WorkbenchEndpoint,
} from "@/lib/decisions/workbench-check";

/** Longest wait for the workbench's answer, body included. */
export const WORKBENCH_TIMEOUT_MS = 30_000;
/**
 * Largest answer accepted by default (`--workbench-max-bytes` raises it): a share view carries the
 * whole review and its analysis, about 21 MB for 5,000 tools held 200 each by 40 agents.
 */
export const MAX_WORKBENCH_RESPONSE_BYTES = 64 * 1024 * 1024;
/** An owner-token file is one line; anything much larger is not one. */
const MAX_TOKEN_FILE_BYTES = 4096;
/** Most characters of the workbench's own error message shown. */
const MAX_SERVER_MESSAGE = 300;

/**
 * JSON text for a terminal with the characters that can reorder or hide text written as \u escapes:
 * JSON's own escaping, so the data stays byte for byte what the workbench sent once parsed (the
 * characters can only occur inside strings); `safeText` would rewrite it.
 */
export function jsonTextSafe(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export type OwnerToken = { token: string; from: string };

/** RELAY_REVIEW_TOKEN, else `dataDir`'s (default: RELAY_REVIEW_DATA, else ./.data) owner-token file: read, never created. */
export async function loadOwnerToken(
  dataDir: string | null,
): Promise<{ ok: true; owner: OwnerToken } | { ok: false; message: string }> {
  const fromEnv = process.env.RELAY_REVIEW_TOKEN?.trim();
  if (fromEnv) return { ok: true, owner: { token: fromEnv, from: "RELAY_REVIEW_TOKEN" } };
  const file = path.join(dataDir ?? resolveDataDir(), OWNER_TOKEN_FILE);
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message:
        code === "ENOENT"
          ? `no owner token: RELAY_REVIEW_TOKEN is not set and there is no ${file} (the workbench writes it at first start; pass --data DIR)`
          : `cannot read the owner token from ${file}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  try {
    const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const token = buffer.subarray(0, bytesRead).toString("utf8").trim();
    if (bytesRead > MAX_TOKEN_FILE_BYTES || token === "" || /\s/.test(token))
      return { ok: false, message: `${file} does not hold an owner token` };
    return { ok: true, owner: { token, from: file } };
  } catch (error) {
    return {
      ok: false,
      message: `cannot read the owner token from ${file}: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await handle.close();
  }
}

/** The body, or null when it is longer than `limit` bytes (whatever Content-Length says). */
async function readCapped(res: Response, limit: number): Promise<string | null> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel();
    return null;
  }
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export type Fetched = { ok: true; status: number; text: string } | { ok: false; message: string };

/**
 * One GET (or a bodiless POST: `relay-review release`), bounded in time (WORKBENCH_TIMEOUT_MS, body
 * included) and size; redirects are not followed (the token must not travel).
 */
export async function getWorkbench(
  endpoint: WorkbenchEndpoint,
  headers: Record<string, string>,
  maxBytes: number,
  accept = "application/json",
  method: "GET" | "POST" = "GET",
): Promise<Fetched> {
  try {
    const res = await fetch(endpoint.apiUrl, {
      method,
      headers: { accept, ...headers },
      redirect: "manual",
      signal: AbortSignal.timeout(WORKBENCH_TIMEOUT_MS),
    });
    const text = await readCapped(res, maxBytes);
    if (text === null)
      return {
        ok: false,
        message: `the answer from ${endpoint.shown} is over the limit of ${maxBytes} bytes (raise it with --workbench-max-bytes)`,
      };
    return { ok: true, status: res.status, text };
  } catch (error) {
    const e = error as Error & { cause?: { message?: string; code?: string } };
    if (e.name === "TimeoutError" || e.name === "AbortError")
      return {
        ok: false,
        message: `no answer from the workbench at ${endpoint.shown} within ${WORKBENCH_TIMEOUT_MS} ms (WORKBENCH_TIMEOUT_MS)`,
      };
    const cause = e.cause?.code ?? e.cause?.message;
    // A share link's token is its credential: never echo the URL that carries it.
    const said = `${e.message}${cause ? ` (${cause})` : ""}`
      .split(endpoint.apiUrl)
      .join(endpoint.shown);
    return {
      ok: false,
      message: `cannot reach the workbench at ${endpoint.shown}: ${said}`,
    };
  }
}

/** The workbench's `{ error: { message } }`, if that is what it sent; shortened, since it is shown. */
export function serverErrorMessage(text: string): string | null {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } } | null)?.error?.message;
    if (typeof message !== "string" || message === "") return null;
    return message.length > MAX_SERVER_MESSAGE
      ? `${message.slice(0, MAX_SERVER_MESSAGE)}…`
      : message;
  } catch {
    return null;
  }
}

/** An owner API path of one review under a base from `parseWorkbenchBase` (`state`, `export/sarif`). */
export function reviewEndpoint(base: string, reviewId: string, rest: string): WorkbenchEndpoint {
  return { apiUrl: `${base}/api/reviews/${encodeURIComponent(reviewId)}/${rest}`, shown: base };
}

/** Options every owner-API command takes: where, which review, where the token is, how much to read. */
export type WorkbenchArgs = {
  base: string;
  reviewId: string;
  dataDir: string | null;
  maxBytes: number;
};

/** The options of a command that asks the owner API about one review (cli/shared/args.ts spec values). */
export const WORKBENCH_OPTIONS = [
  "--workbench",
  "--review",
  "--data",
  "--workbench-max-bytes",
] as const;

/** `--workbench URL --review ID [--data DIR] [--workbench-max-bytes N]` from a parsed command line, checked. */
export function workbenchArgs(
  line: CommandLine,
): { ok: true; args: WorkbenchArgs } | { ok: false; message: string } {
  if (line.errors.length) return { ok: false, message: line.errors.join("; ") };
  const workbench = line.values.get("--workbench");
  const reviewId = line.values.get("--review");
  if (workbench === undefined) return { ok: false, message: "--workbench URL is required" };
  if (reviewId === undefined) return { ok: false, message: "--review ID is required" };
  // The review id's own shape (lib/ids.ts): it goes into a URL path, so nothing else is sent.
  if (!ReviewIdSchema.safeParse(reviewId).success)
    return {
      ok: false,
      message:
        "--review must be a review id: 1–80 letters, digits, '.', '_' or '-', starting with a letter or digit",
    };
  const parsed = parseWorkbenchBase(workbench);
  if (!parsed.ok) return parsed;
  const maxText = line.values.get("--workbench-max-bytes");
  const maxBytes = maxText === undefined ? MAX_WORKBENCH_RESPONSE_BYTES : Number(maxText);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    return { ok: false, message: "--workbench-max-bytes must be a whole number of bytes" };
  return {
    ok: true,
    args: { base: parsed.base, reviewId, dataDir: line.values.get("--data") ?? null, maxBytes },
  };
}

/**
 * A command that asks the owner API about one review (`check`, `sarif`, `flags`, `release`): its
 * name and usage, and the options it takes beside WORKBENCH_OPTIONS, which `read` checks.
 */
export type ReviewCommand<T> = {
  name: string;
  usage: string;
  spec: Omit<CommandSpec, "command">;
  /** The command's own options from a line that passed `workbenchArgs`; a message names what is wrong. */
  read: (line: CommandLine) => { ok: true; args: T } | { ok: false; message: string };
};

/** The split of such a command's line: the workbench options, then the command's own. */
export function reviewCommandSpec(command: ReviewCommand<unknown>): CommandSpec {
  return {
    ...command.spec,
    values: [...WORKBENCH_OPTIONS, ...(command.spec.values ?? [])],
  };
}

/**
 * The options of a review command, checked: the workbench options first (so every such command
 * words a bad `--workbench`, `--review`, `--data` or `--workbench-max-bytes` the same), then its own.
 */
export function parseReviewCommand<T>(
  argv: readonly string[],
  command: ReviewCommand<T>,
): { ok: true; args: WorkbenchArgs & T } | { ok: false; message: string } {
  const line = parseCommandLine(argv, reviewCommandSpec(command));
  const workbench = workbenchArgs(line);
  if (!workbench.ok) return workbench;
  const own = command.read(line);
  if (!own.ok) return own;
  return { ok: true, args: { ...workbench.args, ...own.args } };
}

/**
 * The start of a review command's `run`: `--help` prints the usage on stdout (exit 0); a usage
 * error prints the message and the usage on stderr (exit 2); else the checked options and the
 * command's stderr writer (`relay-review NAME: …`, through `safeText`).
 */
export function startReviewCommand<T>(
  argv: readonly string[],
  command: ReviewCommand<T>,
):
  { ok: true; args: WorkbenchArgs & T; err: (line: string) => void } | { ok: false; exit: number } {
  const err = (line: string) =>
    process.stderr.write(`relay-review ${command.name}: ${safeText(line)}\n`);
  if (parseCommandLine(argv, reviewCommandSpec(command)).isHelp) {
    process.stdout.write(command.usage + "\n");
    return { ok: false, exit: 0 };
  }
  const parsed = parseReviewCommand(argv, command);
  if (!parsed.ok) {
    err(parsed.message);
    process.stderr.write(command.usage + "\n");
    return { ok: false, exit: 2 };
  }
  return { ok: true, args: parsed.args, err };
}

/**
 * One owner-API request about a review, answered whatever its status: the owner token, a warning
 * when it would cross the network in clear, the bounded fetch. A failure here is one that got no
 * answer; `isUsage` marks the one that is the operator's to fix (no token).
 */
export async function askReview(
  args: WorkbenchArgs,
  rest: string,
  warn: (line: string) => void,
  options: { accept?: string; method?: "GET" | "POST" } = {},
): Promise<
  | { ok: true; status: number; text: string; shown: string; tokenFrom: string }
  | { ok: false; isUsage: boolean; message: string }
> {
  const token = await loadOwnerToken(args.dataDir);
  if (!token.ok) return { ok: false, isUsage: true, message: token.message };
  const endpoint = reviewEndpoint(args.base, args.reviewId, rest);
  if (sendsCredentialInClear(endpoint.apiUrl))
    warn(
      `warning: the owner token goes to ${endpoint.shown} over plain http, readable on the way; use https off this machine`,
    );
  const fetched = await getWorkbench(
    endpoint,
    { authorization: `Bearer ${token.owner.token}` },
    args.maxBytes,
    options.accept,
    options.method,
  );
  if (!fetched.ok) return { ok: false, isUsage: false, message: fetched.message };
  return {
    ok: true,
    status: fetched.status,
    text: fetched.text,
    shown: endpoint.shown,
    tokenFrom: token.owner.from,
  };
}

/**
 * One owner-only GET of a review's API path, as `check` and `sarif` make it: `askReview`, then the
 * HTTP status and the JSON parse. A failure says what went wrong; `isUsage` marks the one that is
 * the operator's to fix (no token), every other is the workbench's.
 */
export async function getReviewJson(
  args: WorkbenchArgs,
  rest: string,
  warn: (line: string) => void,
  accept?: string,
): Promise<
  | { ok: true; json: unknown; text: string; shown: string }
  | { ok: false; isUsage: boolean; message: string }
> {
  const fetched = await askReview(args, rest, warn, accept ? { accept } : {});
  if (!fetched.ok) return fetched;
  if (fetched.status < 200 || fetched.status > 299)
    return {
      ok: false,
      isUsage: false,
      message: workbenchHttpFailure(
        "owner",
        fetched.status,
        serverErrorMessage(fetched.text),
        args.reviewId,
        fetched.tokenFrom,
      ),
    };
  try {
    const json = JSON.parse(fetched.text) as unknown;
    return { ok: true, json, text: fetched.text, shown: fetched.shown };
  } catch {
    return { ok: false, isUsage: false, message: `the answer from ${fetched.shown} is not JSON` };
  }
}
