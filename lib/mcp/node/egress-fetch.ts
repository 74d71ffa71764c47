import "server-only";
/**
 * The fetch every workbench request to an HTTP MCP server goes through. The egress guard checks a
 * URL before each request (and gives the readable refusal), but the connection resolves the name
 * again: a name that answers an allowed address to the check and 169.254.169.254 to the connection
 * (DNS rebinding) would slip through. Here the check is also made in the socket's own lookup, so
 * the address connected to is an address that was checked, on the port connected to (a redirect
 * to another port of an allowed host is refused here too).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import {
  addressClass,
  isAddressAllowed,
  isResolvedAllowed,
  type EgressPolicy,
} from "@/lib/mcp/egress";

export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A socket lookup for a connection to `port` that resolves every address of a name and refuses the connection unless all are allowed. */
export function checkedLookup(
  policy: EgressPolicy,
  port: number,
  resolveAll: ResolveAll = dnsLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const refused = addresses.filter(
        (a) => !isResolvedAllowed(hostname, a.address, policy, port),
      );
      if (refused.length > 0 || addresses.length === 0) {
        const what =
          addresses.length === 0
            ? "no address"
            : refused
                .map((a) => `${a.address} (${addressClass(a.address)}) port ${port}`)
                .join(", ");
        const refusal: NodeJS.ErrnoException = new Error(
          `egress refused when connecting: ${hostname} now resolves to ${what}, outside the workbench's egress allowlist`,
        );
        refusal.code = "EEGRESSREFUSED";
        return callback(refusal, "", 0);
      }
      if (options.all)
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses); // safe: Node asked for all
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** A fetch whose connections only reach addresses `policy` allows, checked at connect time. */
export function pinnedEgressFetch(policy: EgressPolicy, resolveAll?: ResolveAll): FetchLike {
  // One connector per connection: its lookup checks the port this very connection goes to.
  const dispatcher = new Agent({
    connect: (options, callback) => {
      const port = options.port ? Number(options.port) : options.protocol === "https:" ? 443 : 80;
      // An address literal never reaches the lookup (a socket connects to it as it is): checked here.
      const literal = options.hostname.replace(/^\[|\]$/g, "");
      if (isIP(literal) !== 0 && !isAddressAllowed(literal, policy, port)) {
        const refusal: NodeJS.ErrnoException = new Error(
          `egress refused when connecting: ${literal} (${addressClass(literal)}) port ${port} is outside the workbench's egress allowlist`,
        );
        refusal.code = "EEGRESSREFUSED";
        return callback(refusal, null);
      }
      buildConnector({ lookup: checkedLookup(policy, port, resolveAll) })(options, callback);
    },
  });
  // undici's own fetch with its own Agent: one library version on both sides of `dispatcher`.
  return (url, init) =>
    undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    }) as unknown as Promise<Response>; // safe: the same WHATWG Response the SDK reads
}
