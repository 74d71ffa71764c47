import "server-only";
/**
 * One inspection of a review server, end to end: resolve the target from the stored server entry
 * only (launcher allowlist, egress allowlist), run the bounded inspection with progress, store the
 * snapshot (content-addressed) and the inspection (ok or failed), and check the pin. Never throws
 * for a server's behaviour: a hang, flood, crash or garbage ends as a result naming the limit.
 */
import type { ReviewId, ServerId } from "@/lib/ids";
import { inspectServer } from "@/lib/mcp/node/inspect";
import {
  repoRoot,
  resolveInspectTarget,
  type Env,
  type ResolvedVariable,
} from "@/lib/mcp/node/resolve-target";
import { sandboxOptedOut, sandboxTarget } from "@/lib/sandbox/node/sandbox";
import { LauncherSandboxSchema, type SandboxReport } from "@/lib/sandbox/plan";
import { getSecretKey } from "@/lib/secrets/key";
import { scrubValues } from "@/lib/secrets/references";
import { resolveDataDir } from "@/lib/data-dir";
import { openSecrets } from "@/lib/store/secrets";
import { declaredCapabilityNamesFor } from "@/lib/mcp/capabilities";
import type { InspectError, InspectProgress, InspectTarget } from "@/lib/mcp/types";
import type { RelayServer } from "@/lib/review/schema";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { putSnapshot, recordInspection } from "@/lib/store/snapshots";
import type { InspectLimits } from "@/lib/surface/limits";
import { scanSurface } from "@/lib/surface/suspicious";
import { SURFACE_LISTS, surfaceOf } from "@/lib/surface/types";
import { oauthResourceUrl } from "@/lib/workbench/oauth";
import { oauthProviderFor } from "@/lib/workbench/oauth-flow";
import { checkPin, loadReviewServer, pinState, pinsOf } from "@/lib/workbench/surface";
import type { InspectStreamLine } from "@/lib/workbench/surface-api";

export type PreparedInspection =
  | {
      ok: true;
      record: ReviewRecord;
      server: RelayServer;
      target: InspectTarget;
      variables: ResolvedVariable[];
      values: ReadonlyMap<string, string>;
      /** Set when the owner opted out of the sandbox: stored with the inspection in place of a sandbox report. */
      unsandboxed?: SandboxReport;
    }
  | { ok: false; error: InspectError };

/**
 * Load the review's server and resolve what to run from it alone; a refusal is a value naming why.
 * A stdio server runs inside the sandbox (lib/sandbox/node/sandbox.ts), or not at all, unless the
 * owner opted out with RELAY_REVIEW_UNSANDBOXED=1.
 */
export async function prepareInspection(
  db: Db,
  reviewId: ReviewId,
  serverId: ServerId,
  env: Env = process.env,
  options: { origin?: string } = {},
): Promise<PreparedInspection> {
  const { record, server } = await loadReviewServer(db, reviewId, serverId);
  const key = getSecretKey();
  const opened = new Map<string, string>();
  // Read at connect time, so a value set a moment ago is used by this inspection with no restart.
  const resolved = await resolveInspectTarget(server, env, {
    secrets: async (names) => {
      if (!key.ok) return { ok: true, values: new Map() };
      const r = await openSecrets(db, key.key, names);
      if (r.ok) for (const [n, v] of r.values) opened.set(n, v);
      return r;
    },
  });
  if (!resolved.ok) return resolved;
  const values = new Map(
    [...opened].filter(([n]) =>
      resolved.variables.some((v) => v.name === n && v.source === "secret"),
    ),
  );
  for (const v of resolved.variables)
    if (v.source === "environment" && env[v.name] !== undefined) values.set(v.name, env[v.name]!);
  const prepared = { ok: true as const, record, server, variables: resolved.variables, values };
  const target = resolved.target;
  if (target.kind !== "stdio") {
    // An HTTP server inspects with its stored OAuth tokens (refreshed as needed); one that asks for
    // a consent fails with `unauthorized` and the card offers Connect. Needs the secret store's key.
    const resourceUrl = oauthResourceUrl(server);
    if (!key.ok || resourceUrl === null || options.origin === undefined)
      return { ...prepared, target };
    const { provider } = oauthProviderFor(
      db,
      key.key,
      { reviewId: record.id, serverId: server.id },
      resourceUrl,
      target,
      options.origin,
      { kind: "inspect" },
    );
    return { ...prepared, target: { ...target, auth: provider } };
  }
  if (sandboxOptedOut(env)) {
    return {
      ...prepared,
      target,
      unsandboxed: {
        sandboxed: false,
        reason:
          "the workbench owner set RELAY_REVIEW_UNSANDBOXED=1: this server ran with the workbench's user, files and network",
      },
    };
  }
  const sandboxed = sandboxTarget(target, {
    sandbox: target.launcher?.sandbox ?? LauncherSandboxSchema.parse({}),
    root: repoRoot(env),
    dataDir: resolveDataDir(env),
    env,
  });
  if (!sandboxed.ok) return { ok: false, error: { code: "refused", message: sandboxed.message } };
  return { ...prepared, target: sandboxed.target };
}

/** In-flight inspections per review server in this process: a second one at once answers 409. */
const RUNNING_KEY = Symbol.for("relay-review.running-inspections");
const running: Set<string> =
  ((globalThis as Record<symbol, unknown>)[RUNNING_KEY] as Set<string> | undefined) ??
  new Set<string>();
(globalThis as Record<symbol, unknown>)[RUNNING_KEY] = running;

export function claimInspection(reviewId: string, serverId: string): (() => void) | null {
  const key = `${reviewId}\u0000${serverId}`;
  if (running.has(key)) return null;
  running.add(key);
  return () => running.delete(key);
}

const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Run, store and check; returns the stream's final line. */
export async function runInspection(
  db: Db,
  prepared: Extract<PreparedInspection, { ok: true }>,
  options: {
    limits?: Partial<InspectLimits>;
    signal?: AbortSignal;
    onProgress?: (event: InspectProgress) => void;
  },
): Promise<Extract<InspectStreamLine, { type: "result" }>> {
  const { record, server, target, variables, values } = prepared;
  const { onProgress } = options;
  const raw = await inspectServer(target, {
    ...(server.hostRendersApps ? { hostRendersApps: true } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    // The progress stream goes to the browser as it happens: scrubbed as the stored result is (the
    // command line being connected to, a stderr tail), so a value is never read back through it.
    ...(onProgress ? { onProgress: (event) => onProgress(scrubValues(event, values)) } : {}),
  });
  // What the server echoes of a value it was given is kept as `[secret NAME]`, never the value.
  const result = scrubValues(raw, values);
  const base = {
    reviewId: record.id,
    serverId: server.id,
    variables,
    sandbox: result.sandbox ?? prepared.unsandboxed ?? null,
  };
  // Who connected, the granted scopes and the expiry (never a token): evidence for the credential control.
  const authorization = result.ok && result.authorization ? result.authorization : null;
  if (!result.ok) {
    const inspection = await recordInspection(db, {
      ...base,
      snapshotSha256: null,
      surfaceSha256: null,
      declaredCapabilities: declaredCapabilityNamesFor(server),
      status: "failed",
      error: result.error,
    });
    return { type: "result", ok: false, inspectionId: inspection.id, error: result.error };
  }
  const snapshot = result.snapshot;
  let snapshotSha256;
  try {
    snapshotSha256 = await putSnapshot(db, snapshot);
  } catch (error) {
    const failure: InspectError = {
      code: "internal",
      message: `the surface was read but could not be stored: ${errorMessage(error)}`,
    };
    const inspection = await recordInspection(db, {
      ...base,
      snapshotSha256: null,
      surfaceSha256: snapshot.surfaceSha256,
      declaredCapabilities: snapshot.declaredCapabilities,
      status: "failed",
      error: failure,
    });
    return { type: "result", ok: false, inspectionId: inspection.id, error: failure };
  }
  const inspection = await recordInspection(db, {
    ...base,
    snapshotSha256,
    surfaceSha256: snapshot.surfaceSha256,
    declaredCapabilities: snapshot.declaredCapabilities,
    status: "ok",
    authorization,
  });
  // The credential this surface was listed under picks the pin it is compared with (issue 30).
  const check = await checkPin(db, record.id, server, snapshot, inspection.credential);
  return {
    type: "result",
    ok: true,
    inspectionId: inspection.id,
    snapshotSha256,
    surfaceSha256: snapshot.surfaceSha256,
    serverInfo: { name: snapshot.serverInfo.name, version: snapshot.serverInfo.version },
    summary: {
      counts: Object.fromEntries(SURFACE_LISTS.map((l) => [l, snapshot[l].length])) as Record<
        (typeof SURFACE_LISTS)[number],
        number
      >,
      rejects: snapshot.rejects.length,
      flags: scanSurface(surfaceOf(snapshot)).length,
    },
    pin: pinState(check ? (check.pin ?? pinsOf(server)[0]!) : null, check?.comparison ?? null),
  };
}
