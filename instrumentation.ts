/** Runs once per server start, before the first request (Node runtime only). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startRelayReview } = await import("@/lib/auth/startup");
  await startRelayReview();
}
