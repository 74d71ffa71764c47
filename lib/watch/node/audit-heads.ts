import "server-only";
/**
 * Signing the audit chain's head at intervals (lib/store/audit.ts signChainHead, reason
 * "interval"), so a row removed from the end of the log after the next signature is detected by
 * `relay-review audit verify`. A head is written only when the chain moved since the last one.
 * Only a process that already holds the workbench key signs: a process that created a key of its
 * own (a worker on another machine) would sign heads nobody verifies with.
 */
import { access } from "node:fs/promises";
import { resolveDataDir } from "@/lib/data-dir";
import { signingKeyPaths } from "@/lib/decisions/key-files";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { signChainHead } from "@/lib/store/audit";
import type { Db } from "@/lib/store/db";

/** Default time between head signatures; RELAY_REVIEW_AUDIT_HEAD_INTERVAL_SECONDS overrides it. */
export const DEFAULT_AUDIT_HEAD_INTERVAL_SECONDS = 15 * 60;

export function auditHeadIntervalMs(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env.RELAY_REVIEW_AUDIT_HEAD_INTERVAL_SECONDS);
  return (Number.isFinite(value) && value > 0 ? value : DEFAULT_AUDIT_HEAD_INTERVAL_SECONDS) * 1000;
}

/** Signs the head now if the key exists here and the chain moved; returns whether a key was there. */
export async function signHeadIfKeyed(
  db: Db,
  dataDir: string = resolveDataDir(),
): Promise<boolean> {
  try {
    await access(signingKeyPaths(dataDir).privateKey);
  } catch {
    return false;
  }
  const key = await loadOrCreateSigningKey(dataDir);
  await signChainHead(db, key.privateKey, "interval");
  return true;
}

/** Signs at start and then every `intervalMs`, never overlapping; `stop` waits for a running signature. */
export function startAuditHeadSigning(
  db: Db,
  intervalMs: number,
  log: (line: string) => void,
): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    running = signHeadIfKeyed(db)
      .then(() => undefined)
      .catch((e: unknown) =>
        log(`signing the audit head failed: ${e instanceof Error ? e.message : String(e)}`),
      )
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(run, intervalMs).unref();
      });
  };
  timer = setTimeout(run, 0).unref();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
