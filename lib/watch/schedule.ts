/**
 * The re-inspection schedule's arithmetic, pure: the default interval, the jitter that spreads
 * fifty servers pinned in one afternoon across the interval instead of inspecting them all at the
 * same minute every day, and the retry backoff of jobs and webhook deliveries. Settings come from
 * the environment in one place (`watchSettingsFromEnv`), so the tests can run a 4-second interval
 * through exactly the code a 24-hour one runs.
 */
import { z } from "zod";

export const DEFAULT_INTERVAL_SECONDS = 24 * 60 * 60;
export const MIN_INTERVAL_SECONDS = 1;
export const MAX_INTERVAL_SECONDS = 30 * 24 * 60 * 60;
/** ± this fraction of the interval, uniformly. */
export const DEFAULT_JITTER = 0.1;

export type WatchSettings = {
  /** Interval for a server pinned without one set. */
  defaultIntervalSeconds: number;
  jitter: number;
  /** How often a process looks for due servers and due deliveries. */
  tickMs: number;
  /** A scheduled job that has not finished after this long is failed and retried (a killed process). */
  jobExpireSeconds: number;
  /** Attempts of one scheduled job before it goes to the dead-letter queue, with the reason kept. */
  jobRetryLimit: number;
  jobRetryDelaySeconds: number;
  /** Attempts of one webhook delivery, and the first backoff. */
  deliveryAttempts: number;
  deliveryRetryBaseSeconds: number;
  deliveryTimeoutMs: number;
  /** pg-boss's maintenance (expiring jobs of killed processes) runs this often. */
  maintenanceIntervalSeconds: number;
};

export const DEFAULT_WATCH_SETTINGS: WatchSettings = {
  defaultIntervalSeconds: DEFAULT_INTERVAL_SECONDS,
  jitter: DEFAULT_JITTER,
  tickMs: 5_000,
  // The inspection's own bounds end a healthy run within a few minutes (lib/surface/limits.ts).
  jobExpireSeconds: 15 * 60,
  jobRetryLimit: 3,
  jobRetryDelaySeconds: 30,
  deliveryAttempts: 6,
  deliveryRetryBaseSeconds: 10,
  deliveryTimeoutMs: 10_000,
  maintenanceIntervalSeconds: 60,
};

const positive = (text: string | undefined, fallback: number) => {
  const n = Number(text);
  return text !== undefined && text.trim() !== "" && Number.isFinite(n) && n > 0 ? n : fallback;
};

/** `RELAY_REVIEW_WATCH_*` over the defaults; anything unparseable keeps the default. */
export function watchSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): WatchSettings {
  const d = DEFAULT_WATCH_SETTINGS;
  const jitter = Number(env.RELAY_REVIEW_WATCH_JITTER);
  return {
    defaultIntervalSeconds: positive(
      env.RELAY_REVIEW_WATCH_INTERVAL_SECONDS,
      d.defaultIntervalSeconds,
    ),
    jitter:
      env.RELAY_REVIEW_WATCH_JITTER !== undefined && jitter >= 0 && jitter < 0.5
        ? jitter
        : d.jitter,
    tickMs: positive(env.RELAY_REVIEW_WATCH_TICK_MS, d.tickMs),
    jobExpireSeconds: positive(env.RELAY_REVIEW_WATCH_JOB_EXPIRE_SECONDS, d.jobExpireSeconds),
    jobRetryLimit: positive(env.RELAY_REVIEW_WATCH_JOB_RETRY_LIMIT, d.jobRetryLimit),
    jobRetryDelaySeconds: positive(
      env.RELAY_REVIEW_WATCH_JOB_RETRY_DELAY_SECONDS,
      d.jobRetryDelaySeconds,
    ),
    deliveryAttempts: positive(env.RELAY_REVIEW_WEBHOOK_ATTEMPTS, d.deliveryAttempts),
    deliveryRetryBaseSeconds: positive(
      env.RELAY_REVIEW_WEBHOOK_RETRY_BASE_SECONDS,
      d.deliveryRetryBaseSeconds,
    ),
    deliveryTimeoutMs: positive(env.RELAY_REVIEW_WEBHOOK_TIMEOUT_MS, d.deliveryTimeoutMs),
    maintenanceIntervalSeconds: positive(
      env.RELAY_REVIEW_WATCH_MAINTENANCE_SECONDS,
      d.maintenanceIntervalSeconds,
    ),
  };
}

/** The interval stretched or shrunk by up to ±jitter; `random` in [0, 1). */
export function jitteredSeconds(intervalSeconds: number, jitter: number, random: number): number {
  return intervalSeconds * (1 + jitter * (2 * random - 1));
}

/** Exponential backoff after the n-th failed attempt (1-based), capped at an hour. */
export function backoffSeconds(baseSeconds: number, attempt: number): number {
  return Math.min(baseSeconds * 2 ** Math.max(0, attempt - 1), 3_600);
}

export const WatchRequestSchema = z.object({
  intervalSeconds: z.number().int().min(MIN_INTERVAL_SECONDS).max(MAX_INTERVAL_SECONDS),
  isEnabled: z.boolean(),
});

export const WatchViewSchema = z.object({
  reviewId: z.string(),
  serverId: z.string(),
  intervalSeconds: z.number(),
  isEnabled: z.boolean(),
  nextDueAt: z.string(),
  lastClaimedAt: z.string().nullable(),
});
export type WatchView = z.infer<typeof WatchViewSchema>;
