/**
 * `npm run worker`: a process that only runs the drift-watch schedule (no web server), for a
 * PostgreSQL deployment that wants inspections off the app instances. It joins the same pg-boss
 * queue as every app instance, so any number of workers and instances share one schedule. The
 * embedded store has one process by design (the app runs the schedule itself), so this refuses
 * to start without DATABASE_URL. SIGTERM or SIGINT lets the running job finish, then exits.
 *
 * Run with `node --conditions=react-server --import tsx`, so `server-only` resolves to its no-op.
 */
import { closeStore, getStore } from "@/lib/store/db";
import { describeStoreTarget, resolveStoreTarget } from "@/lib/store/config";
import { getSecretKey } from "@/lib/secrets/key";
import { checkStoredKey } from "@/lib/store/secrets";
import { ensureWatch } from "@/lib/watch/node/runtime";

if (resolveStoreTarget().kind !== "postgres") {
  console.error(
    "relay-review worker: needs DATABASE_URL (PostgreSQL). With the embedded store the app process runs the schedule itself.",
  );
  process.exit(2);
}
const store = await getStore();
const keyCheck = await checkStoredKey(store.db, getSecretKey());
if (!keyCheck.ok) {
  console.error(`relay-review worker: cannot start: ${keyCheck.message}`);
  process.exit(1);
}
console.log(`relay-review worker: store: ${describeStoreTarget(store.target)}`);
const watch = await ensureWatch(store, { role: "worker" });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void (async () => {
    await watch.stop();
    await closeStore();
    process.exit(0);
  })(); // the process ends here; nothing awaits it
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
