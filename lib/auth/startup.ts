import "server-only";
/**
 * What a server start does before it answers anything (called from instrumentation.ts):
 * resolve (or generate) the owner token, open and migrate the store, seed the demo review on the
 * very first start, and print the sign-in link. The token travels in the URL fragment so it is
 * never sent in a request line or written to an access log.
 */
import { getAuthConfig } from "@/lib/auth/owner-token";
import { describeStoreTarget } from "@/lib/store/config";
import { getStore } from "@/lib/store/db";
import { ensureFirstStart } from "@/lib/store/first-start";
import { getSecretKey } from "@/lib/secrets/key";
import { checkStoredSecrets } from "@/lib/store/secrets";

export function signInUrl(host: string | undefined, port: string | undefined, token: string): string {
  let h = host?.trim() || "127.0.0.1";
  if (h === "0.0.0.0" || h === "::") h = "127.0.0.1";
  if (h.includes(":") && !h.startsWith("[")) h = `[${h}]`;
  return `http://${h}:${port?.trim() || "3000"}/sign-in#token=${encodeURIComponent(token)}`;
}

export async function startRelayReview(env: Record<string, string | undefined> = process.env): Promise<void> {
  const auth = getAuthConfig();
  const store = await getStore();
  // Stored secrets the key cannot open would fail every inspection that needs them: stop here, saying why.
  const keyCheck = await checkStoredSecrets(store.db, getSecretKey());
  if (!keyCheck.ok) {
    console.error(`relay-review: cannot start: ${keyCheck.message}`);
    process.exit(1);
  }
  const first = await ensureFirstStart(store.db);
  console.log(`relay-review: store: ${describeStoreTarget(store.target)}`);
  if (first.firstStart && first.demoReviewId) console.log(`relay-review: first start: created the demo review ${first.demoReviewId}`);
  if (auth.owner.source === "generated") console.log(`relay-review: generated an owner token in ${auth.owner.file}`);
  console.log(`relay-review: sign in at ${signInUrl(env.HOST, env.PORT, auth.ownerToken)}`);
}
