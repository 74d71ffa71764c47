import "server-only";
/**
 * The CLI's redirect URI (RFC 8252 §7.3): a one-purpose HTTP listener on 127.0.0.1 that receives
 * the authorization server's redirect. It never opens a browser: `redirect()` hands the URL to
 * `onAuthorizationUrl` (the CLI prints it). A callback is accepted only for a state this listener
 * made and only once; anything else gets a 400 and is ignored. The page it answers with says
 * nothing but whether to go back to the terminal; the code never leaves this process.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthorizationRedirect } from "@/lib/mcp/oauth/interface";

/** Bound on a callback request line (the code and state are short; a huge one is not ours). */
const MAX_CALLBACK_URL = 8 * 1024;
export const CALLBACK_PATH = "/callback";

export type LoopbackCallback = {
  code: string | null;
  state: string;
  iss: string | null;
  error: string | null;
  errorDescription: string | null;
};

export type LoopbackRedirect = AuthorizationRedirect & {
  /** Resolves with the callback for `state`, or rejects after `timeoutMs` or on `signal`. */
  waitForCallback(
    state: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<LoopbackCallback>;
  close(): Promise<void>;
};

/** Listen on 127.0.0.1:`port` (0 picks one) for the redirect. */
export async function startLoopbackRedirect(options: {
  port?: number;
  onAuthorizationUrl: (url: URL) => void;
}): Promise<LoopbackRedirect> {
  const states = new Set<string>();
  const arrived = new Map<string, LoopbackCallback>();
  const waiters = new Map<string, (cb: LoopbackCallback) => void>();
  const server: Server = createServer((req, res) => {
    const reply = (status: number, text: string) =>
      res
        .writeHead(status, {
          "content-type": "text/plain; charset=utf-8",
          "cache-control": "no-store",
          "referrer-policy": "no-referrer",
        })
        .end(text);
    if (req.method !== "GET" || (req.url ?? "").length > MAX_CALLBACK_URL)
      return reply(400, "Not an authorization callback.\n");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== CALLBACK_PATH) return reply(404, "Not found.\n");
    const state = url.searchParams.get("state") ?? "";
    if (!states.has(state))
      return reply(400, "Unknown or already used authorization state; nothing was done.\n");
    states.delete(state);
    const cb: LoopbackCallback = {
      code: url.searchParams.get("code"),
      state,
      iss: url.searchParams.get("iss"),
      error: url.searchParams.get("error"),
      errorDescription: url.searchParams.get("error_description"),
    };
    const waiter = waiters.get(state);
    if (waiter) waiter(cb);
    else arrived.set(state, cb);
    reply(
      200,
      cb.error
        ? "The authorization server reported an error; see the terminal.\n"
        : "Authorization received. You can close this tab and return to the terminal.\n",
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    newState: () => {
      const state = randomBytes(32).toString("base64url");
      states.add(state);
      return Promise.resolve(state);
    },
    redirect: (url) => {
      options.onAuthorizationUrl(url);
      return Promise.resolve();
    },
    waitForCallback: (state, timeoutMs, signal) =>
      new Promise<LoopbackCallback>((resolve, reject) => {
        const early = arrived.get(state);
        if (early) {
          arrived.delete(state);
          return resolve(early);
        }
        const done = () => {
          clearTimeout(timer);
          waiters.delete(state);
          signal?.removeEventListener("abort", onAbort);
        };
        const onAbort = () => {
          done();
          reject(new Error("cancelled while waiting for the authorization"));
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no authorization arrived within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        signal?.addEventListener("abort", onAbort, { once: true });
        waiters.set(state, (cb) => {
          done();
          resolve(cb);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
