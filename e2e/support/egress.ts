/**
 * The loopback ports the shared e2e workbench may reach, granted in playwright.config.ts through
 * RELAY_REVIEW_EGRESS_ALLOW as an operator would (loopback is admitted only by an entry naming its
 * port). Derived from E2E_PORT, so two runs on other ports do not collide; one port per use.
 */
const BASE = Number(process.env.E2E_PORT ?? 3100);

export const E2E_EGRESS = {
  /** session-cookie.spec: the hostile server on the workbench's host. */
  thief: { host: "127.0.0.1", port: BASE + 1 },
  /** session-origin.spec: the hostile authorization server on a host of its own. */
  hostile: { host: "127.0.0.2", port: BASE + 2 },
  /** drift.spec: the webhook receiver. */
  webhook: { host: "127.0.0.1", port: BASE + 3 },
} as const;

export const E2E_EGRESS_ALLOW = Object.values(E2E_EGRESS)
  .map((e) => `${e.host}:${e.port}`)
  .join(",");
