/**
 * The owner token: RELAY_REVIEW_TOKEN when set, otherwise a 32-byte random token generated on
 * first start and kept in the data folder (mode 0600). Read synchronously and cached, because
 * the proxy needs it on every request. Not marked server-only: the proxy bundle imports it, and
 * it is Node-only by its imports (node:fs) anyway.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { allowedHostsFor, type AuthConfig } from "@/lib/auth/check";
import { resolveDataDir } from "@/lib/data-dir";

export const OWNER_TOKEN_FILE = "owner-token";
export const MIN_OWNER_TOKEN_LENGTH = 32;
const TOKEN_BYTES = 32;

export type OwnerTokenSource = "env" | "file" | "generated";
export interface OwnerToken {
  token: string;
  source: OwnerTokenSource;
  /** The token file, when the token lives in one. */
  file: string | null;
}

export function resolveOwnerToken(
  env: Record<string, string | undefined>,
  dataDir: string,
): OwnerToken {
  const fromEnv = env.RELAY_REVIEW_TOKEN?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_OWNER_TOKEN_LENGTH || /\s/.test(fromEnv)) {
      throw new Error(
        `RELAY_REVIEW_TOKEN must be at least ${MIN_OWNER_TOKEN_LENGTH} characters with no spaces`,
      );
    }
    return { token: fromEnv, source: "env", file: null };
  }
  const file = path.join(dataDir, OWNER_TOKEN_FILE);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const generated = randomBytes(TOKEN_BYTES).toString("base64url");
  try {
    // "wx": if another process won the race to create it, read theirs instead.
    fs.writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: "wx" });
    return { token: generated, source: "generated", file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stored = fs.readFileSync(file, "utf8").trim();
  if (stored.length < MIN_OWNER_TOKEN_LENGTH) {
    throw new Error(`${file} holds no usable owner token; delete it to generate a new one`);
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600); // others must not read it
  return { token: stored, source: "file", file };
}

export function buildAuthConfig(
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): AuthConfig & { owner: OwnerToken } {
  const owner = resolveOwnerToken(env, resolveDataDir(env, cwd));
  return {
    owner,
    ownerToken: owner.token,
    allowedHosts: allowedHostsFor(env.PORT?.trim() || null, env.RELAY_REVIEW_ALLOWED_HOSTS),
  };
}

const CACHE_KEY = Symbol.for("relay-review.auth-config");
type GlobalWithAuth = typeof globalThis & { [CACHE_KEY]?: ReturnType<typeof buildAuthConfig> };

/** The process's auth configuration, resolved once (the token file is created on first call). */
export function getAuthConfig(): ReturnType<typeof buildAuthConfig> {
  const g = globalThis as GlobalWithAuth;
  g[CACHE_KEY] ??= buildAuthConfig(process.env);
  return g[CACHE_KEY];
}
