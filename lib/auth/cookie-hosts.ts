/**
 * The hosts that hold the owner's session cookie, and the rule that keeps the browser away from
 * every other server on them. Browsers scope a host-only cookie by host name alone, not by port
 * (RFC 6265 §8.5), and SameSite compares sites, which have no port: a page served on
 * 127.0.0.1:P receives the cookie the workbench set on 127.0.0.1:3000, on its navigation and on
 * every request it then makes to itself. So the workbench never sends the browser (Connect's
 * authorization endpoint, any redirect it issues) to a host it answers for, on any port: such a
 * URL is either the workbench itself or another server that would receive the cookie. Pure.
 */

/** The host name of `authority` (`host`, `host:port`, `[v6]:port`), lower case, without a trailing dot. */
function hostNameOf(authority: string): string | null {
  try {
    return canonicalHostName(new URL(`http://${authority}`).hostname);
  } catch {
    return null;
  }
}

const canonicalHostName = (hostname: string) => hostname.toLowerCase().replace(/\.$/, "");

/**
 * Every host name the browser may hold a workbench session cookie for: the host of the request
 * at hand (`origin`) and each host the workbench answers for (lib/auth/check.ts's allowed hosts),
 * whatever their ports. The owner may have signed in on any of them.
 */
export function sessionCookieHosts(
  allowedHosts: readonly string[],
  origin: string | null,
): ReadonlySet<string> {
  const hosts = new Set<string>();
  for (const entry of allowedHosts) {
    const name = hostNameOf(entry);
    if (name) hosts.add(name);
  }
  if (origin !== null) {
    try {
      hosts.add(canonicalHostName(new URL(origin).hostname));
    } catch {
      /* no origin to add */
    }
  }
  return hosts;
}

/**
 * Why the browser must not be sent to `url`, naming its host, or null when it may go there.
 * `what` names the address in the sentence ("the authorization server's address").
 */
export function cookieHostRefusal(
  url: URL,
  cookieHosts: ReadonlySet<string>,
  what: string,
): string | null {
  const host = canonicalHostName(url.hostname);
  if (!cookieHosts.has(host)) return null;
  return (
    `${what} ${url.origin} is on ${url.hostname}, a host name of this workbench: the browser would send ` +
    `it the workbench's session cookie (browsers scope cookies by host, not by port), so the ` +
    `workbench does not send your browser there. Serve it under a host name the workbench does not ` +
    `answer for (another loopback address such as 127.0.0.2, or a host of its own).`
  );
}
