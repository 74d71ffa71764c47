import "server-only";
/**
 * OAuth state per review server, and the authorization flows Connect starts. Everything secret
 * (the client registration with any client secret, the access and refresh tokens, the PKCE
 * verifier) is sealed with the secret store's AES-256-GCM key; the associated data names the
 * review, the server, the resource URL and the field, so a sealed value copied to another row,
 * another field or another URL does not open. What the server card shows (issuer, who, granted
 * scopes, expiry) sits beside it in clear and never includes a token. Works the same on PGlite and
 * PostgreSQL, so every instance on one database sees one state.
 *
 * Concurrency: each row carries a version bumped on every write. A holder that loaded version n
 * and fails to refresh invalidates only if the row is still at n: an instance that lost a refresh
 * race to another (rotating refresh tokens) does not wipe the winner's fresh tokens.
 */
import { and, asc, count, eq, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import { sha256Hex } from "@/lib/hash";
import { openSecret, sealSecret, secretKeyId, type Sealed } from "@/lib/secrets/crypto";
import { scopeList, type InspectionAuthorization } from "@/lib/store/authorization";
import type { Db } from "@/lib/store/db";
import { oauthConnections, oauthFlows } from "@/lib/store/tables";

/** How long a started authorization may take before its callback is refused as expired. */
export const OAUTH_FLOW_TTL_MS = 10 * 60 * 1000;
/** Finished and expired flows are kept this long past expiry (replays are told apart), then purged. */
export const OAUTH_FLOW_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Bound on one sealed JSON value (a registration or a token response); a larger one is refused. */
export const MAX_OAUTH_VALUE_BYTES = 64 * 1024;

export type OAuthServerRef = { reviewId: string; serverId: string };
export type OAuthField = "client" | "tokens" | "verifier";

function aad(ref: OAuthServerRef, resourceUrl: string, field: OAuthField): string {
  // NUL cannot occur in an id or a URL, so the parts cannot be shifted into one another.
  return ["oauth", ref.reviewId, ref.serverId, resourceUrl, field].join("\u0000");
}

function seal(key: Buffer, name: string, value: unknown): { keyId: string; text: string } {
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json, "utf8") > MAX_OAUTH_VALUE_BYTES)
    throw new Error(`an OAuth value is longer than ${MAX_OAUTH_VALUE_BYTES} bytes; not stored`);
  const s = sealSecret(key, name, json);
  return { keyId: s.keyId, text: `${s.nonce}.${s.sealed}` };
}

function open(key: Buffer, name: string, keyId: string, text: string | null): unknown {
  if (text === null) return undefined;
  const dot = text.indexOf(".");
  if (dot < 0) return null;
  const sealed: Sealed = { keyId, nonce: text.slice(0, dot), sealed: text.slice(dot + 1) };
  const json = openSecret(key, name, sealed);
  if (json === null) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

const refWhere = (ref: OAuthServerRef) =>
  and(eq(oauthConnections.reviewId, ref.reviewId), eq(oauthConnections.serverId, ref.serverId));

/** What the server card shows about a connection: never a token. */
export type OAuthConnectionSummary = {
  serverId: string;
  resourceUrl: string;
  issuer: string | null;
  subject: string | null;
  scopes: string[];
  expiresAt: string | null;
  connectedAt: string | null;
  /** Tokens are stored (false: only a registration, e.g. a flow was started and not finished). */
  isConnected: boolean;
};

export async function listOAuthConnections(
  db: Db,
  reviewId: string,
): Promise<OAuthConnectionSummary[]> {
  const rows = await db
    .select()
    .from(oauthConnections)
    .where(eq(oauthConnections.reviewId, reviewId))
    .orderBy(asc(oauthConnections.serverId));
  return rows.map((r) => ({
    serverId: r.serverId,
    resourceUrl: r.resourceUrl,
    issuer: r.issuer,
    subject: r.subject,
    scopes: scopeList(r.grantedScope),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    connectedAt: r.connectedAt?.toISOString() ?? null,
    isConnected: r.tokensSealed !== null,
  }));
}

export type LoadedOAuthState = {
  /** The row's version when read; pass it back to `invalidateOAuthState`. */
  version: number;
  clientInformation: unknown;
  tokens: unknown;
  discovery: unknown;
  expiresAt: Date | null;
};

export type LoadOAuthResult =
  { ok: true; state: LoadedOAuthState | null } | { ok: false; message: string };

/**
 * The stored state for a server at `resourceUrl`. State obtained for another URL (the review's
 * server was pointed elsewhere since) is not returned: tokens are never sent to another server.
 */
export async function loadOAuthState(
  db: Db,
  key: Buffer,
  ref: OAuthServerRef,
  resourceUrl: string,
): Promise<LoadOAuthResult> {
  const [row] = await db.select().from(oauthConnections).where(refWhere(ref));
  if (!row || row.resourceUrl !== resourceUrl) return { ok: true, state: null };
  const client = open(key, aad(ref, resourceUrl, "client"), row.keyId, row.clientSealed);
  const tokens = open(key, aad(ref, resourceUrl, "tokens"), row.keyId, row.tokensSealed);
  if (client === null || tokens === null)
    return {
      ok: false,
      message: `the stored OAuth state of server ${ref.serverId} does not open with this instance's key; Disconnect and Connect again`,
    };
  return {
    ok: true,
    state: {
      version: row.version,
      clientInformation: client,
      tokens,
      discovery: row.discovery ?? undefined,
      expiresAt: row.expiresAt,
    },
  };
}

/** Creates the row for `resourceUrl`, or resets it (everything cleared) when it held another URL's state. */
async function ensureRow(
  db: Db,
  key: Buffer,
  ref: OAuthServerRef,
  resourceUrl: string,
  now: Date,
): Promise<void> {
  const keyId = secretKeyId(key);
  await db
    .insert(oauthConnections)
    .values({ ...ref, resourceUrl, keyId, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [oauthConnections.reviewId, oauthConnections.serverId],
      set: {
        resourceUrl,
        keyId,
        clientSealed: null,
        tokensSealed: null,
        discovery: null,
        issuer: null,
        subject: null,
        grantedScope: null,
        expiresAt: null,
        connectedAt: null,
        version: sql`${oauthConnections.version} + 1`,
        updatedAt: now,
      },
      setWhere: ne(oauthConnections.resourceUrl, resourceUrl),
    });
}

/** Store the client registration (dynamic, metadata-document or pre-registered) for the server. */
export async function saveOAuthClient(
  db: Db,
  key: Buffer,
  ref: OAuthServerRef,
  resourceUrl: string,
  clientInformation: unknown,
  now: Date = new Date(),
): Promise<void> {
  await ensureRow(db, key, ref, resourceUrl, now);
  const sealed = seal(key, aad(ref, resourceUrl, "client"), clientInformation);
  await db
    .update(oauthConnections)
    .set({
      keyId: sealed.keyId,
      clientSealed: sealed.text,
      version: sql`${oauthConnections.version} + 1`,
      updatedAt: now,
    })
    .where(and(refWhere(ref), eq(oauthConnections.resourceUrl, resourceUrl)));
}

/** Public discovery results (resource and authorization-server metadata); no secret in them. */
export async function saveOAuthDiscovery(
  db: Db,
  key: Buffer,
  ref: OAuthServerRef,
  resourceUrl: string,
  discovery: unknown,
  now: Date = new Date(),
): Promise<void> {
  await ensureRow(db, key, ref, resourceUrl, now);
  await db
    .update(oauthConnections)
    .set({ discovery: discovery ?? null, updatedAt: now })
    .where(and(refWhere(ref), eq(oauthConnections.resourceUrl, resourceUrl)));
}

export type TokenFacts = {
  issuer: string | null;
  /** Who connected, as the authorization server reports it; null when unknown. */
  subject: string | null;
  /** The granted scope as the token response wrote it (space-separated); null when absent. */
  grantedScope: string | null;
  expiresAt: Date | null;
};

/**
 * Store a token response (sealed) and what the card shows about it. `connected`: this is a new
 * authorization (Connect), not a refresh, so the connection time is reset.
 */
export async function saveOAuthTokens(
  db: Db,
  key: Buffer,
  ref: OAuthServerRef,
  resourceUrl: string,
  tokens: unknown,
  facts: TokenFacts,
  options: { now?: Date; connected?: boolean } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  await ensureRow(db, key, ref, resourceUrl, now);
  const sealed = seal(key, aad(ref, resourceUrl, "tokens"), tokens);
  await db
    .update(oauthConnections)
    .set({
      keyId: sealed.keyId,
      tokensSealed: sealed.text,
      issuer: facts.issuer,
      subject: facts.subject,
      grantedScope: facts.grantedScope,
      expiresAt: facts.expiresAt,
      ...(options.connected ? { connectedAt: now } : {}),
      version: sql`${oauthConnections.version} + 1`,
      updatedAt: now,
    })
    .where(and(refWhere(ref), eq(oauthConnections.resourceUrl, resourceUrl)));
}

export type InvalidateScope = "all" | "client" | "tokens" | "discovery" | "verifier";

/**
 * Forget part of a server's state after the authorization server refused it. With `ifVersion`,
 * only if nobody wrote since that version was read (another instance may have just refreshed).
 * Returns whether anything changed.
 */
export async function invalidateOAuthState(
  db: Db,
  ref: OAuthServerRef,
  scope: InvalidateScope,
  options: { ifVersion?: number; now?: Date } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const where = and(
    refWhere(ref),
    options.ifVersion === undefined ? undefined : eq(oauthConnections.version, options.ifVersion),
  );
  if (scope === "all") {
    const rows = await db
      .delete(oauthConnections)
      .where(where)
      .returning({ s: oauthConnections.serverId });
    return rows.length > 0;
  }
  if (scope === "verifier") return false; // verifiers live with their flow (oauthFlows), not here
  const cleared =
    scope === "client"
      ? { clientSealed: null }
      : scope === "discovery"
        ? { discovery: null }
        : {
            tokensSealed: null,
            subject: null,
            grantedScope: null,
            expiresAt: null,
            connectedAt: null,
          };
  const rows = await db
    .update(oauthConnections)
    .set({ ...cleared, version: sql`${oauthConnections.version} + 1`, updatedAt: now })
    .where(where)
    .returning({ s: oauthConnections.serverId });
  return rows.length > 0;
}

/** Disconnect: the server's whole OAuth state is deleted, registration included. */
export async function deleteOAuthState(db: Db, ref: OAuthServerRef): Promise<boolean> {
  return invalidateOAuthState(db, ref, "all");
}

const isSealed = or(
  isNotNull(oauthConnections.clientSealed),
  isNotNull(oauthConnections.tokensSealed),
);

/** How many rows hold sealed OAuth state under another key than `keyId` (the start-up key check). */
export async function countOAuthSealedUnderOtherKey(db: Db, keyId: string): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(oauthConnections)
    .where(and(isSealed, ne(oauthConnections.keyId, keyId)));
  return r?.n ?? 0;
}

type ConnectionRow = typeof oauthConnections.$inferSelect;

/** Open a row's sealed fields with `key`; null when one that is there does not open. */
function openRow(key: Buffer, row: ConnectionRow): { client: unknown; tokens: unknown } | null {
  const ref = { reviewId: row.reviewId, serverId: row.serverId };
  const client = open(key, aad(ref, row.resourceUrl, "client"), row.keyId, row.clientSealed);
  const tokens = open(key, aad(ref, row.resourceUrl, "tokens"), row.keyId, row.tokensSealed);
  return client === null || tokens === null ? null : { client, tokens };
}

const rowName = (row: ConnectionRow) => `review ${row.reviewId}, server ${row.serverId}`;

export type OAuthKeyCheck = { ok: true; stored: number } | { ok: false; message: string };

/**
 * At start, beside the secrets: the key must open the sealed OAuth state too (tokens and client
 * registrations in oauth_connections), or every inspection of those servers would fail later with
 * "does not open". No sealed row: any key (or none) is fine. Rows under another key id, or one
 * sampled row that does not open, stop the start with the table named and the way out.
 */
export async function checkStoredOAuth(
  db: Db,
  key: { ok: true; key: Buffer; keyId: string } | { ok: false; message: string },
): Promise<OAuthKeyCheck> {
  const [total] = await db.select({ n: count() }).from(oauthConnections).where(isSealed);
  const stored = total?.n ?? 0;
  if (stored === 0) return { ok: true, stored };
  if (!key.ok)
    return {
      ok: false,
      message: `the database holds ${stored} sealed OAuth connection(s) (table oauth_connections) but this instance has no key to open them: ${key.message}`,
    };
  const other = await countOAuthSealedUnderOtherKey(db, key.keyId);
  if (other > 0)
    return {
      ok: false,
      message: `${other} of the ${stored} sealed OAuth connection(s) (table oauth_connections) were sealed under another key than this instance's (key id ${key.keyId}); give this instance the key they were sealed with (RELAY_REVIEW_SECRET_KEY or RELAY_REVIEW_SECRET_KEY_FILE, the same on every instance); if that key is lost, delete those rows from oauth_connections (they hold only OAuth state: those servers then need Connect again)`,
    };
  const [sample] = await db
    .select()
    .from(oauthConnections)
    .where(isSealed)
    .orderBy(asc(oauthConnections.reviewId), asc(oauthConnections.serverId))
    .limit(1);
  if (sample && openRow(key.key, sample) === null)
    return {
      ok: false,
      message: `the sealed OAuth connection of ${rowName(sample)} (table oauth_connections) does not open with this instance's key although its key id matches: the row is damaged; delete it from oauth_connections (that server then needs Connect again)`,
    };
  return { ok: true, stored };
}

export type OAuthRekeyCount = { connections: number; alreadyUnderNewKey: number; flows: number };

/**
 * The OAuth half of re-keying the secret store (lib/store/secrets.ts rekeySecrets), inside its
 * transaction `tx`: every sealed connection re-sealed from `from` to `to`; the verifier of every
 * open flow too, while a finished, expired or unreadable flow's verifier is dropped (no callback
 * can use it). Throws `refuse(message)` on a connection under neither key or one that does not
 * open, so the whole transaction rolls back; the counts let the caller refuse a store half
 * re-keyed across the secrets and the connections.
 */
export async function rekeyOAuthRows(
  tx: Db,
  from: Buffer,
  to: Buffer,
  refuse: (message: string) => Error,
  now: Date = new Date(),
): Promise<OAuthRekeyCount> {
  const fromId = secretKeyId(from);
  const toId = secretKeyId(to);
  const rows = (
    await tx
      .select()
      .from(oauthConnections)
      .orderBy(asc(oauthConnections.reviewId), asc(oauthConnections.serverId))
      .for("update")
  ).filter((r) => r.clientSealed !== null || r.tokensSealed !== null);
  const other = rows.filter((r) => r.keyId !== fromId && r.keyId !== toId).map(rowName);
  if (other.length)
    throw refuse(
      `${other.length} sealed OAuth connection(s) in oauth_connections are sealed under neither key (${other.slice(0, 5).join("; ")}${other.length > 5 ? "; …" : ""}); nothing was changed`,
    );
  let connections = 0;
  for (const row of rows) {
    if (row.keyId === toId) continue;
    const opened = openRow(from, row);
    if (opened === null)
      throw refuse(
        `the sealed OAuth connection of ${rowName(row)} (table oauth_connections) does not open with the old key although its key id matches: the row is damaged; nothing was changed (Disconnect that server, then re-key)`,
      );
    const ref = { reviewId: row.reviewId, serverId: row.serverId };
    const reseal = (field: OAuthField, value: unknown, was: string | null) =>
      was === null ? null : seal(to, aad(ref, row.resourceUrl, field), value).text;
    await tx
      .update(oauthConnections)
      .set({
        keyId: toId,
        clientSealed: reseal("client", opened.client, row.clientSealed),
        tokensSealed: reseal("tokens", opened.tokens, row.tokensSealed),
        version: sql`${oauthConnections.version} + 1`,
      })
      .where(and(refWhere(ref), eq(oauthConnections.version, row.version)));
    connections++;
  }
  let flows = 0;
  const flowRows = await tx
    .select()
    .from(oauthFlows)
    .where(isNotNull(oauthFlows.verifierSealed))
    .for("update");
  for (const f of flowRows) {
    if (f.keyId === toId) continue;
    const isOpen = f.consumedAt === null && f.expiresAt > now;
    const verifier = isOpen ? open(from, flowAad(f.stateHash), f.keyId, f.verifierSealed) : null;
    const sealed = typeof verifier === "string" ? seal(to, flowAad(f.stateHash), verifier) : null;
    await tx
      .update(oauthFlows)
      .set({ keyId: toId, verifierSealed: sealed?.text ?? null })
      .where(eq(oauthFlows.stateHash, f.stateHash));
    if (sealed) flows++;
  }
  return {
    connections,
    alreadyUnderNewKey: rows.length - connections,
    flows,
  };
}

// ---------------------------------------------------------------- flows

/** The hash a flow is stored under: the state itself never reaches the database. */
export function stateHash(state: string): string {
  return sha256Hex(`relay-review oauth state\u0000${state}`);
}

/** The owner's session as a flow binds it: a hash of the session cookie's value. */
export function sessionBinding(sessionCookieValue: string): string {
  return sha256Hex(`relay-review oauth session\u0000${sessionCookieValue}`);
}

const flowAad = (hash: string) => `oauth-flow\u0000${hash}\u0000verifier`;

/** Record a started authorization: `state` bound to the session, expiring after `ttlMs`. */
export async function createOAuthFlow(
  db: Db,
  key: Buffer,
  input: OAuthServerRef & {
    state: string;
    resourceUrl: string;
    sessionCookieValue: string;
    now?: Date;
    ttlMs?: number;
  },
): Promise<void> {
  const now = input.now ?? new Date();
  await db
    .delete(oauthFlows)
    .where(lt(oauthFlows.expiresAt, new Date(now.getTime() - OAUTH_FLOW_RETENTION_MS)));
  await db.insert(oauthFlows).values({
    stateHash: stateHash(input.state),
    reviewId: input.reviewId,
    serverId: input.serverId,
    resourceUrl: input.resourceUrl,
    sessionHash: sessionBinding(input.sessionCookieValue),
    keyId: secretKeyId(key),
    createdAt: now,
    expiresAt: new Date(now.getTime() + (input.ttlMs ?? OAUTH_FLOW_TTL_MS)),
  });
}

/** The PKCE verifier of a started flow, sealed (the SDK saves it before the redirect). */
export async function saveFlowVerifier(
  db: Db,
  key: Buffer,
  state: string,
  verifier: string,
): Promise<void> {
  const hash = stateHash(state);
  const sealed = seal(key, flowAad(hash), verifier);
  const rows = await db
    .update(oauthFlows)
    .set({ verifierSealed: sealed.text, keyId: sealed.keyId })
    .where(and(eq(oauthFlows.stateHash, hash), isNull(oauthFlows.consumedAt)))
    .returning({ h: oauthFlows.stateHash });
  if (rows.length === 0) throw new Error("no open authorization flow for this state");
}

export type FlowRefusal = "unknown" | "expired" | "replayed" | "other_session" | "unreadable";

export type ConsumeFlowResult =
  | { ok: true; ref: OAuthServerRef; resourceUrl: string; codeVerifier: string }
  | { ok: false; reason: FlowRefusal };

/**
 * Finish a flow exactly once: the row is marked consumed by one conditional UPDATE, so two
 * callbacks with the same state (a replay, or two instances at once) cannot both proceed. A state
 * bound to another session is refused and left open for its own session.
 */
export async function consumeOAuthFlow(
  db: Db,
  key: Buffer,
  state: string,
  sessionCookieValue: string,
  now: Date = new Date(),
): Promise<ConsumeFlowResult> {
  const hash = stateHash(state);
  const [row] = await db
    .update(oauthFlows)
    .set({ consumedAt: now })
    .where(
      and(
        eq(oauthFlows.stateHash, hash),
        isNull(oauthFlows.consumedAt),
        eq(oauthFlows.sessionHash, sessionBinding(sessionCookieValue)),
        sql`${oauthFlows.expiresAt} > ${now}`,
      ),
    )
    .returning();
  if (!row) {
    const [seen] = await db.select().from(oauthFlows).where(eq(oauthFlows.stateHash, hash));
    if (!seen) return { ok: false, reason: "unknown" };
    if (seen.consumedAt !== null) return { ok: false, reason: "replayed" };
    if (seen.sessionHash !== sessionBinding(sessionCookieValue))
      return { ok: false, reason: "other_session" };
    return { ok: false, reason: "expired" };
  }
  const verifier = open(key, flowAad(hash), row.keyId, row.verifierSealed);
  if (typeof verifier !== "string") return { ok: false, reason: "unreadable" };
  return {
    ok: true,
    ref: { reviewId: row.reviewId, serverId: row.serverId },
    resourceUrl: row.resourceUrl,
    codeVerifier: verifier,
  };
}

/** What an inspection records from stored state: who, granted scopes, expiry; never a token. */
export function authorizationOf(summary: OAuthConnectionSummary): InspectionAuthorization {
  return {
    issuer: summary.issuer,
    subject: summary.subject,
    scopes: summary.scopes,
    expiresAt: summary.expiresAt,
  };
}
