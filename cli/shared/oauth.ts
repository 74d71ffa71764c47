/**
 * OAuth for `inspect --url`, `verify --url` and `gate --url` (issue 17): the MCP authorization
 * flow through lib/mcp/oauth, with state in memory only (nothing written to disk, so no token,
 * verifier or secret outlives the process). Three modes:
 * - interactive (default): a loopback redirect on 127.0.0.1; the authorization URL is printed to
 *   stderr and nothing opens a browser; the command waits for the redirect, then connects again;
 * - `--issuer URL --client-credentials --client-id ID (--client-secret-env NAME | --client-key-env NAME)`: the
 *   client-credentials grant, for machines;
 * - `--refresh-token-env NAME --client-id ID`: a refresh token given by variable name, for CI.
 * Secrets are named by environment variable, never typed on the command line (where `ps` and
 * shell history would keep them), and a static credential (a client secret or key, a refresh
 * token) needs `--issuer URL`: it is presented only to that authorization server, never to the
 * one the untrusted server's metadata names (the provider refuses any other before sending).
 */
import { safeText } from "@/cli/shared/render";
import type { OAuthEvent } from "@/lib/mcp/oauth/interface";
import type { InspectError, InspectTarget } from "@/lib/mcp/types";

export const OAUTH_VALUE_FLAGS = [
  "--client-id",
  "--client-secret-env",
  "--client-key-env",
  "--client-key-alg",
  "--refresh-token-env",
  "--issuer",
  "--scope",
  "--client-metadata-url",
  "--redirect-port",
  "--authorize-timeout-ms",
] as const;
export const OAUTH_BOOL_FLAGS = ["--client-credentials", "--no-oauth"] as const;
/** Flags that hand over a credential the operator holds: each needs --issuer. */
const STATIC_CREDENTIAL_FLAGS = [
  "--client-credentials",
  "--client-secret-env",
  "--client-key-env",
  "--refresh-token-env",
] as const;

export const OAUTH_USAGE = [
  "oauth:   (with --url) interactive by default: the authorization URL is printed, the redirect comes back to",
  "         127.0.0.1 [--redirect-port N] [--authorize-timeout-ms N]; [--client-id ID [--client-secret-env NAME]]",
  "         [--client-metadata-url HTTPS-URL] [--scope 'a b'] [--issuer URL] [--no-oauth]",
  "   CI:   --issuer URL --client-credentials --client-id ID (--client-secret-env NAME | --client-key-env NAME [--client-key-alg ES256])",
  "     or  --issuer URL --refresh-token-env NAME --client-id ID [--client-secret-env NAME]",
  "         a secret, key or refresh token goes only to the authorization server --issuer names (required with them)",
].join("\n");

/** Consents one command may ask for (a server that keeps asking for more scope is stopped). */
export const MAX_CONSENTS = 3;
const DEFAULT_AUTHORIZE_TIMEOUT_MS = 5 * 60_000;

type Flags = ReadonlyMap<string, string | true>;
type Say = (line: string) => void;

export type CliOAuth = {
  /**
   * Run `attempt` and, while it fails for want of a user's consent, get the consent and run it
   * again (at most MAX_CONSENTS times); a failure while getting it is turned into `R` by `failed`.
   */
  authorizing<R extends { ok: boolean; error?: InspectError }>(
    attempt: () => Promise<R>,
    failed: (error: InspectError) => R,
  ): Promise<R>;
  /**
   * The consent a running session is waiting for (a step-up on 403 insufficient_scope while the
   * gate relays): the authorization URL was printed when the SDK asked for it; this waits for the
   * loopback redirect (at most --authorize-timeout-ms) and exchanges the code. Null when no consent
   * is pending (a headless mode, or nothing asked); an error names the step that failed.
   */
  consent: () => Promise<{ ok: true } | { ok: false; error: InspectError } | null>;
  close(): Promise<void>;
};

const str = (flags: Flags, name: string): string | undefined => {
  const v = flags.get(name);
  return typeof v === "string" ? v : undefined;
};

/**
 * Attach an OAuth provider to an HTTP target according to the flags. Returns the target to use
 * and the session's helper, or an error message (a usage mistake or an unset variable).
 */
export async function prepareCliOAuth(
  flags: Flags,
  target: InspectTarget,
  say: Say,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<
  { ok: true; target: InspectTarget; oauth: CliOAuth | null } | { ok: false; message: string }
> {
  const used = [...OAUTH_VALUE_FLAGS, "--client-credentials"].filter((f) => flags.has(f));
  if (target.kind !== "http") {
    return used.length
      ? { ok: false, message: `${used.join(", ")} apply to --url targets only` }
      : { ok: true, target, oauth: null };
  }
  if (flags.has("--no-oauth")) {
    return used.length
      ? { ok: false, message: `--no-oauth and ${used.join(", ")} contradict each other` }
      : { ok: true, target, oauth: null };
  }
  const fromVar = (flag: string): { value?: string; error?: string } => {
    const name = str(flags, flag);
    if (name === undefined) return {};
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      return { error: `${flag} takes a variable name, not ${JSON.stringify(name.slice(0, 40))}` };
    const value = env[name];
    return value ? { value } : { error: `${flag} ${name}: the variable is not set` };
  };
  const secret = fromVar("--client-secret-env");
  const key = fromVar("--client-key-env");
  const refresh = fromVar("--refresh-token-env");
  const errors = [secret.error, key.error, refresh.error].filter((e): e is string => !!e);
  const clientId = str(flags, "--client-id");
  const isMachine = flags.has("--client-credentials");
  if (isMachine && !clientId) errors.push("--client-credentials needs --client-id");
  if (isMachine && !secret.value && !key.value)
    errors.push("--client-credentials needs --client-secret-env NAME or --client-key-env NAME");
  if (refresh.value !== undefined && !clientId)
    errors.push("--refresh-token-env needs --client-id (the client the token was issued to)");
  if (isMachine && refresh.value !== undefined)
    errors.push("give --client-credentials or --refresh-token-env, not both");
  if ((secret.value || key.value) && !clientId)
    errors.push("a client secret or key needs --client-id");
  // A static credential is the organisation's, not the server's: the server under review names its
  // own authorization server, and would receive it. Only one the operator named may (issue 28).
  const issuer = str(flags, "--issuer");
  const staticFlags = STATIC_CREDENTIAL_FLAGS.filter((f) => flags.has(f));
  if (staticFlags.length && issuer === undefined)
    errors.push(
      `${staticFlags.join(", ")} present${staticFlags.length === 1 ? "s" : ""} a credential of yours to an authorization server: name the one it is for with --issuer URL (without it, the server under review would choose who receives it)`,
    );
  if (issuer !== undefined && !URL.canParse(issuer))
    errors.push(`--issuer ${JSON.stringify(issuer.slice(0, 80))} is not a URL`);
  const timeout = Number(str(flags, "--authorize-timeout-ms") ?? DEFAULT_AUTHORIZE_TIMEOUT_MS);
  const port = Number(str(flags, "--redirect-port") ?? 0);
  if (!Number.isInteger(timeout) || timeout <= 0)
    errors.push("--authorize-timeout-ms must be a whole number above 0");
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    errors.push("--redirect-port must be a port number (0 picks one)");
  const metadataUrl = str(flags, "--client-metadata-url");
  if (metadataUrl !== undefined) {
    try {
      const u = new URL(metadataUrl);
      if (u.protocol !== "https:" || u.pathname === "/")
        errors.push("--client-metadata-url must be an https URL with a path");
    } catch {
      errors.push("--client-metadata-url is not a URL");
    }
  }
  if (errors.length) return { ok: false, message: errors.join("; ") };

  const [
    { createOAuthProvider, completeAuthorization },
    { MemoryOAuthStorage },
    { cliOAuthEgress },
    { startLoopbackRedirect },
  ] = await Promise.all([
    import("@/lib/mcp/oauth/provider"),
    import("@/lib/mcp/oauth/memory-storage"),
    import("@/lib/mcp/node/oauth-egress"),
    import("@/lib/mcp/node/oauth-loopback"),
  ]);
  const egress = cliOAuthEgress(target.url, env);
  if (!egress.ok) return { ok: false, message: egress.message };
  const storage = new MemoryOAuthStorage({
    ...(refresh.value ? { refreshToken: refresh.value } : {}),
    ...(issuer ? { issuer } : {}),
  });
  const isInteractive = !isMachine && refresh.value === undefined;
  const loopback = isInteractive
    ? await startLoopbackRedirect({
        port,
        onAuthorizationUrl: (url) => {
          say(
            `the server needs authorization; open this URL in a browser and approve (waiting up to ${Math.round(timeout / 1000)} s for the redirect to 127.0.0.1):`,
          );
          say(`authorize at: ${url.href}`);
        },
      })
    : null;
  const algorithm = str(flags, "--client-key-alg") ?? "ES256";
  const onEvent = (e: OAuthEvent) => {
    if (e.type === "registered") say(`OAuth client ${safeText(e.clientId)} (${e.how})`);
    if (e.type === "token")
      say(
        `OAuth token from the ${e.grant.replaceAll("_", " ")} grant; scopes: ${e.scopes.join(" ") || "(none named)"}${e.expiresAt ? `; expires ${e.expiresAt}` : ""}`,
      );
  };
  let client;
  try {
    client = createOAuthProvider({
      serverUrl: target.url,
      storage,
      grant: isMachine ? "client_credentials" : "authorization_code",
      ...(loopback ? { redirect: loopback } : {}),
      client: {
        ...(clientId
          ? {
              preRegistered: {
                clientId,
                ...(secret.value ? { clientSecret: secret.value } : {}),
                ...(key.value ? { privateKeyJwt: { privateKey: key.value, algorithm } } : {}),
              },
            }
          : {}),
        ...(metadataUrl ? { metadataDocumentUrl: metadataUrl } : {}),
      },
      ...(issuer ? { expectedIssuer: issuer } : {}),
      ...(str(flags, "--scope") ? { fallbackScope: str(flags, "--scope")! } : {}),
      egress: egress.egress,
      fetch: egress.fetch,
      onEvent,
    });
  } catch (error) {
    await loopback?.close();
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const authClient = client;
  /** Wait for the pending consent's redirect and exchange its code; null when none is pending. */
  const consent = async (): Promise<{ ok: true } | { ok: false; error: InspectError } | null> => {
    const pending = authClient.pendingAuthorization();
    if (!pending || !loopback) return null;
    let callback;
    try {
      callback = await loopback.waitForCallback(pending.state, timeout);
    } catch (error) {
      return { ok: false, error: unauthorized("authorization_response", error) };
    }
    const verifier = storage.takeCodeVerifier(callback.state);
    if (!verifier)
      return {
        ok: false,
        error: unauthorized(
          "authorization_response",
          "no authorization request is waiting for this state",
        ),
      };
    const done = await completeAuthorization(authClient, {
      code: callback.code ?? "",
      state: callback.state,
      codeVerifier: verifier,
      iss: callback.iss,
      error: callback.error,
      errorDescription: callback.errorDescription,
      requestedScope: new URL(pending.authorizationUrl).searchParams.get("scope"),
    });
    if (!done.ok)
      return {
        ok: false,
        error: { code: "unauthorized", oauthStep: done.error.step, message: done.error.message },
      };
    return { ok: true };
  };
  const oauth: CliOAuth = {
    async authorizing(attempt, failed) {
      let result = await attempt();
      for (let n = 0; n < MAX_CONSENTS; n++) {
        if (result.ok || result.error?.code !== "unauthorized") return result;
        const got = await consent();
        if (!got) return result;
        if (!got.ok) return failed(got.error);
        result = await attempt();
      }
      return result;
    },
    consent,
    close: async () => {
      await loopback?.close();
    },
  };
  return { ok: true, target: { ...target, auth: client }, oauth };
}

function unauthorized(step: InspectError["oauthStep"], error: unknown): InspectError {
  const message = error instanceof Error ? error.message : String(error);
  return { code: "unauthorized", ...(step ? { oauthStep: step } : {}), message };
}
