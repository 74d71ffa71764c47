/**
 * The one drizzle schema. drizzle-kit generates the SQL migrations in `drizzle/` from this file,
 * and the same migrations serve PGlite and PostgreSQL. Documents are jsonb and validated on read
 * by their owners (reviews through lib/review/migrate.ts); the columns beside them are what we
 * query or join on.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const reviews = pgTable("reviews", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  /** Bumped by a conditional UPDATE on every save: the optimistic-concurrency token. */
  currentRevision: integer("current_revision").notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** Every save of a review, kept: revision n is the document as saved the n-th time. */
export const reviewRevisions = pgTable(
  "review_revisions",
  {
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    /** The document's own schemaVersion, duplicated so old documents can be found without parsing. */
    schemaVersion: integer("schema_version").notNull(),
    document: jsonb("document").notNull(),
    author: text("author").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.revision] })],
);

/** Content-addressed: the key is SHA-256 over the RFC 8785 canonical JSON of `document`. */
export const surfaceSnapshots = pgTable("surface_snapshots", {
  sha256: text("sha256").primaryKey(),
  document: jsonb("document").notNull(),
  createdAt: createdAt(),
});

export const inspections = pgTable(
  "inspections",
  {
    id: text("id").primaryKey(),
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    serverId: text("server_id").notNull(),
    /** Null when the inspection failed before a surface was read. */
    snapshotSha256: text("snapshot_sha256").references(() => surfaceSnapshots.sha256),
    /** The surface fingerprint (lib/surface), distinct from the snapshot's storage hash. */
    surfaceSha256: text("surface_sha256"),
    declaredCapabilities: jsonb("declared_capabilities")
      .notNull()
      .default(sql`'[]'::jsonb`),
    inspectedAt: timestamp("inspected_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    status: text("status").notNull(),
    error: jsonb("error"),
    /** What the sandbox showed the server and what it tried (lib/sandbox/plan.ts SandboxReport); null for HTTP and older rows. */
    sandbox: jsonb("sandbox"),
    /** Which variables the inspection was given, by name and source (lib/secrets); never a value. */
    variables: jsonb("variables")
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * Who connected over OAuth, the scopes the authorization server granted and when the token
     * expires (lib/store/authorization.ts InspectionAuthorization); never a token. Null when the
     * inspection did not authorize.
     */
    authorization: jsonb("authorization"),
  },
  (t) => [index("inspections_review_server_idx").on(t.reviewId, t.serverId, t.inspectedAt)],
);

export const shareLinks = pgTable(
  "share_links",
  {
    id: text("id").primaryKey(),
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    /** Only the hash of a link token is stored; the token itself is shown once, at creation. */
    tokenHash: text("token_hash").notNull().unique(),
    /** Null: the link follows the latest revision. */
    frozenRevision: integer("frozen_revision"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    label: text("label").notNull().default(""),
  },
  (t) => [index("share_links_review_idx").on(t.reviewId)],
);

export const decisionRecords = pgTable(
  "decision_records",
  {
    id: text("id").primaryKey(),
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    decisionId: text("decision_id").notNull(),
    /** The exported record; its schema and validation on read belong to lib/decisions. */
    record: jsonb("record").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("decision_records_review_idx").on(t.reviewId, t.decisionId)],
);

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
});

/**
 * The secret store: values the owner set by name, each sealed with AES-256-GCM under a key kept
 * outside the database (lib/secrets/key.ts), with the name as associated data so a sealed value
 * cannot be moved to another name. `keyId` tells which key sealed it, so a start with the wrong
 * key is refused instead of failing at the first inspection.
 */
export const secrets = pgTable("secrets", {
  name: text("name").primaryKey(),
  keyId: text("key_id").notNull(),
  /** base64 of the 96-bit nonce, fresh for every value. */
  nonce: text("nonce").notNull(),
  /** base64 of the ciphertext followed by the 128-bit GCM tag. */
  sealed: text("sealed").notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * OAuth state per review server (lib/store/oauth.ts): the client registration and the tokens,
 * each sealed with the secret store's key (lib/secrets/crypto.ts) under associated data naming
 * the review, the server, the resource URL and the field, so a sealed value opens only for the
 * server and URL it was obtained for. The columns beside them are what the server card shows
 * (never a token). Shared by every instance on one database.
 */
export const oauthConnections = pgTable(
  "oauth_connections",
  {
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    serverId: text("server_id").notNull(),
    /** The MCP server URL the state was obtained for; a server whose URL changed does not use it. */
    resourceUrl: text("resource_url").notNull(),
    keyId: text("key_id").notNull(),
    /** `<nonce>.<ciphertext+tag>` in base64, or null before registration. */
    clientSealed: text("client_sealed"),
    /** `<nonce>.<ciphertext+tag>` in base64, or null before the first token. */
    tokensSealed: text("tokens_sealed"),
    /** The authorization server's discovery state (public metadata, no secret). */
    discovery: jsonb("discovery"),
    issuer: text("issuer"),
    /** Who the authorization server says connected, when it says (display only). */
    subject: text("subject"),
    /** The scopes granted by the token response, space-separated as OAuth writes them. */
    grantedScope: text("granted_scope"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    connectedAt: timestamp("connected_at", { withTimezone: true, mode: "date" }),
    /** Bumped on every write, so a refresh that lost a race to another instance can tell. */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.serverId] })],
);

/**
 * Authorization flows started by Connect and not yet finished: keyed by the SHA-256 of `state`
 * (the state itself is only in the owner's browser and the authorization server's redirect),
 * bound to the owner's session cookie by its hash, with the PKCE verifier sealed. A finished
 * flow keeps its row with `consumed_at` set until it expires, so a replay is told apart from an
 * unknown state.
 */
export const oauthFlows = pgTable(
  "oauth_flows",
  {
    stateHash: text("state_hash").primaryKey(),
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    serverId: text("server_id").notNull(),
    resourceUrl: text("resource_url").notNull(),
    sessionHash: text("session_hash").notNull(),
    keyId: text("key_id").notNull(),
    verifierSealed: text("verifier_sealed"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("oauth_flows_expires_idx").on(t.expiresAt)],
);

/**
 * The event and audit log: what the schedule found (a surface change with its per-item diff, a
 * block, a decision gone stale, a failed inspection) and what the owner did (decisions, pins,
 * share links, secrets by name). Append-only: a trigger (migrations 0004, 0005) refuses DELETE
 * and TRUNCATE, and UPDATE except sealing a row written before the chain existed. `id` is the
 * idempotency key: a retried job appends the same ids and the second insert does nothing. No
 * foreign key to reviews: the log outlives a deleted review.
 *
 * Hash-chained (lib/audit/chain.ts, docs/audit.md): `hash` is SHA-256 over the canonical JSON of
 * the row with `prev_hash`, the hash of the row before it. `prev_hash` is unique, so two writers
 * can never both extend the same head (a fork fails to insert); appends also lock the table. A
 * CHECK added NOT VALID in 0005 makes `hash` required on every row written after the migration.
 */
export const events = pgTable(
  "events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique(),
    kind: text("kind").notNull(),
    reviewId: text("review_id"),
    serverId: text("server_id"),
    /** Who caused it, by kind (lib/events/actor.ts): owner_token, person, schedule, share_link, gate. */
    actorKind: text("actor_kind").notNull(),
    /** Who within the kind: "owner", "schedule", a share link id, a person's issuer and subject. */
    actor: text("actor").notNull(),
    summary: text("summary").notNull(),
    detail: jsonb("detail")
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    /** The hash of the row before this one in the chain; 64 zeros for the first row. */
    prevHash: text("prev_hash").unique(),
    /** SHA-256 (hex) of this row's canonical form, prev_hash included. */
    hash: text("hash"),
  },
  (t) => [index("events_review_idx").on(t.reviewId, t.seq), index("events_kind_idx").on(t.kind)],
);

/**
 * Signed chain heads: the workbench key's Ed25519 signature over "the chain had `length` rows and
 * ended at row `seq` with `hash`", written at intervals and on every export. A row removed after
 * it was covered by a head, even the last one, is detected; append-only like the log.
 */
export const auditHeads = pgTable("audit_heads", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  length: bigint("length", { mode: "number" }).notNull(),
  /** ISO time as signed (the text is what the signature covers). */
  signedAt: text("signed_at").notNull(),
  /** "interval" or "export". */
  reason: text("reason").notNull(),
  keyId: text("key_id").notNull(),
  /** base64 Ed25519 signature over the head's canonical JSON (lib/audit/chain.ts headSigningInput). */
  signature: text("signature").notNull(),
  createdAt: createdAt(),
});

/** Which events an owner has read; a row per (owner, event). Separate from the log, which never changes. */
export const eventReads = pgTable(
  "event_reads",
  {
    owner: text("owner").notNull(),
    eventSeq: bigint("event_seq", { mode: "number" }).notNull(),
    readAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.eventSeq] })],
);

/**
 * The re-inspection schedule, one row per watched review server: its interval and the next time
 * it is due. A process claims a due row (FOR UPDATE SKIP LOCKED) and moves `next_due_at` on in the
 * same transaction as it enqueues the job, so one slot gives one job whichever process claims it.
 */
export const watches = pgTable(
  "watches",
  {
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    serverId: text("server_id").notNull(),
    intervalSeconds: integer("interval_seconds").notNull(),
    isEnabled: boolean("is_enabled").notNull().default(true),
    nextDueAt: timestamp("next_due_at", { withTimezone: true, mode: "date" }).notNull(),
    lastClaimedAt: timestamp("last_claimed_at", { withTimezone: true, mode: "date" }),
    /** Embedded store only: consecutive failed attempts of the current slot (pg-boss counts its own). */
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.reviewId, t.serverId] }),
    index("watches_due_idx").on(t.nextDueAt),
  ],
);

/** Owner-configured webhooks. The signing secret is a name in the secret store, never a value here. */
export const webhooks = pgTable("webhooks", {
  id: text("id").primaryKey(),
  label: text("label").notNull().default(""),
  url: text("url").notNull(),
  /** "generic" (signed JSON) or "slack" (incoming-webhook payload). */
  format: text("format").notNull(),
  secretName: text("secret_name"),
  /** Event kinds this webhook receives. */
  kinds: jsonb("kinds").notNull(),
  isEnabled: boolean("is_enabled").notNull().default(true),
  createdAt: createdAt(),
});

/** One row per (webhook, event): its state and every attempt with its status. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventSeq: bigint("event_seq", { mode: "number" }).notNull(),
    /** "pending", "delivered", "failed" (attempts exhausted). */
    state: text("state").notNull(),
    attempts: jsonb("attempts")
      .notNull()
      .default(sql`'[]'::jsonb`),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_pending_idx").on(t.state, t.nextAttemptAt),
  ],
);

/**
 * Reporting tokens (issue 31): a credential `relay-review gate` holds to report what it scanned
 * to one review, and nothing else. Only its hash is stored; the proxy exempts /api/report/* and
 * that route is the only place a reporting token is accepted, so it cannot read or change anything.
 */
export const reportingTokens = pgTable(
  "reporting_tokens",
  {
    id: text("id").primaryKey(),
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    label: text("label").notNull().default(""),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("reporting_tokens_review_idx").on(t.reviewId)],
);

/**
 * Scan counts per review, source (the server), agent and origin ("gate": results the gate relayed;
 * "sample": texts a reviewer sampled in the workbench): "k flagged of n scanned" (issue 31 item 4).
 * Added to in place; a count is never a decision and feeds no control.
 */
export const detectionCounts = pgTable(
  "detection_counts",
  {
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    agent: text("agent").notNull(),
    origin: text("origin").notNull(),
    scanned: bigint("scanned", { mode: "number" }).notNull().default(0),
    flagged: bigint("flagged", { mode: "number" }).notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.source, t.agent, t.origin] })],
);

/**
 * The count batches already added, by the reporter's idempotency key (issue 31): a gate that
 * retries a batch whose answer it never saw (a timeout after the workbench committed) is not
 * counted twice. Kept per review; a key is random per batch, so rows are small and few per minute.
 */
export const detectionBatches = pgTable(
  "detection_batches",
  {
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    batchId: text("batch_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.batchId] })],
);
