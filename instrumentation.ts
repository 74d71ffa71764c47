/**
 * Runs once per server start, before the first request. The work sits inside the runtime test, not
 * after an early return: Next replaces NEXT_RUNTIME when it compiles this file for each runtime, so
 * the Edge build drops the branch whole and does not warn about the Node APIs in it (process.exit).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startRelayReview } = await import("@/lib/auth/startup");
    try {
      await startRelayReview();
      // The drift-watch schedule (docs/drift-watch.md); reports its own failure without stopping the app.
      const { startAppSchedule } = await import("@/lib/watch/node/start");
      await startAppSchedule();
    } catch (error) {
      // A start that cannot resolve its owner token or open its store must not go on answering every request with 500.
      console.error(
        `relay-review: cannot start: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exit(1);
    }
  }
}
