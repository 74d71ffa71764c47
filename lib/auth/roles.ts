/**
 * Who may do what: the four roles and the one table of routes × required role that the proxy
 * checks on every request (proxy.ts). Pure, and not server-only: the proxy bundle imports it.
 *
 * Roles are ordered; each includes the ones before it:
 * - viewer: reads reviews, analyses, decisions and events;
 * - reviewer: edits reviews, inspects servers, pins, shares, proposes decisions;
 * - approver: also approves another person's proposal (four eyes, lib/decisions/four-eyes.ts);
 * - admin: also secrets, webhooks, gates' reporting tokens, the audit export, people and signing
 *   everyone out.
 * The owner token is admin (bootstrap and break-glass; every use is logged).
 *
 * A path that no rule names needs `viewer` to read and `admin` to write: a route added without a
 * rule fails closed, and the table test (tests/auth/route-roles.test.ts) lists every route file, so
 * a new route without a deliberate rule fails the test.
 */

export const ROLES = ["viewer", "reviewer", "approver", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** Whether `held` includes `needed`. */
export function hasRole(held: Role | null, needed: Role): boolean {
  return held !== null && roleRank(held) >= roleRank(needed);
}

/** The highest of several roles (null for none). */
export function highestRole(roles: Iterable<Role>): Role | null {
  let best: Role | null = null;
  for (const r of roles) if (best === null || roleRank(r) > roleRank(best)) best = r;
  return best;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** `:x` matches one path segment. */
export interface RouteRule {
  pattern: string;
  methods: Partial<Record<Method, Role>>;
}

/**
 * The table. Reads default to viewer, so only reads that need more are named; every write is named.
 * `/api/auth/sign-out` is the one write a viewer may make: ending one's own session.
 */
export const ROUTE_ROLES: readonly RouteRule[] = [
  { pattern: "/api/audit/export", methods: { GET: "admin" } },
  { pattern: "/api/audit/verify", methods: { GET: "viewer" } },
  { pattern: "/api/auth/sign-out", methods: { POST: "viewer" } },
  { pattern: "/api/auth/sign-out-everywhere", methods: { POST: "admin" } },
  { pattern: "/api/events", methods: { GET: "viewer" } },
  { pattern: "/api/events/read", methods: { POST: "reviewer" } },
  { pattern: "/api/import", methods: { POST: "reviewer" } },
  { pattern: "/api/people", methods: { GET: "admin" } },
  { pattern: "/api/people/:person", methods: { PUT: "admin" } },
  { pattern: "/api/reviews", methods: { GET: "viewer", POST: "reviewer" } },
  { pattern: "/api/reviews/:id", methods: { GET: "viewer", PUT: "reviewer", DELETE: "admin" } },
  // The detector's flags and which are held: read like the event log they come from (issue 31).
  { pattern: "/api/reviews/:id/content-flags", methods: { GET: "viewer" } },
  // Releases a result the gate held on a detector flag (issue 31): a reviewer's call, like a pin.
  {
    pattern: "/api/reviews/:id/content-flags/:eventId/release",
    methods: { POST: "reviewer" },
  },
  { pattern: "/api/reviews/:id/decisions", methods: { GET: "viewer", POST: "reviewer" } },
  {
    pattern: "/api/reviews/:id/decisions/:decisionId/approvals",
    methods: { POST: "approver" },
  },
  { pattern: "/api/reviews/:id/servers/:serverId/inspect", methods: { POST: "reviewer" } },
  {
    pattern: "/api/reviews/:id/servers/:serverId/oauth",
    methods: { GET: "viewer", DELETE: "reviewer" },
  },
  { pattern: "/api/reviews/:id/servers/:serverId/oauth/connect", methods: { POST: "reviewer" } },
  { pattern: "/api/reviews/:id/servers/:serverId/pin", methods: { POST: "reviewer" } },
  // Removes a pin of another era or credential (issue 30): a reviewer's call, like setting one.
  { pattern: "/api/reviews/:id/servers/:serverId/pin/remove", methods: { POST: "reviewer" } },
  // Runs a read-only tool, sandboxed as an inspection, and scans what it returns (issue 31 item 3).
  { pattern: "/api/reviews/:id/servers/:serverId/sample", methods: { POST: "reviewer" } },
  { pattern: "/api/reviews/:id/servers/:serverId/watch", methods: { PUT: "reviewer" } },
  { pattern: "/api/reviews/:id/share-links", methods: { GET: "viewer", POST: "reviewer" } },
  { pattern: "/api/reviews/:id/share-links/:linkId", methods: { DELETE: "reviewer" } },
  // Secret names (never values) are read by reviewers who reference them in a server's transport.
  // A reporting token is a credential a gate holds (issue 31): made by whoever makes credentials.
  { pattern: "/api/reviews/:id/reporting-tokens", methods: { POST: "admin" } },
  { pattern: "/api/secrets", methods: { GET: "reviewer" } },
  { pattern: "/api/secrets/:name", methods: { PUT: "admin", DELETE: "admin" } },
  { pattern: "/api/webhooks", methods: { GET: "admin", POST: "admin" } },
  { pattern: "/api/webhooks/:id", methods: { DELETE: "admin" } },
  { pattern: "/api/webhooks/:id/test", methods: { POST: "admin" } },
  // Completes an OAuth connection for a server: a write, though it arrives as a GET redirect.
  { pattern: "/oauth/finish", methods: { GET: "reviewer" } },
  { pattern: "/webhooks", methods: { GET: "admin" } },
  { pattern: "/people", methods: { GET: "admin" } },
];

function matches(pattern: string, pathname: string): boolean {
  const p = pattern.split("/");
  const s = pathname.replace(/\/+$/, "").split("/");
  if (p.length !== s.length) return false;
  return p.every((seg, i) => (seg.startsWith(":") ? (s[i] ?? "") !== "" : seg === s[i]));
}

/** The role a request needs: the table's entry, else viewer to read and admin to write. */
export function requiredRole(method: string, pathname: string): Role {
  const m = method.toUpperCase();
  const read = m === "GET" || m === "HEAD" || m === "OPTIONS";
  for (const rule of ROUTE_ROLES) {
    if (!matches(rule.pattern, pathname)) continue;
    const role = rule.methods[(m === "HEAD" || m === "OPTIONS" ? "GET" : m) as Method];
    if (role) return role;
    break;
  }
  return read ? "viewer" : "admin";
}
