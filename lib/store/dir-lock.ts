import "server-only";
/**
 * One PGlite per data folder: two processes opening the same folder (a second server, a CLI run
 * against a live server) would both write the same files and corrupt them. A lock file next to
 * the folder holds the owner's pid; a lock whose process is gone (SIGKILL, crash) is taken over.
 */
import fs from "node:fs";

const HELD = Symbol.for("relay-review.dir-locks");
type GlobalWithLocks = typeof globalThis & { [HELD]?: Set<string> };
function held(): Set<string> {
  const g = globalThis as GlobalWithLocks;
  return (g[HELD] ??= new Set());
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws naming the process that holds it. Returns the release function. */
export function acquireDirLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      held().add(lockPath);
      return () => {
        held().delete(lockPath);
        fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let pid = Number.NaN;
    try {
      pid = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
    } catch {
      continue; // released between our write and read: try again
    }
    const ours = pid === process.pid;
    if (
      (ours && held().has(lockPath)) ||
      (!ours && Number.isInteger(pid) && pid > 0 && isAlive(pid))
    ) {
      throw new Error(
        `the data folder is in use by ${ours ? "this process already" : `process ${pid}`} (${lockPath}); ` +
          "stop it first, or delete the lock file if no Relay Review process is running",
      );
    }
    fs.rmSync(lockPath, { force: true }); // stale: its process is gone
  }
  throw new Error(`could not take the data folder lock ${lockPath}`);
}
