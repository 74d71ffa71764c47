/**
 * Child process for the queue test: what an app instance does at start (instrumentation.ts: startRelayReview, then
 * startAppSchedule, before Next answers anything), without the web server: open and migrate the store, seed, and start the drift-watch schedule. The parent
 * ends it with SIGTERM or SIGKILL.
 *
 * Run with `node --conditions=react-server --import tsx`, so `server-only` resolves to its no-op.
 */
import { startRelayReview } from "@/lib/auth/startup";
import { startAppSchedule } from "@/lib/watch/node/start";

await startRelayReview();
await startAppSchedule();
process.on("SIGTERM", () => process.exit(0));
