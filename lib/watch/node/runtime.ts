import "server-only";
/**
 * Running the schedule in a process. Two modes, one job (lib/watch/node/run.ts):
 *
 * - **Embedded store (PGlite)**: the app process is the only one on its data folder, so it runs
 *   due slots itself, one at a time, and moves a slot on only after its run: a process that dies
 *   mid-run runs the same slot again at its next start (same ids, so no duplicate entry).
 * - **PostgreSQL**: every app instance and every `npm run worker` claims due slots with
 *   `FOR UPDATE SKIP LOCKED` and, in the same transaction, enqueues the job on pg-boss under an id
 *   derived from the slot, so a slot gives exactly one job whichever process claims it. pg-boss
 *   hands each job to one worker, fails a job whose process stopped answering (expiry) and retries
 *   it with backoff, and after the last attempt moves it to a dead-letter queue with the error,
 *   which is logged as `watch.dead`.
 *
 * Both modes also send due webhook deliveries (lib/watch/node/deliver.ts) on every tick, and sign
 * the audit chain's head at intervals (lib/watch/node/audit-heads.ts).
 */
import { createHash } from "node:crypto";
import PgBoss from "pg-boss";
import pg from "pg";
import type { Db, Store } from "@/lib/store/db";
import { appendEvent } from "@/lib/store/events";
import { claimDueDeliveries } from "@/lib/store/webhooks";
import { advanceWatch, dueWatches, markWatchAttempt, syncWatches } from "@/lib/store/watches";
import {
  backoffSeconds,
  jitteredSeconds,
  watchSettingsFromEnv,
  type WatchSettings,
} from "@/lib/watch/schedule";
import { SCHEDULE_ACTOR, runKeyOf, runWatchJob, type WatchJob } from "@/lib/watch/node/run";
import { attemptDelivery } from "@/lib/watch/node/deliver";
import { auditHeadIntervalMs, startAuditHeadSigning } from "@/lib/watch/node/audit-heads";

export const INSPECT_QUEUE = "relay-review-inspect";
export const DEAD_LETTER_QUEUE = "relay-review-inspect-dead";
export const PGBOSS_SCHEMA = "pgboss";
/** Session advisory lock held while a process sets pg-boss up. Arbitrary, fixed forever. */
export const QUEUE_SETUP_LOCK_KEY = 7_231_946_018;
/** Slots claimed per tick, and deliveries sent per tick, per process. */
export const CLAIM_BATCH = 50;
export const DELIVERY_BATCH = 10;

export type Env = Readonly<Record<string, string | undefined>>;
export type WatchRuntime = {
  mode: "embedded" | "queue";
  /** Runs a tick now (after something was logged that a webhook may want). */
  kick(): void;
  stop(): Promise<void>;
};

/** pg-boss wants a UUID; the same slot always gives the same one, so a second enqueue is a no-op. */
export function jobIdOf(runKey: string): string {
  const h = createHash("sha256").update(runKey).digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A self-rescheduling timer that never overlaps itself. */
function every(ms: number, fn: () => Promise<void>, log: (line: string) => void) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    if (timer) clearTimeout(timer);
    running = fn()
      .catch((e) => log(`tick failed: ${message(e)}`))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(run, ms);
      });
  };
  timer = setTimeout(run, 0);
  return {
    kick: run,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

async function sendDueDeliveries(db: Db, settings: WatchSettings, env: Env): Promise<void> {
  const leaseSeconds = Math.ceil(settings.deliveryTimeoutMs / 1000) * 2 + 5;
  const claimed = await claimDueDeliveries(db, { limit: DELIVERY_BATCH, leaseSeconds });
  for (const delivery of claimed) await attemptDelivery(db, delivery, settings, env);
}

export type StartWatchOptions = {
  env?: Env;
  settings?: WatchSettings;
  log?: (line: string) => void;
  /** Names this process in the log lines ("app", "worker"). */
  role?: string;
};

export async function startWatch(
  store: Store,
  options: StartWatchOptions = {},
): Promise<WatchRuntime> {
  const env = options.env ?? process.env;
  const settings = options.settings ?? watchSettingsFromEnv(env);
  const role = options.role ?? "app";
  const log =
    options.log ??
    ((line: string) => console.log(`relay-review-watch[${role} ${process.pid}]: ${line}`));
  const db = store.db;
  const headIntervalMs = auditHeadIntervalMs(env);
  let since: string | null = null;
  const sync = async () => {
    since = await syncWatches(db, settings.defaultIntervalSeconds, since);
  };

  if (store.target.kind === "pglite") {
    const heads = startAuditHeadSigning(db, headIntervalMs, log);
    const tick = every(
      settings.tickMs,
      async () => {
        await sync();
        const now = Date.now();
        const due = (await dueWatches(db, CLAIM_BATCH)).filter(
          (w) =>
            w.attempts === 0 ||
            !w.lastClaimedAt ||
            w.lastClaimedAt.getTime() +
              backoffSeconds(settings.jobRetryDelaySeconds, w.attempts) * 1000 <=
              now,
        );
        for (const row of due) {
          const job: WatchJob = {
            reviewId: row.reviewId,
            serverId: row.serverId,
            slot: row.nextDueAt.toISOString(),
          };
          const next = () => jitteredSeconds(row.intervalSeconds, settings.jitter, Math.random());
          try {
            log(`job ${runKeyOf(job)} start`);
            const outcome = await runWatchJob(db, job, env);
            log(`job ${runKeyOf(job)} ${outcome.status}`);
            await advanceWatch(db, row, next());
          } catch (error) {
            const attempts = row.attempts + 1;
            log(`job ${runKeyOf(job)} attempt ${attempts} failed: ${message(error)}`);
            if (attempts > settings.jobRetryLimit) {
              await logDead(db, job, { message: message(error) }, attempts);
              await advanceWatch(db, row, next());
            } else await markWatchAttempt(db, row, attempts);
          }
        }
        await sendDueDeliveries(db, settings, env);
      },
      log,
    );
    log(`schedule runs in this process (embedded store), tick ${settings.tickMs} ms`);
    return {
      mode: "embedded",
      kick: () => tick.kick(),
      async stop() {
        await tick.stop();
        await heads.stop();
      },
    };
  }

  const url = store.target.url;
  const boss = new PgBoss({
    connectionString: url,
    schema: PGBOSS_SCHEMA,
    max: 3,
    schedule: false,
    supervise: true,
    migrate: true,
    maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
  });
  boss.on("error", (e: Error) => log(`pg-boss: ${e.message}`));
  const queueOptions = {
    name: INSPECT_QUEUE,
    policy: "standard" as const,
    retryLimit: settings.jobRetryLimit,
    retryDelay: settings.jobRetryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: settings.jobExpireSeconds,
    deadLetter: DEAD_LETTER_QUEUE,
  };
  // pg-boss's own schema migration and create_queue deadlock when several processes start at
  // once (seen with two instances and a worker): one process at a time sets the queues up.
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query("SELECT pg_advisory_lock($1)", [QUEUE_SETUP_LOCK_KEY]);
    try {
      await boss.start();
      await boss.createQueue(DEAD_LETTER_QUEUE, { name: DEAD_LETTER_QUEUE, policy: "standard" });
      await boss.createQueue(INSPECT_QUEUE, queueOptions);
      // createQueue keeps an existing queue's options: bring them to this start's settings.
      await boss.updateQueue(INSPECT_QUEUE, queueOptions);
    } finally {
      await setup.query("SELECT pg_advisory_unlock($1)", [QUEUE_SETUP_LOCK_KEY]);
    }
  } finally {
    await setup.end();
  }

  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", (e) => log(`dispatcher connection: ${e.message}`));
  let deliveries: ReturnType<typeof every> | null = null;

  /** Claims due slots and enqueues their jobs in one transaction: a slot is enqueued once or not at all. */
  const dispatch = async () => {
    await sync();
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{
        review_id: string;
        server_id: string;
        interval_seconds: number;
        next_due_at: Date;
      }>(
        `SELECT review_id, server_id, interval_seconds, next_due_at FROM watches
         WHERE is_enabled AND next_due_at <= now() ORDER BY next_due_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [CLAIM_BATCH],
      );
      const executeSql = async (text: string, values: unknown[]) => client.query(text, values);
      for (const r of rows) {
        const job: WatchJob = {
          reviewId: r.review_id,
          serverId: r.server_id,
          slot: r.next_due_at.toISOString(),
        };
        await boss.send(INSPECT_QUEUE, job, { id: jobIdOf(runKeyOf(job)), db: { executeSql } });
        const after = jitteredSeconds(r.interval_seconds, settings.jitter, Math.random());
        await client.query(
          `UPDATE watches SET last_claimed_at = now(), next_due_at = date_trunc('milliseconds',
             CASE WHEN next_due_at + make_interval(secs => $3) > now() THEN next_due_at + make_interval(secs => $3)
             ELSE now() + make_interval(secs => $3) END)
           WHERE review_id = $1 AND server_id = $2`,
          [r.review_id, r.server_id, after],
        );
      }
      await client.query("COMMIT");
      if (rows.length > 0) log(`enqueued ${rows.length} scheduled inspection(s)`);
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  await boss.work<WatchJob>(
    INSPECT_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, settings.tickMs / 2000) },
    async ([job]) => {
      if (!job) return;
      log(`job ${job.id} start ${runKeyOf(job.data)}`);
      const outcome = await runWatchJob(db, job.data, env);
      log(`job ${job.id} ${outcome.status} ${runKeyOf(job.data)}`);
      deliveries?.kick();
    },
  );
  await boss.work<WatchJob>(
    DEAD_LETTER_QUEUE,
    {
      batchSize: 1,
      pollingIntervalSeconds: Math.max(0.5, settings.tickMs / 1000),
      includeMetadata: true,
    },
    async ([job]) => {
      if (!job) return;
      await logDead(db, job.data, job.output, settings.jobRetryLimit + 1);
      deliveries?.kick();
    },
  );
  const dispatcher = every(settings.tickMs, dispatch, log);
  deliveries = every(settings.tickMs, () => sendDueDeliveries(db, settings, env), log);
  const heads = startAuditHeadSigning(db, headIntervalMs, log);
  log(`schedule on pg-boss (queue ${INSPECT_QUEUE}), tick ${settings.tickMs} ms`);
  return {
    mode: "queue",
    kick: () => deliveries?.kick(),
    async stop() {
      await dispatcher.stop();
      await deliveries?.stop();
      await heads.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await pool.end();
    },
  };
}

/** The dead letter, logged: which slot gave up, after how many attempts, and why. */
async function logDead(db: Db, job: WatchJob, reason: unknown, attempts: number): Promise<void> {
  const why =
    typeof reason === "object" && reason !== null && "message" in reason
      ? String(reason.message)
      : JSON.stringify(reason ?? null);
  await appendEvent(db, {
    id: `watch.dead:${runKeyOf(job)}`,
    kind: "watch.dead",
    reviewId: job.reviewId,
    serverId: job.serverId,
    actor: SCHEDULE_ACTOR,
    summary: `The scheduled inspection of ${job.serverId} (slot ${job.slot}) gave up after ${attempts} attempts: ${why}`,
    detail: { slot: job.slot, attempts, reason: reason ?? null },
  });
}

const RUNTIME_KEY = Symbol.for("relay-review.watch-runtime");
type GlobalWithWatch = typeof globalThis & { [RUNTIME_KEY]?: Promise<WatchRuntime> };

/** The process's schedule, started once (the app's start and the worker both call this). */
export function ensureWatch(store: Store, options: StartWatchOptions = {}): Promise<WatchRuntime> {
  const g = globalThis as GlobalWithWatch;
  return (g[RUNTIME_KEY] ??= startWatch(store, options));
}
