/**
 * knowledge-mcp behind OAuth, offline: a local authorization server and the knowledge-mcp demo
 * as a protected resource (MCP authorization, revision 2025-11-25), on loopback only: the MCP
 * server on 127.0.0.1, the authorization server on 127.0.0.2. The browser goes to the
 * authorization server, and the workbench sends it to no host of its own (it would carry the
 * session cookie there: browsers scope cookies by host, not port; lib/auth/cookie-hosts.ts).
 *
 *   npm run demo:oauth                       # MCP on 127.0.0.1:8950/mcp, authorization server on 127.0.0.2:8951
 *   node --import tsx servers/knowledge-mcp-oauth.ts [--port N] [--auth-port N] [--auth-host ADDRESS] [--token-ttl S] [--no-revocation]
 *
 * The authorization server is the MCP SDK's own (`mcpAuthRouter`: RFC 8414 metadata, dynamic
 * registration RFC 7591, authorize with PKCE S256, token, refresh, RFC 7009 revocation unless
 * `--no-revocation`, which leaves the endpoint out of the metadata), with an in-memory
 * provider written here: its authorize step shows a consent page where the demo user (who
 * connects) may grant fewer scopes than asked, or `knowledge:write` on top — the wider grant a
 * decision must notice. Tokens are bound to the MCP server's URL (RFC 8707 resource), checked
 * on every MCP request. The resource server answers 401 with `WWW-Authenticate: Bearer
 * resource_metadata=…, scope="knowledge:read"` and serves RFC 9728 protected-resource metadata.
 * The token response carries an `id_token` naming the demo user (unsigned claims, read by the
 * client only as "who the authorization server says connected"). Everything is in memory:
 * restarting the demo forgets every registration and token, so the workbench's stored tokens
 * stop working and the card's Connect starts again.
 */
/* eslint-disable @typescript-eslint/require-await -- the SDK's OAuthServerProvider is async; this demo keeps its state in memory */
// First: the SDK's router reads this flag when it is loaded (the demo's issuer is http on 127.0.0.2).
import "./shared/allow-http-issuer";
import { randomBytes, randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { pathToFileURL } from "node:url";
import express, { type Request, type Response } from "express";
import {
  createOAuthMetadata,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
  UnauthorizedClientError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createKnowledgeServer } from "./knowledge-mcp";
import { rebindingRefusal } from "./shared/run";

export const READ_SCOPE = "knowledge:read";
export const WRITE_SCOPE = "knowledge:write";
export const DEMO_SCOPES = [READ_SCOPE, WRITE_SCOPE] as const;
export const DEMO_USER = "alice@example.com";
const HOST = "127.0.0.1";
/** Not a host name the workbench answers for, so Connect may send the browser there. */
export const DEMO_AUTH_HOST = "127.0.0.2";
/** How long the consent page waits for an answer, and an authorization code lives. */
const PENDING_TTL_MS = 10 * 60 * 1000;
const CODE_TTL_MS = 60 * 1000;
/** Bounds on what the demo keeps in memory, whatever a client sends. */
const MAX_CLIENTS = 1000;
const MAX_PENDING = 1000;

type Grant = {
  /** One consent: the tokens issued for it and rotated from them share it, so revoking the refresh token ends them all. */
  grantId: string;
  clientId: string;
  scopes: string[];
  subject: string;
  resource: string;
};
type Pending = { client: OAuthClientInformationFull; params: AuthorizationParams; expires: number };
type Code = Grant & { challenge: string; redirectUri: string; expires: number };
type Access = Grant & { expires: number };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An id_token-shaped JWT with no signature (alg none): the demo's statement of who connected. */
function unsignedIdToken(issuer: string, subject: string, audience: string): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: "none", typ: "JWT" })}.${part({ iss: issuer, sub: subject, email: subject, aud: audience, iat: now, exp: now + 3600 })}.`;
}

class DemoClients implements OAuthRegisteredClientsStore {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  getClient(clientId: string) {
    return this.clients.get(clientId);
  }
  registerClient(client: Omit<OAuthClientInformationFull, "client_id" | "client_id_issued_at">) {
    if (this.clients.size >= MAX_CLIENTS) throw new Error("the demo holds too many clients");
    const full: OAuthClientInformationFull = {
      ...client,
      client_id: randomUUID(),
      client_id_issued_at: Math.floor(Date.now() / 1000),
    };
    this.clients.set(full.client_id, full);
    return full;
  }
}

export class DemoAuthProvider implements OAuthServerProvider {
  readonly clientsStore = new DemoClients();
  private readonly pending = new Map<string, Pending>();
  private readonly codes = new Map<string, Code>();
  private readonly access = new Map<string, Access>();
  private readonly refresh = new Map<string, Grant>();
  /** Every token this process issued, for tests that look for them where they must not be. */
  private readonly issued: string[] = [];
  /** Revocation requests answered, for tests (the tokens themselves are not kept). */
  private revoked = 0;
  /**
   * RFC 7009, present unless the demo runs without revocation: the SDK's router advertises and
   * serves `/revoke` only when the provider has this method.
   */
  readonly revokeToken?: (
    client: OAuthClientInformationFull,
    request: OAuthTokenRevocationRequest,
  ) => Promise<void>;

  constructor(
    private readonly issuer: string,
    private readonly resource: string,
    private readonly tokenTtlSeconds: number,
    hasRevocation = true,
  ) {
    if (hasRevocation) this.revokeToken = (client, request) => this.revoke(client, request);
  }

  /** Renders the consent page; the answer comes back to POST /consent. */
  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    if (!params.resource || params.resource.href !== this.resource)
      throw new InvalidTargetError(
        `this authorization server only issues tokens for ${this.resource}`,
      );
    if (this.pending.size >= MAX_PENDING) this.pending.clear();
    const id = randomBytes(18).toString("base64url");
    this.pending.set(id, { client, params, expires: Date.now() + PENDING_TTL_MS });
    const requested = new Set(params.scopes ?? [READ_SCOPE]);
    const boxes = DEMO_SCOPES.map(
      (s) =>
        `<label><input type="checkbox" name="scope" value="${s}"${requested.has(s) ? " checked" : ""}> ${s}${requested.has(s) ? "" : " (not requested: a wider grant)"}</label><br>`,
    ).join("\n");
    res.status(200).set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Frame-Options": "DENY",
    }).send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Demo authorization server: consent</title></head>
<body style="font-family: sans-serif; max-width: 40rem; margin: 2rem auto">
<h1>Demo authorization server</h1>
<p><strong>${escapeHtml(client.client_name ?? client.client_id)}</strong> asks to reach <code>${escapeHtml(this.resource)}</code>.</p>
<form method="post" action="/consent">
<input type="hidden" name="pending" value="${id}">
<p><label>Sign in as <input name="subject" value="${DEMO_USER}" autocomplete="off"></label></p>
<fieldset><legend>Scopes to grant</legend>
${boxes}
</fieldset>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>
</body></html>`);
  }

  /** POST /consent: issue a code (approve) or an access_denied redirect (deny). */
  consent(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const id = typeof body.pending === "string" ? body.pending : "";
    const pending = this.pending.get(id);
    this.pending.delete(id);
    if (!pending || pending.expires < Date.now()) {
      res.status(400).type("text/plain").send("This consent request is unknown or expired.");
      return;
    }
    const target = new URL(pending.params.redirectUri);
    if (pending.params.state !== undefined) target.searchParams.set("state", pending.params.state);
    if (body.decision !== "approve") {
      target.searchParams.set("error", "access_denied");
      res.redirect(303, target.href);
      return;
    }
    const chosen = ([] as unknown[])
      .concat(body.scope ?? [])
      .filter((s): s is string => (DEMO_SCOPES as readonly string[]).includes(String(s)));
    const subject =
      typeof body.subject === "string" && body.subject.trim()
        ? body.subject.trim().slice(0, 200)
        : DEMO_USER;
    const code = randomBytes(24).toString("base64url");
    this.codes.set(code, {
      grantId: randomUUID(),
      clientId: pending.client.client_id,
      scopes: [...new Set(chosen)].sort(),
      subject,
      resource: this.resource,
      challenge: pending.params.codeChallenge,
      redirectUri: pending.params.redirectUri,
      expires: Date.now() + CODE_TTL_MS,
    });
    target.searchParams.set("code", code);
    res.redirect(303, target.href);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    const c = this.codes.get(code);
    if (!c || c.clientId !== client.client_id || c.expires < Date.now())
      throw new InvalidGrantError("unknown or expired authorization code");
    return c.challenge;
  }

  private issue(grant: Grant, withIdToken: boolean): OAuthTokens {
    const accessToken = `demo_at_${randomBytes(24).toString("base64url")}`;
    const refreshToken = `demo_rt_${randomBytes(24).toString("base64url")}`;
    this.access.set(accessToken, { ...grant, expires: Date.now() + this.tokenTtlSeconds * 1000 });
    this.refresh.set(refreshToken, grant);
    if (this.issued.length < MAX_CLIENTS * 4) this.issued.push(accessToken, refreshToken);
    return {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: this.tokenTtlSeconds,
      refresh_token: refreshToken,
      scope: grant.scopes.join(" "),
      ...(withIdToken
        ? { id_token: unsignedIdToken(this.issuer, grant.subject, grant.clientId) }
        : {}),
    };
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string, // checked by the SDK's token handler against the challenge
    redirectUri?: string,
    resource?: URL,
  ) {
    const c = this.codes.get(code);
    this.codes.delete(code);
    if (!c || c.clientId !== client.client_id || c.expires < Date.now())
      throw new InvalidGrantError("unknown or expired authorization code");
    if (redirectUri !== undefined && redirectUri !== c.redirectUri)
      throw new InvalidGrantError("redirect_uri does not match the authorization request");
    if (resource && resource.href !== c.resource)
      throw new InvalidTargetError("resource does not match the authorization request");
    return this.issue(c, true);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ) {
    const grant = this.refresh.get(refreshToken);
    // Rotation: a refresh token is good once.
    this.refresh.delete(refreshToken);
    if (!grant || grant.clientId !== client.client_id)
      throw new InvalidGrantError("unknown refresh token");
    if (resource && resource.href !== grant.resource)
      throw new InvalidTargetError("resource does not match the grant");
    const narrowed = scopes?.length ? grant.scopes.filter((s) => scopes.includes(s)) : grant.scopes;
    return this.issue({ ...grant, scopes: narrowed }, false);
  }

  /** The access and refresh tokens issued so far (tests scan for them). */
  issuedTokens(): readonly string[] {
    return [...this.issued];
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const a = this.access.get(token);
    if (!a || a.expires < Date.now()) throw new InvalidTokenError("unknown or expired token");
    if (a.resource !== this.resource) throw new InvalidTokenError("token is for another resource");
    return {
      token,
      clientId: a.clientId,
      scopes: a.scopes,
      expiresAt: Math.floor(a.expires / 1000),
      resource: new URL(a.resource),
    };
  }

  /**
   * RFC 7009 §2.1: a token of another client is refused; revoking a refresh token ends the access
   * tokens of its grant too; an unknown token is not an error (it answers 200).
   */
  private async revoke(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest) {
    const grant = this.refresh.get(request.token) ?? this.access.get(request.token);
    if (!grant) {
      this.revoked++;
      return;
    }
    if (grant.clientId !== client.client_id)
      throw new UnauthorizedClientError("the token was not issued to this client");
    if (this.refresh.delete(request.token))
      for (const [token, a] of this.access)
        if (a.grantId === grant.grantId) this.access.delete(token);
    this.access.delete(request.token);
    this.revoked++;
  }

  /** How many revocation requests were accepted. */
  revocations(): number {
    return this.revoked;
  }
}

/** Refuses a request whose Host or Origin is not this listener on loopback (DNS rebinding). */
const loopbackOnly =
  (port: () => number, host?: string) => (req: Request, res: Response, next: () => void) => {
    const refusal = rebindingRefusal(req.headers, port(), host);
    if (refusal) res.status(403).type("text/plain").send(refusal);
    else next();
  };

export type OAuthDemo = {
  mcpUrl: string;
  issuer: string;
  provider: DemoAuthProvider;
  close: () => Promise<void>;
};

function listen(app: express.Express, port: number, host = HOST): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) =>
      error ? reject(error) : resolve(server),
    );
  });
}

const portOf = (server: Server) => {
  const a = server.address();
  return typeof a === "object" && a ? a.port : 0;
};

/** Start the MCP listener on 127.0.0.1 and the authorization server on `authHost` (port 0: any free port). */
export async function startOAuthDemo(
  options: {
    port?: number;
    authPort?: number;
    /** The authorization server's loopback address (default 127.0.0.2). */
    authHost?: string;
    tokenTtlSeconds?: number;
    /** Serve RFC 7009 revocation (default true); false leaves `revocation_endpoint` out of the metadata. */
    revocation?: boolean;
  } = {},
): Promise<OAuthDemo> {
  let authServer: Server | null = null;
  let mcpServer: Server | null = null;
  const authApp = express();
  const mcpApp = express();
  const authHost = options.authHost ?? DEMO_AUTH_HOST;
  authApp.use(loopbackOnly(() => (authServer ? portOf(authServer) : 0), authHost));
  mcpApp.use(loopbackOnly(() => (mcpServer ? portOf(mcpServer) : 0)));
  authServer = await listen(authApp, options.authPort ?? 0, authHost);
  mcpServer = await listen(mcpApp, options.port ?? 0);
  const issuer = `http://${authHost}:${portOf(authServer)}/`;
  const mcpUrl = `http://${HOST}:${portOf(mcpServer)}/mcp`;
  const provider = new DemoAuthProvider(
    issuer,
    mcpUrl,
    options.tokenTtlSeconds ?? 3600,
    options.revocation ?? true,
  );
  authApp.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(issuer),
      scopesSupported: [...DEMO_SCOPES],
      resourceServerUrl: new URL(mcpUrl),
      resourceName: "knowledge-mcp (demo)",
    }),
  );
  authApp.post("/consent", express.urlencoded({ extended: false, limit: "16kb" }), (req, res) =>
    provider.consent(req, res),
  );
  const metadata = createOAuthMetadata({
    provider,
    issuerUrl: new URL(issuer),
    scopesSupported: [...DEMO_SCOPES],
  });
  mcpApp.use(
    mcpAuthMetadataRouter({
      oauthMetadata: metadata,
      resourceServerUrl: new URL(mcpUrl),
      scopesSupported: [...DEMO_SCOPES],
      resourceName: "knowledge-mcp (demo)",
    }),
  );
  const resourceMetadataUrl = new URL("/.well-known/oauth-protected-resource/mcp", mcpUrl).href;
  mcpApp.all(
    "/mcp",
    requireBearerAuth({ verifier: provider, requiredScopes: [READ_SCOPE], resourceMetadataUrl }),
    express.json({ limit: "1mb" }),
    (req, res) => {
      if (req.method !== "POST") {
        res.status(405).set("Allow", "POST").end();
        return;
      }
      const server = createKnowledgeServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      server
        .connect(transport)
        .then(() => transport.handleRequest(req, res, req.body))
        .catch((error: unknown) => {
          process.stderr.write(`knowledge-mcp-oauth: ${String(error)}\n`);
          if (!res.headersSent) res.status(500).end();
        });
    },
  );
  const close = (s: Server | null) =>
    new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
  return {
    mcpUrl,
    issuer,
    provider,
    close: async () => {
      mcpServer?.closeAllConnections();
      authServer?.closeAllConnections();
      await Promise.all([close(mcpServer), close(authServer)]);
    },
  };
}

function flag(argv: readonly string[], name: string, fallback: number): number {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    process.stderr.write(`${name} needs a number\n`);
    process.exit(2);
  }
  return n;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const demo = await startOAuthDemo({
    port: flag(argv, "--port", 8950),
    authPort: flag(argv, "--auth-port", 8951),
    authHost: argv.includes("--auth-host") ? argv[argv.indexOf("--auth-host") + 1] : undefined,
    tokenTtlSeconds: flag(argv, "--token-ttl", 3600),
    revocation: !argv.includes("--no-revocation"),
  });
  const hostPort = (u: string) => new URL(u).host;
  process.stdout.write(
    `listening ${demo.mcpUrl}\nauthorization server ${demo.issuer}\n` +
      // The workbench reaches a loopback address only on a port its egress allowlist names.
      `start the workbench with RELAY_REVIEW_EGRESS_ALLOW=${hostPort(demo.mcpUrl)},${hostPort(demo.issuer)}\n`,
  );
  const stop = () => void demo.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
