import { describe, expect, test } from "vitest";
import {
  MAX_EGRESS_ATTEMPTS,
  decideEgress,
  egressReport,
  egressLimits,
  logEgressAttempt,
  newEgressLog,
  parseEgressGrant,
  parseEgressGrants,
  parseProxyHead,
} from "@/lib/sandbox/egress";

const dns =
  (table: Record<string, string[]>) =>
  (h: string): Promise<string[]> =>
    table[h] ? Promise.resolve(table[h]) : Promise.reject(new Error(`ENOTFOUND ${h}`));
const noDns = () => Promise.reject(new Error("no DNS in this test"));

describe("parseEgressGrant: what launchers.json may say", () => {
  test.each([
    ["api.example.com:443", "host"],
    ["API.Example.com.:443", "host"],
    ["localhost:8080", "host"],
    ["127.0.0.1:8080", "cidr"],
    ["10.0.0.0/8:5432", "cidr"],
    ["0.0.0.0/0:443", "cidr"],
    ["[::1]:8080", "cidr"],
    ["[2001:db8::/32]:443", "cidr"],
    ["[::ffff:10.0.0.1]:80", "cidr"],
  ])("%s is a %s grant", (text, kind) => {
    const r = parseEgressGrant(text);
    expect(r.ok ? r.grant.kind : r.message).toBe(kind);
  });

  test.each([
    ["api.example.com", "is not host:port"],
    ["api.example.com:0", "no port between 1 and 65535"],
    ["api.example.com:65536", "no port between 1 and 65535"],
    ["*.example.com:443", "wildcard"],
    ["10.0.0.1/8:443", "the range is 10.0.0.0/8"],
    ["10.0.0.0/33:443", "prefix longer than /32"],
    ["example.com/24:443", "prefix length but no IP address"],
    ["2130706433:80", "not a dotted quad"],
    ["10.1:80", "not a dotted quad"],
    ["bad_host!:80", "does not name a host"],
    ["-lead.example.com:80", "does not name a host"],
    ["[fe80::1%eth0]:80", "does not name a host"],
  ])("%s is refused: %s", (text, why) => {
    const r = parseEgressGrant(text);
    expect(r.ok ? "(accepted)" : r.message).toContain(why);
    if (!r.ok) expect(r.message).toContain(JSON.stringify(text));
  });
});

const grants = parseEgressGrants([
  "api.example.com:443",
  "db.internal:5432",
  "10.0.0.0/8:5432",
  "198.51.100.7:8080",
  "127.0.0.1:9000",
  "0.0.0.0/0:8443",
  "[::1]:9001",
]);
const table = dns({
  "api.example.com": ["93.184.215.14"],
  "rebind.example.com": ["93.184.215.14", "169.254.169.254"],
  "db.internal": ["10.1.2.3"],
  "metadata.internal": ["169.254.169.254"],
  "loop.example.com": ["127.0.0.1"],
  "v6.example.com": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
});

describe("decideEgress: only the launcher's grants, checked on the address connected to", () => {
  test.each([
    // host grants: exact name and port, a public address
    ["api.example.com", 443, "93.184.215.14", "api.example.com:443"],
    ["API.EXAMPLE.COM.", 443, "93.184.215.14", "api.example.com:443"],
    // a private answer for a granted name needs the range granted too: here it is
    ["db.internal", 5432, "10.1.2.3", "db.internal:5432 and 10.0.0.0/8:5432"],
    // literals inside a granted address or range
    ["10.9.9.9", 5432, "10.9.9.9", "10.0.0.0/8:5432"],
    ["198.51.100.7", 8080, "198.51.100.7", "198.51.100.7:8080"],
    ["127.0.0.1", 9000, "127.0.0.1", "127.0.0.1:9000"],
    ["::1", 9001, "::1", "[::1]:9001"],
    ["::ffff:127.0.0.1", 9000, "127.0.0.1", "127.0.0.1:9000"],
    // 0.0.0.0/0 names no special class, so only public addresses on that port
    ["93.184.215.14", 8443, "93.184.215.14", "0.0.0.0/0:8443"],
  ])("allowed: %s:%i → %s by %s", async (host, port, address, grant) => {
    expect(await decideEgress({ host, port }, grants, table)).toEqual({ ok: true, address, grant });
  });

  test.each([
    ["api.example.com", 80, "no grant names api.example.com:80 (granted on port 443 only)"],
    ["other.example.com", 443, "no grant names other.example.com:443"],
    ["sub.api.example.com", 443, "no grant names sub.api.example.com:443"],
    ["93.184.215.14", 443, "no grant names 93.184.215.14:443"],
    ["127.0.0.1", 5432, "no grant names 127.0.0.1:5432 (loopback)"],
    ["127.0.0.1", 9001, "no grant names 127.0.0.1:9001 (loopback)"],
    ["127.0.0.1", 8443, "no grant names 127.0.0.1:8443 (loopback)"],
    ["169.254.169.254", 8443, "(linkLocal)"],
    ["10.1.2.3", 8443, "(private)"],
    ["2130706433", 9000, "the request names no valid host"],
    ["0x7f.1", 9000, "the request names no valid host"],
  ])("refused: %s:%i (%s)", async (host, port, reason) => {
    const r = await decideEgress({ host, port }, grants, noDns);
    expect(r.ok ? "(allowed)" : r.reason).toContain(reason);
  });

  test("a granted name that resolves to a special address is refused unless that address is granted on the port", async () => {
    const g = parseEgressGrants(["metadata.internal:80", "rebind.example.com:443"]);
    const meta = await decideEgress({ host: "metadata.internal", port: 80 }, g, table);
    expect(meta).toMatchObject({ ok: false, status: 403 });
    expect(meta.ok ? "" : meta.reason).toBe(
      "metadata.internal resolves to 169.254.169.254 (linkLocal), which no grant names; a non-public address needs its own grant (169.254.169.254:80 or its range)",
    );
    // One bad answer among good ones refuses the name: the connection could go either way.
    const rebind = await decideEgress({ host: "rebind.example.com", port: 443 }, g, table);
    expect(rebind.ok ? "" : rebind.reason).toContain("169.254.169.254 (linkLocal)");
    // Granting the address explicitly admits it.
    const both = parseEgressGrants(["metadata.internal:80", "169.254.169.254:80"]);
    expect(await decideEgress({ host: "metadata.internal", port: 80 }, both, table)).toEqual({
      ok: true,
      address: "169.254.169.254",
      grant: "metadata.internal:80 and 169.254.169.254:80",
    });
    // Address grants admit addresses, never names: no name outside the grants is looked up.
    const range = parseEgressGrants(["93.184.215.0/24:443", "0.0.0.0/0:443"]);
    const byRange = await decideEgress({ host: "api.example.com", port: 443 }, range, noDns);
    expect(byRange.ok ? "" : byRange.reason).toBe(
      "no grant names api.example.com:443; address grants admit addresses, not names",
    );
    // 0.0.0.0/0 names no special class: a granted name answering loopback stays refused.
    const loop = await decideEgress(
      { host: "loop.example.com", port: 443 },
      parseEgressGrants(["loop.example.com:443", "0.0.0.0/0:443"]),
      table,
    );
    expect(loop.ok ? "" : loop.reason).toContain("127.0.0.1 (loopback)");
  });

  test("a name that does not resolve, or resolves to nothing, is refused as a gateway failure", async () => {
    const g = parseEgressGrants(["gone.example.com:443", "empty.example.com:443"]);
    const lookup = (h: string) =>
      h === "empty.example.com" ? Promise.resolve([]) : Promise.reject(new Error("ENOTFOUND"));
    for (const host of ["gone.example.com", "empty.example.com"])
      expect(await decideEgress({ host, port: 443 }, g, lookup)).toMatchObject({
        ok: false,
        status: 502,
      });
  });

  test("no name is looked up unless a grant names it, whatever ranges are granted (no channel out through the workbench's resolver)", async () => {
    const looked: string[] = [];
    const counting = (h: string) => {
      looked.push(h);
      return table(h);
    };
    for (const [host, port] of [
      ["c2VjcmV0.exfil.example.net", 53],
      ["c2VjcmV0.exfil.example.net", 5432],
      ["c2VjcmV0.exfil.example.net", 8443],
      ["db.internal", 443],
    ] as const)
      expect(await decideEgress({ host, port }, grants, counting)).toMatchObject({ ok: false });
    expect(looked).toEqual([]);
    await decideEgress({ host: "db.internal", port: 5432 }, grants, counting);
    expect(looked).toEqual(["db.internal"]);
  });
});

describe("parseProxyHead", () => {
  test("CONNECT host:port", () => {
    expect(parseProxyHead("CONNECT API.example.com:443 HTTP/1.1\r\nHost: x")).toEqual({
      ok: true,
      request: {
        kind: "connect",
        host: "api.example.com",
        port: 443,
        target: "api.example.com:443",
      },
    });
    expect(parseProxyHead("CONNECT [::1]:8080 HTTP/1.1")).toMatchObject({
      ok: true,
      request: { host: "::1", port: 8080, target: "[::1]:8080" },
    });
  });

  test("an absolute http:// URI becomes an origin-form request with the URI's Host, no proxy headers, Connection: close", () => {
    const r = parseProxyHead(
      [
        "POST http://api.example.com:8080/v1/x?q=1 HTTP/1.1",
        "Host: evil.example",
        "Proxy-Authorization: Basic Zm9vOmJhcg==",
        "Proxy-Connection: keep-alive",
        "Connection: keep-alive",
        "Content-Length: 2",
        "X-Trace: a:b",
      ].join("\r\n"),
    );
    if (!r.ok || r.request.kind !== "http") throw new Error(JSON.stringify(r));
    expect(r.request).toMatchObject({ method: "POST", host: "api.example.com", port: 8080 });
    expect(r.request.upstreamHead).toBe(
      "POST /v1/x?q=1 HTTP/1.1\r\nHost: api.example.com:8080\r\nContent-Length: 2\r\nX-Trace: a:b\r\nConnection: close\r\n\r\n",
    );
    expect(parseProxyHead("GET http://example.com/ HTTP/1.0")).toMatchObject({
      ok: true,
      request: { port: 80, target: "example.com:80" },
    });
  });

  test.each([
    ["GET /relative HTTP/1.1", "absolute http:// URI"],
    ["GET https://example.com/ HTTP/1.1", "https:// goes through CONNECT"],
    ["GET http://u:p@example.com/ HTTP/1.1", "carries credentials"],
    ["CONNECT example.com HTTP/1.1", "CONNECT needs host:port"],
    ["CONNECT example.com:0 HTTP/1.1", "CONNECT needs host:port"],
    ["\u0016\u0003\u0001 TLS hello", "not an HTTP proxy request"],
    ["GET http://example.com/ HTTP/1.1\r\nBad Header", "malformed header"],
  ])("refused: %j (%s)", (head, why) => {
    const r = parseProxyHead(head);
    expect(r.ok ? "(accepted)" : r.reason).toContain(why);
    // What is kept of the server's text is printable.
    if (!r.ok) expect(r.target).toMatch(/^[\x20-\x7e]*$/);
  });
});

describe("the egress record", () => {
  test("deduplicated with counts and byte sums, bounded, refusals first", () => {
    const log = newEgressLog();
    const allowed = {
      via: "CONNECT",
      target: "api.example.com:443",
      decision: "allowed" as const,
      reason: "granted by api.example.com:443",
      address: "93.184.215.14",
      outcome: "closed",
      bytesSent: 10,
      bytesReceived: 100,
    };
    logEgressAttempt(log, allowed);
    logEgressAttempt(log, allowed);
    for (let i = 0; i < MAX_EGRESS_ATTEMPTS + 5; i++)
      logEgressAttempt(log, {
        via: "CONNECT",
        target: `h${i}.example:443`,
        decision: "refused",
        reason: "no grant",
        bytesSent: 0,
        bytesReceived: 0,
      });
    const report = egressReport(log, ["api.example.com:443"], egressLimits());
    expect(report.attempts).toHaveLength(MAX_EGRESS_ATTEMPTS);
    expect(report.droppedAttempts).toBe(6);
    expect(report.attempts[0]!.decision).toBe("refused");
    expect(report.attempts.at(-1)).toMatchObject({
      target: "api.example.com:443",
      count: 2,
      bytesSent: 20,
      bytesReceived: 200,
    });
    expect(report.proxy).toBe("http://127.0.0.1:3128");
  });
});

describe("decideEgress: the unspecified address, broadcast and multicast are never a destination (issue 28, finding 1)", () => {
  // Linux routes a connect to 0.0.0.0 or :: to the host itself: a grant of "everything public"
  // must not become "the workbench's own loopback services".
  test.each([
    ["0.0.0.0", 5432, "0.0.0.0/0:5432"],
    ["0.0.0.0", 5432, "0.0.0.0/1:5432"],
    ["0.1.2.3", 5432, "0.0.0.0/0:5432"],
    ["::ffff:0.0.0.0", 5432, "0.0.0.0/0:5432"],
    ["::", 5432, "[::/0]:5432"],
    ["::ffff:0.0.0.0", 5432, "[::/0]:5432"],
    ["::", 5432, "[::]:5432"],
    ["0.0.0.0", 5432, "0.0.0.0:5432"],
    ["255.255.255.255", 5432, "0.0.0.0/0:5432"],
    ["255.255.255.255", 5432, "255.255.255.255:5432"],
    ["224.0.0.1", 5432, "0.0.0.0/0:5432"],
    ["239.1.2.3", 5432, "224.0.0.0/4:5432"],
    ["ff02::1", 5432, "[::/0]:5432"],
    ["ff02::1", 5432, "[ff00::/8]:5432"],
    // IPv4-compatible IPv6 (deprecated, RFC 4291): ::127.0.0.1 may be tunnelled to IPv4 loopback
    ["::127.0.0.1", 5432, "[::/0]:5432"],
    // loopback and the host's own ranges still need a grant naming them, not "everything"
    ["127.0.0.1", 5432, "0.0.0.0/0:5432"],
    ["127.0.0.1", 5432, "0.0.0.0/1:5432"],
    ["::1", 5432, "[::/0]:5432"],
  ])("refused: %s:%i under %s", async (host, port, grant) => {
    const r = await decideEgress({ host, port }, parseEgressGrants([grant]), noDns);
    expect(r).toMatchObject({ ok: false, status: 403 });
  });

  test.each([
    ["0.0.0.0", "the unspecified address"],
    ["::", "the unspecified address"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
  ])("the reason names why %s is never admitted", async (host, why) => {
    const r = await decideEgress(
      { host, port: 5432 },
      parseEgressGrants(["0.0.0.0/0:5432", "[::/0]:5432"]),
      noDns,
    );
    expect(r.ok ? "" : r.reason).toContain(why);
  });

  test("a granted name that resolves to the unspecified address is refused whatever ranges are granted", async () => {
    const g = parseEgressGrants(["zero.example.com:5432", "0.0.0.0/0:5432", "[::/0]:5432"]);
    for (const answer of ["0.0.0.0", "::", "::ffff:0.0.0.0", "224.0.0.1"]) {
      const r = await decideEgress({ host: "zero.example.com", port: 5432 }, g, () =>
        Promise.resolve([answer]),
      );
      expect(r).toMatchObject({ ok: false, status: 403 });
    }
  });

  test("explicit loopback grants still admit loopback, and public addresses stay admitted under 0.0.0.0/0", async () => {
    expect(
      await decideEgress(
        { host: "127.0.0.1", port: 9000 },
        parseEgressGrants(["127.0.0.1:9000"]),
        noDns,
      ),
    ).toMatchObject({ ok: true, address: "127.0.0.1" });
    expect(
      await decideEgress(
        { host: "93.184.215.14", port: 443 },
        parseEgressGrants(["0.0.0.0/0:443"]),
        noDns,
      ),
    ).toMatchObject({ ok: true, address: "93.184.215.14" });
    expect(
      await decideEgress(
        { host: "2606:2800:220:1::1", port: 443 },
        parseEgressGrants(["[::/0]:443"]),
        noDns,
      ),
    ).toMatchObject({ ok: true });
  });
});
