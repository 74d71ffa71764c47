import "server-only";
/**
 * What a server start does before it answers anything (called from instrumentation.ts):
 * resolve (or generate) the owner token, open and migrate the store, seed the demo review on the
 * very first start, register the session-epoch reader and the owner-token use logger the proxy
 * uses, and say where to sign in.
 * The token itself is printed once, on the start that generated it (in the URL fragment, so it is
 * never sent in a request line or written to an access log); later starts name where it is kept.
 */
import { getAuthConfig, type OwnerToken } from "@/lib/auth/owner-token";
import { registerOwnerTokenUseLogger } from "@/lib/auth/owner-token-use";
import { registerSessionStandingReader } from "@/lib/auth/session-epoch";
import { sessionStanding } from "@/lib/auth/session-epoch-store";
import { withPerson } from "@/lib/auth/people-store";
import { describeStoreTarget } from "@/lib/store/config";
import { getDb, getStore } from "@/lib/store/db";
import { ensureFirstStart } from "@/lib/store/first-start";
import { getSecretKey } from "@/lib/secrets/key";
import { checkStoredKey } from "@/lib/store/secrets";
import { logOwnerTokenUse } from "@/lib/store/events";

export function signInUrl(
  host: string | undefined,
  port: string | undefined,
  token: string,
): string {
  let h = host?.trim() || "127.0.0.1";
  if (h === "0.0.0.0" || h === "::") h = "127.0.0.1";
  if (h.includes(":") && !h.startsWith("[")) h = `[${h}]`;
  return `http://${h}:${port?.trim() || "3000"}/sign-in#token=${encodeURIComponent(token)}`;
}

/** What a start prints about signing in: the link with the token only when this start generated it. */
export function signInLines(
  host: string | undefined,
  port: string | undefined,
  owner: OwnerToken,
): string[] {
  if (owner.source === "generated") {
    return [
      `relay-review: generated an owner token in ${owner.file}`,
      `relay-review: sign in at ${signInUrl(host, port, owner.token)}`,
    ];
  }
  const where = owner.source === "env" ? "RELAY_REVIEW_TOKEN" : `the token in ${owner.file}`;
  return [
    `relay-review: sign in at ${signInUrl(host, port, "").replace(/#token=$/, "")} with ${where}`,
  ];
}

export async function startRelayReview(
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const auth = getAuthConfig();
  const store = await getStore();
  // Stored secrets or OAuth tokens the key cannot open would fail every inspection that needs them: stop here, saying why.
  const keyCheck = await checkStoredKey(store.db, getSecretKey());
  if (!keyCheck.ok) {
    console.error(`relay-review: cannot start: ${keyCheck.message}`);
    process.exit(1);
  }
  const first = await ensureFirstStart(store.db);
  console.log(`relay-review: store: ${describeStoreTarget(store.target)}`);
  if (first.firstStart && first.demoReviewId)
    console.log(`relay-review: first start: created the demo review ${first.demoReviewId}`);
  registerSessionStandingReader(async (sessionId) => {
    const db = await getDb();
    return withPerson(db, sessionId, await sessionStanding(db, sessionId));
  });
  registerOwnerTokenUseLogger(async (use) => logOwnerTokenUse(await getDb(), use));
  for (const line of signInLines(env.HOST, env.PORT, auth.owner)) console.log(line);
}
