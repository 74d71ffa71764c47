/**
 * The fetch every request of the OAuth flow goes through (metadata, registration, token), wrapped
 * around the workbench's egress-pinned fetch: each URL must be https (or loopback http) and pass
 * the egress guard before it is sent; each request has a time limit and a body limit; same-origin
 * redirects are followed a bounded number of times, each hop checked again, and a cross-origin one
 * is never followed (it is returned unfollowed, and the SDK reports it). A refusal is an
 * `OAuthStepError` naming the step, also handed to `onRefusal`: the SDK swallows some discovery
 * failures (a missing resource metadata falls back to the legacy flow), and a refusal must not.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { endpointRefusal, safeUrl } from "@/lib/mcp/oauth/checks";
import { OAuthStepError, type OAuthFetchLimits, type OAuthStep } from "@/lib/mcp/oauth/interface";
import type { EgressGuard } from "@/lib/mcp/types";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

const STEP_TARGET: Record<OAuthStep, string> = {
  challenge: "the challenge's URL",
  resource_metadata: "the protected resource metadata URL",
  authorization_server_metadata: "the authorization server metadata URL",
  client_registration: "the registration endpoint",
  authorization_request: "the authorization endpoint",
  authorization_response: "the redirect URI",
  token_request: "the token endpoint",
  token_refresh: "the token endpoint",
  client_credentials: "the token endpoint",
  token_revocation: "the revocation endpoint",
};

export type AuthFetchOptions = {
  base: FetchLike;
  egress: EgressGuard | null;
  limits: OAuthFetchLimits;
  /** Which step a request belongs to. */
  classify: (url: URL, init: RequestInit | undefined) => OAuthStep;
  /** Called before a request is sent (after its checks). */
  onRequest?: (step: OAuthStep, url: URL, init: RequestInit | undefined) => void;
  /** Called with every refusal before it is thrown. */
  onRefusal: (error: OAuthStepError) => void;
};

/** Node's fetch wraps a refused connection as `TypeError: fetch failed` with the reason as its cause. */
function egressCause(error: unknown): string | null {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  return cause?.code === "EEGRESSREFUSED" && typeof cause.message === "string"
    ? cause.message
    : null;
}

export function createAuthFetch(options: AuthFetchOptions): FetchLike {
  const { limits } = options;
  return async (input, init) => {
    const url = new URL(String(input));
    const step = options.classify(url, init);
    const refuse = (reason: string): never => {
      const error = new OAuthStepError(step, reason);
      options.onRefusal(error);
      throw error;
    };
    const check = async (u: URL) => {
      const bad = endpointRefusal(STEP_TARGET[step], u.href);
      if (bad) refuse(bad);
      const egress = options.egress ? await options.egress(u) : null;
      if (egress) refuse(egress);
    };
    await check(url);
    options.onRequest?.(step, url, init);
    const timeout = AbortSignal.timeout(limits.requestTimeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const method = (init?.method ?? "GET").toUpperCase();
    let current = url;
    let res: Response;
    for (let hop = 0; ; hop++) {
      try {
        res = await options.base(current, { ...init, redirect: "manual", signal });
      } catch (error) {
        const refused = egressCause(error);
        if (refused) refuse(refused);
        if (timeout.aborted)
          refuse(`${safeUrl(current)} gave no answer within ${limits.requestTimeoutMs} ms`);
        throw error; // a network failure: the SDK tries the next discovery URL on a TypeError
      }
      if (!REDIRECT_STATUSES.has(res.status)) break;
      const location = res.headers.get("location");
      let target: URL | null = null;
      try {
        target = location ? new URL(location, current) : null;
      } catch {
        target = null;
      }
      const keepsMethod = res.status === 307 || res.status === 308 || method === "GET";
      // Returned unfollowed: the SDK names the redirect in its error.
      if (!target || target.origin !== current.origin || !keepsMethod) return res;
      await res.body?.cancel().catch(() => {});
      if (hop + 1 > limits.maxRedirects)
        refuse(`${safeUrl(url)} redirected more than ${limits.maxRedirects} times`);
      await check(target);
      current = target;
    }
    const length = Number(res.headers.get("content-length") ?? NaN);
    if (Number.isFinite(length) && length > limits.maxResponseBytes) {
      await res.body?.cancel().catch(() => {});
      refuse(
        `${safeUrl(current)} announced a ${length}-byte answer; the limit is ${limits.maxResponseBytes} bytes`,
      );
    }
    if (!res.body || NULL_BODY_STATUS.has(res.status)) return res;
    let received = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limits.maxResponseBytes) {
          const error = new OAuthStepError(
            step,
            `${safeUrl(current)} sent more than ${limits.maxResponseBytes} bytes`,
          );
          options.onRefusal(error);
          controller.error(error);
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(counter), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
