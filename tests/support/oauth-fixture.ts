/**
 * A real OAuth-protected MCP server and its authorization server on 127.0.0.1, for the OAuth
 * client's tests: an SDK McpServer over Streamable HTTP (stateless) that wants a bearer token, its
 * RFC 9728 metadata, and an authorization server (RFC 8414 metadata, an authorize endpoint that
 * approves at once, a token endpoint with PKCE, refresh and client credentials, RFC 7591
 * registration). Every misbehaviour a test needs (a wrong issuer, plain-http endpoints, a resource
 * for another server, a huge body, redirects) is an option. Requests are recorded.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export type OAuthFixtureOptions = {
  /** PRM `scopes_supported`. */
  scopesSupported?: string[];
  /** `scope` in the 401 challenge. */
  challengeScope?: string;
  /** Include `resource_metadata` in the challenge (default true). */
  prmInChallenge?: boolean;
  /** Scopes tools/list needs; a token without them gets 403 insufficient_scope naming them. */
  listScopes?: string[];
  /**
   * Scopes tools/call needs (the step-up a gate meets mid-session), or, per call (0-based), the
   * scopes that call needs: a server whose demand grows with every call.
   */
  callScopes?: string[] | ((call: number) => string[]);
  /** The authorize endpoint answers access_denied when the requested scope holds this one. */
  refuseScope?: string;
  /** The scope the authorization server grants for a requested one; null omits `scope` from the response. */
  grant?: (requested: string | null) => string | null;
  expiresIn?: number;
  refreshTokens?: boolean;
  /** A client the authorization server knows without registration. */
  client?: { id: string; secret?: string };
  dynamicRegistration?: boolean;
  clientIdMetadataDocuments?: boolean;
  /** Rewrites the authorization server metadata before it is served (hostile servers). */
  metadata?: (md: Record<string, unknown>, base: string) => Record<string, unknown>;
  /** Rewrites the protected resource metadata before it is served. */
  resourceMetadata?: (prm: Record<string, unknown>, base: string) => Record<string, unknown>;
  /** Serve the authorization server metadata through this many same-origin redirects. */
  metadataRedirects?: number;
  /** Pad the authorization server metadata to this many bytes. */
  metadataBytes?: number;
  /** The token endpoint's error body echoes the request body (a hostile server). */
  echoTokenErrors?: boolean;
  /** Refuse refresh grants with invalid_grant. */
  refuseRefresh?: boolean;
  /** Send `iss` in the authorization response (RFC 9207); a string sends that value. */
  issParameter?: boolean | string;
};

export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
  authorization: string | null;
};

export type OAuthFixture = {
  base: string;
  mcpUrl: string;
  requests: RecordedRequest[];
  /** Tokens issued, by grant. */
  issued: { grant: string; scope: string | null; accessToken: string; refreshToken?: string }[];
  /** Follow an authorization URL as an approving user agent would: the redirect's parameters. */
  approve: (authorizationUrl: string) => Promise<URLSearchParams>;
  /** Make an access token expire now. */
  expire: (accessToken: string) => void;
  close: () => Promise<void>;
};

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify(body));
}

export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const requests: RecordedRequest[] = [];
  const issued: OAuthFixture["issued"] = [];
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  if (options.client)
    clients.set(options.client.id, {
      ...(options.client.secret ? { secret: options.client.secret } : {}),
      redirectUris: [],
    });
  const codes = new Map<
    string,
    {
      clientId: string;
      challenge: string;
      redirectUri: string;
      scope: string | null;
      resource: string | null;
    }
  >();
  const accessTokens = new Map<string, { scope: string[]; expiresAt: number }>();
  const refreshTokens = new Map<string, { clientId: string; scope: string | null }>();
  let base = "";
  let calls = 0;

  const issue = (grant: string, clientId: string, requested: string | null) => {
    const scope = options.grant ? options.grant(requested) : requested;
    const accessToken = `at-${randomBytes(12).toString("hex")}`;
    const expiresIn = options.expiresIn ?? 3600;
    accessTokens.set(accessToken, {
      scope: (scope ?? requested ?? "").split(" ").filter(Boolean),
      expiresAt: Date.now() + expiresIn * 1000,
    });
    const refreshToken =
      options.refreshTokens === false || grant === "client_credentials"
        ? undefined
        : `rt-${randomBytes(12).toString("hex")}`;
    if (refreshToken) refreshTokens.set(refreshToken, { clientId, scope: scope ?? requested });
    issued.push({ grant, scope, accessToken, ...(refreshToken ? { refreshToken } : {}) });
    return {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: expiresIn,
      ...(scope !== null ? { scope } : {}),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
  };

  const authMetadata = () => {
    const md: Record<string, unknown> = {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      ...(options.dynamicRegistration === false
        ? {}
        : { registration_endpoint: `${base}/register` }),
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      ...(options.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    };
    const out = options.metadata ? options.metadata(md, base) : md;
    if (options.metadataBytes) out.padding = "x".repeat(options.metadataBytes);
    return out;
  };

  const challenge = (extra = "") => {
    const parts = [
      ...(options.prmInChallenge === false
        ? []
        : [`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`]),
      ...(options.challengeScope ? [`scope="${options.challengeScope}"`] : []),
    ];
    return `Bearer ${[...parts, extra].filter(Boolean).join(", ")}`;
  };

  const tokenEndpoint = (
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, string>,
  ) => {
    const error = (status: number, code: string, description: string) =>
      json(res, status, {
        error: code,
        error_description: options.echoTokenErrors
          ? `${description}: ${JSON.stringify(body)}`
          : description,
      });
    let clientId = body.client_id ?? null;
    const basic = req.headers.authorization;
    if (basic?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(basic.slice(6), "base64").toString().split(":");
      const known = clients.get(decodeURIComponent(id ?? ""));
      if (!known || known.secret !== decodeURIComponent(secret ?? ""))
        return error(401, "invalid_client", "bad client credentials");
      clientId = decodeURIComponent(id ?? "");
    } else if (
      clientId &&
      clients.get(clientId)?.secret &&
      clients.get(clientId)?.secret !== body.client_secret
    )
      return error(401, "invalid_client", "bad client secret");
    if (!clientId) return error(401, "invalid_client", "no client");
    if (body.grant_type === "authorization_code") {
      const entry = codes.get(body.code ?? "");
      codes.delete(body.code ?? "");
      if (!entry) return error(400, "invalid_grant", "unknown code");
      if (entry.clientId !== clientId)
        return error(400, "invalid_grant", "code for another client");
      if (s256(body.code_verifier ?? "") !== entry.challenge)
        return error(400, "invalid_grant", "PKCE verifier mismatch");
      if (entry.redirectUri !== body.redirect_uri)
        return error(400, "invalid_grant", "redirect_uri mismatch");
      if ((body.resource ?? null) !== entry.resource)
        return error(400, "invalid_target", "resource differs from the authorization request");
      return json(res, 200, issue("authorization_code", clientId, entry.scope));
    }
    if (body.grant_type === "refresh_token") {
      const entry = refreshTokens.get(body.refresh_token ?? "");
      if (!entry || options.refuseRefresh)
        return error(400, "invalid_grant", "unknown refresh token");
      refreshTokens.delete(body.refresh_token ?? "");
      return json(res, 200, issue("refresh_token", clientId, entry.scope));
    }
    if (body.grant_type === "client_credentials") {
      if (!clients.get(clientId)?.secret)
        return error(401, "invalid_client", "client credentials need a confidential client");
      return json(res, 200, issue("client_credentials", clientId, body.scope ?? null));
    }
    return error(400, "unsupported_grant_type", String(body.grant_type));
  };

  const mcp = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const bearer = req.headers.authorization?.startsWith("Bearer ")
      ? req.headers.authorization.slice(7)
      : null;
    const token = bearer ? accessTokens.get(bearer) : undefined;
    if (!token || token.expiresAt <= Date.now())
      return json(
        res,
        401,
        { error: "invalid_token" },
        { "www-authenticate": challenge(bearer ? 'error="invalid_token"' : "") },
      );
    if (req.method !== "POST") return res.writeHead(405).end();
    const message = JSON.parse(raw) as { method?: string };
    const callScopes = options.callScopes;
    const need =
      message.method === "tools/list"
        ? (options.listScopes ?? [])
        : message.method === "tools/call" && callScopes
          ? typeof callScopes === "function"
            ? callScopes(calls++)
            : callScopes
          : [];
    if (need.some((s) => !token.scope.includes(s)))
      return json(
        res,
        403,
        { error: "insufficient_scope" },
        {
          "www-authenticate": `Bearer error="insufficient_scope", scope="${need.join(" ")}", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    const server = new McpServer({ name: "oauth-fixture", version: "1.0.0" });
    server.registerTool("whoami", { description: "Says who the token belongs to." }, () => ({
      content: [{ type: "text", text: "fixture" }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  };

  const http: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", base);
      const raw = await readBody(req);
      const body: Record<string, string> = {};
      if ((req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded"))
        for (const [k, v] of new URLSearchParams(raw)) body[k] = v;
      else if (
        (req.headers["content-type"] ?? "").includes("application/json") &&
        url.pathname !== "/mcp"
      )
        Object.assign(body, JSON.parse(raw || "{}") as Record<string, string>);
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        authorization: req.headers.authorization ?? null,
      });
      const p = url.pathname;
      if (p === "/.well-known/oauth-protected-resource/mcp") {
        const prm: Record<string, unknown> = {
          resource: `${base}/mcp`,
          authorization_servers: [base],
          ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
        };
        return json(res, 200, options.resourceMetadata ? options.resourceMetadata(prm, base) : prm);
      }
      if (p.startsWith("/.well-known/oauth-authorization-server")) {
        const hop = Number(url.searchParams.get("hop") ?? 0);
        if (options.metadataRedirects && hop < options.metadataRedirects)
          return res.writeHead(302, { location: `${p}?hop=${hop + 1}` }).end();
        return json(res, 200, authMetadata());
      }
      if (p === "/authorize") {
        const q = url.searchParams;
        const clientId = q.get("client_id") ?? "";
        const redirectUri = q.get("redirect_uri") ?? "";
        const code = `code-${randomBytes(12).toString("hex")}`;
        codes.set(code, {
          clientId,
          challenge: q.get("code_challenge") ?? "",
          redirectUri,
          scope: q.get("scope"),
          resource: q.get("resource"),
        });
        const back = new URL(redirectUri);
        if (
          options.refuseScope &&
          (q.get("scope") ?? "").split(" ").includes(options.refuseScope)
        ) {
          codes.delete(code);
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("error_description", "the user declined");
          if (q.get("state")) back.searchParams.set("state", q.get("state")!);
          return res.writeHead(302, { location: back.href }).end();
        }
        back.searchParams.set("code", code);
        if (q.get("state")) back.searchParams.set("state", q.get("state")!);
        if (options.issParameter)
          back.searchParams.set(
            "iss",
            typeof options.issParameter === "string" ? options.issParameter : base,
          );
        return res.writeHead(302, { location: back.href }).end();
      }
      if (p === "/token") return tokenEndpoint(req, res, body);
      if (p === "/register") {
        if (options.dynamicRegistration === false) return res.writeHead(404).end();
        const id = `dyn-${randomBytes(6).toString("hex")}`;
        const wantsSecret = body.token_endpoint_auth_method !== "none";
        const secret = wantsSecret ? `secret-${randomBytes(8).toString("hex")}` : undefined;
        clients.set(id, {
          ...(secret ? { secret } : {}),
          redirectUris: (body.redirect_uris as unknown as string[]) ?? [],
        });
        return json(res, 201, {
          ...body,
          client_id: id,
          ...(secret ? { client_secret: secret } : {}),
          token_endpoint_auth_method: wantsSecret ? "client_secret_basic" : "none",
        });
      }
      if (p === "/mcp") return await mcp(req, res, raw);
      res.writeHead(404).end();
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    base,
    mcpUrl: `${base}/mcp`,
    requests,
    issued,
    approve: async (authorizationUrl) => {
      const res = await fetch(authorizationUrl, { redirect: "manual" });
      const location = res.headers.get("location");
      if (!location)
        throw new Error(`the authorization endpoint answered ${res.status} without a redirect`);
      return new URL(location).searchParams;
    },
    expire: (accessToken) => {
      const t = accessTokens.get(accessToken);
      if (t) t.expiresAt = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
