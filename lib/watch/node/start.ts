import "server-only";
/**
 * The drift-watch schedule in an app process (instrumentation.ts calls this after
 * startRelayReview), unless RELAY_REVIEW_WATCH=off. A schedule that cannot start is reported, not
 * fatal: reviews still work. Here rather than in lib/auth/startup.ts, so the start-up module does
 * not depend on the inspection code the schedule runs.
 */
import { getStore } from "@/lib/store/db";
import { ensureWatch } from "@/lib/watch/node/runtime";

export async function startAppSchedule(
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  if (env.RELAY_REVIEW_WATCH?.trim() === "off") {
    console.log("relay-review: scheduled re-inspection is off (RELAY_REVIEW_WATCH=off)");
    return;
  }
  try {
    await ensureWatch(await getStore(), { role: "app", env });
  } catch (error) {
    console.error(
      `relay-review: scheduled re-inspection did not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
