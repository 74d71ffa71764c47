import "server-only";
/**
 * Where the CLI's OAuth flow may connect. The operator typed the MCP server's URL, but every other
 * URL of the flow (resource metadata, authorization server, token endpoint) comes from that
 * server, and a token request carries the client's secret: a server naming 169.254.169.254 or a
 * host on the CI runner's private network must not get it. With RELAY_REVIEW_EGRESS_ALLOW set, the
 * workbench's allowlist applies (lib/mcp/egress.ts); without it, public addresses, loopback, and
 * the MCP server's own host. Checked before each request and again when the socket connects (the
 * address connected to is one that was checked; see egress-fetch.ts for why).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import ipaddr from "ipaddr.js";
import { Agent, fetch as undiciFetch } from "undici";
import { addressClass, egressPolicyFromEnv } from "@/lib/mcp/egress";
import { pinnedEgressFetch } from "@/lib/mcp/node/egress-fetch";
import { dnsLookupAll, egressGuard, type Env } from "@/lib/mcp/node/resolve-target";
import type { EgressGuard } from "@/lib/mcp/types";

const PUBLIC_CLASSES = new Set(["unicast", "loopback"]);

export type CliOAuthEgress =
  | { ok: true; egress: EgressGuard; fetch: FetchLike; rule: string }
  | { ok: false; message: string };

function refusedAddresses(host: string, addresses: readonly string[]): string | null {
  const refused = addresses.filter((a) => !PUBLIC_CLASSES.has(addressClass(a)));
  if (addresses.length === 0) return `${host} resolved to no address`;
  return refused.length
    ? `egress refused: ${host} resolves to ${refused.map((a) => `${a} (${addressClass(a)})`).join(", ")}, not a public address; the OAuth flow reaches public addresses, loopback and the MCP server's own host unless RELAY_REVIEW_EGRESS_ALLOW says otherwise`
    : null;
}

export function cliOAuthEgress(serverUrl: string, env: Env = process.env): CliOAuthEgress {
  if (env.RELAY_REVIEW_EGRESS_ALLOW?.trim()) {
    const policy = egressPolicyFromEnv(env);
    if (!policy.ok) return { ok: false, message: policy.message };
    return {
      ok: true,
      egress: egressGuard(policy.policy),
      fetch: pinnedEgressFetch(policy.policy),
      rule: "RELAY_REVIEW_EGRESS_ALLOW",
    };
  }
  const serverHost = new URL(serverUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const isServerHost = (host: string) => host.replace(/^\[|\]$/g, "").toLowerCase() === serverHost;
  const egress: EgressGuard = async (url) => {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isServerHost(host)) return null;
    let addresses: string[];
    try {
      addresses = ipaddr.isValid(host) ? [host] : await dnsLookupAll(host);
    } catch (error) {
      return `could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`;
    }
    return refusedAddresses(host, addresses);
  };
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refusal = isServerHost(hostname)
        ? null
        : refusedAddresses(
            hostname,
            addresses.map((a) => a.address),
          );
      if (refusal) {
        const e: NodeJS.ErrnoException = new Error(`${refusal} (when connecting)`);
        e.code = "EEGRESSREFUSED";
        return callback(e, "", 0);
      }
      if (options.all)
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses); // safe: Node asked for all
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const dispatcher = new Agent({ connect: { lookup } });
  return {
    ok: true,
    egress,
    fetch: (url, init) =>
      undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher,
      }) as unknown as Promise<Response>, // safe: the same WHATWG Response the SDK reads
    rule: "public addresses, loopback and the server's host",
  };
}
