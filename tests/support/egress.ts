/**
 * The `RELAY_REVIEW_EGRESS_ALLOW` value an operator would set to reach these loopback servers:
 * one `host:port` entry per URL (loopback is admitted only by an entry naming its port).
 */
export function egressAllowFor(...urls: string[]): string {
  return [
    ...new Set(
      urls.map((u) => {
        const url = new URL(u);
        const port = url.port || (url.protocol === "https:" ? "443" : "80");
        return `${url.hostname}:${port}`;
      }),
    ),
  ].join(",");
}
