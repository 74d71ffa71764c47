import { describe, expect, test } from "vitest";
import {
  checkEgress,
  egressPolicyFromEnv,
  parseEgressAllow,
  type EgressPolicy,
} from "@/lib/mcp/egress";

const policy = (text?: string): EgressPolicy => {
  const r = egressPolicyFromEnv(text === undefined ? {} : { RELAY_REVIEW_EGRESS_ALLOW: text });
  if (!r.ok) throw new Error(r.message);
  return r.policy;
};
const noDns = (): Promise<string[]> => Promise.reject(new Error("no DNS in this test"));
const dns = (table: Record<string, string[]>) => (h: string) => Promise.resolve(table[h] ?? []);

describe("egress allowlist (default: nothing; loopback only by a named port)", () => {
  test.each([
    ["loopback v4", "http://127.0.0.1:3000/mcp", false, "loopback"],
    ["loopback v4 elsewhere in 127/8", "http://127.8.9.10/mcp", false, "loopback"],
    ["loopback v6", "http://[::1]:3000/mcp", false, "loopback"],
    ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/mcp", false, "loopback"],
    ["private 10/8", "http://10.42.7.5/mcp", false, "private"],
    ["private 172.16/12", "http://172.16.0.1/mcp", false, "private"],
    ["private 192.168/16", "http://192.168.1.1/mcp", false, "private"],
    ["link-local", "http://169.254.10.1/", false, "linkLocal"],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/", false, "linkLocal"],
    ["IPv4-mapped metadata", "http://[::ffff:a9fe:a9fe]/", false, "linkLocal"],
    ["CGNAT", "http://100.64.1.1/", false, "carrierGradeNat"],
    ["unique-local fc00::/7", "http://[fd12:3456::1]/", false, "uniqueLocal"],
    ["unspecified", "http://0.0.0.0:5432/", false, "unspecified"],
    ["IPv6 link-local", "http://[fe80::1]/", false, "linkLocal"],
    ["public v4", "http://8.8.8.8/", false, "unicast"],
    ["decimal-encoded loopback", "http://2130706433/", false, "loopback"],
    ["decimal-encoded metadata", "http://2852039166/", false, "linkLocal"],
  ])("%s: %s", async (_what, url, isAllowed, cls) => {
    const r = await checkEgress(url, policy(), noDns);
    expect(r.ok).toBe(isAllowed);
    if (!r.ok) expect(r.message).toContain(`(${cls})`);
  });

  test("a hostname passes only if every address it resolves to passes", async () => {
    const p = policy("127.0.0.1:80,[::1]:80");
    expect((await checkEgress("http://localhost:1/", policy(), noDns)).ok).toBe(false);
    expect(
      (await checkEgress("http://mixed.test/", p, dns({ "mixed.test": ["127.0.0.1", "10.0.0.1"] })))
        .ok,
    ).toBe(false);
    expect(
      (await checkEgress("http://loop.test/", p, dns({ "loop.test": ["127.0.0.1", "::1"] }))).ok,
    ).toBe(true);
    expect((await checkEgress("http://nowhere.test/", policy(), dns({}))).ok).toBe(false);
  });

  test("RELAY_REVIEW_EGRESS_ALLOW replaces the default with CIDRs and hostnames", async () => {
    const p = policy("10.42.7.0/24, mcp.corp.example, *.svc.example");
    expect((await checkEgress("http://10.42.7.9/", p, noDns)).ok).toBe(true);
    expect((await checkEgress("http://10.42.8.9/", p, noDns)).ok).toBe(false);
    expect((await checkEgress("http://127.0.0.1/", p, noDns)).ok).toBe(false);
    expect((await checkEgress("https://mcp.corp.example/mcp", p, noDns)).ok).toBe(true);
    expect((await checkEgress("https://a.svc.example/mcp", p, noDns)).ok).toBe(true);
    expect(parseEgressAllow("not a host!").ok).toBe(false);
    expect(parseEgressAllow("10.0.0.0/99").ok).toBe(false);
  });

  test("non-http schemes are refused", async () => {
    expect((await checkEgress("file:///etc/passwd", policy(), noDns)).ok).toBe(false);
  });
});

describe("entries with a port (issue 28, finding 16)", () => {
  // [entry, URL, admitted]
  test.each([
    ["127.0.0.1:8931", "http://127.0.0.1:8931/mcp", true],
    ["127.0.0.1:8931", "http://127.0.0.1:8932/mcp", false],
    ["127.0.0.1:8931", "http://127.0.0.1/mcp", false],
    ["127.0.0.1:80", "http://127.0.0.1/mcp", true],
    ["127.0.0.1:443", "https://127.0.0.1/mcp", true],
    ["127.0.0.0/8:8931", "http://127.4.5.6:8931/", true],
    ["127.0.0.0/8:8931", "http://127.4.5.6:5432/", false],
    ["[::1]:8931", "http://[::1]:8931/", true],
    ["[::1]:8931", "http://[::1]:8932/", false],
    ["[::1/128]:8931", "http://[::1]:8931/", true],
    ["[::ffff:127.0.0.1]:8931", "http://127.0.0.1:8931/", true],
    ["::1", "http://[::1]:5432/", false],
    ["[::1]", "http://[::1]:5432/", false],
    ["fd00::/8", "http://[fd12::1]:9000/", true],
    ["[fd00::/8]:443", "https://[fd12::1]/", true],
    ["[fd00::/8]:443", "http://[fd12::1]:80/", false],
    ["localhost:8931", "http://localhost:8931/", true],
    ["localhost:8931", "http://localhost:3000/", false],
    ["*.corp.example:443", "https://mcp.corp.example/mcp", true],
    ["*.corp.example:443", "http://mcp.corp.example:8080/mcp", false],
    ["mcp.corp.example", "http://mcp.corp.example:8080/mcp", true],
  ])("%s admits %s: %s", async (entry, url, admitted) => {
    expect((await checkEgress(url, policy(entry), noDns)).ok).toBe(admitted);
  });

  test("a name with a port is checked on its addresses with that port", async () => {
    const p = policy("127.0.0.1:8931");
    const lookup = dns({ "relay.test": ["127.0.0.1"] });
    expect((await checkEgress("http://relay.test:8931/", p, lookup)).ok).toBe(true);
    const refused = await checkEgress("http://relay.test:5432/", p, lookup);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toContain("127.0.0.1 (loopback) port 5432");
  });

  test.each(["127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:http", "[::1]:", "[::1]:x", "host:1:2"])(
    "%s is refused with the reason",
    (entry) => {
      const r = parseEgressAllow(entry);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toContain(JSON.stringify(entry));
    },
  );
});

describe("loopback is admitted only by an entry naming its port (issue 28, finding 16)", () => {
  // [RELAY_REVIEW_EGRESS_ALLOW, URL, DNS answer for the URL's name, admitted]
  test.each([
    ["", "http://127.0.0.1:8931/mcp", [], false],
    ["", "http://localhost:8931/mcp", ["127.0.0.1"], false],
    ["127.0.0.0/8", "http://127.0.0.1:8931/mcp", [], false],
    ["127.0.0.1", "http://127.0.0.1:5432/", [], false],
    ["::1/128", "http://[::1]:8931/", [], false],
    ["::/0", "http://[::1]:8931/", [], false],
    ["0.0.0.0/0", "http://127.0.0.1:5432/", [], false],
    ["0.0.0.0/0", "http://0.0.0.0:5432/", [], false],
    ["0.0.0.0/0", "http://8.8.8.8/", [], true],
    ["localhost", "http://localhost:5432/", ["127.0.0.1"], false],
    ["*.example", "http://evil.example:5432/", ["127.0.0.1"], false],
    ["*.example", "http://good.example/", ["93.184.216.34"], true],
    ["127.0.0.1:8931", "http://127.0.0.1:8931/mcp", [], true],
    ["127.0.0.0/8:8931", "http://127.0.0.2:8931/mcp", [], true],
    ["[::1]:8931", "http://[::1]:8931/", [], true],
    ["localhost:8931", "http://localhost:8931/", ["127.0.0.1"], true],
    ["127.0.0.1:8931", "http://localhost:8931/", ["127.0.0.1"], true],
    ["127.0.0.1:8931", "http://localhost:8931/", ["127.0.0.1", "::1"], false],
  ] as const)("%j admits %s (DNS %j): %s", async (entry, url, answer, admitted) => {
    const host = new URL(url).hostname;
    const r = await checkEgress(url, policy(entry), dns({ [host]: [...answer] }));
    expect(r.ok).toBe(admitted);
  });

  test("the refusal names the entry to add", async () => {
    const r = await checkEgress("http://127.0.0.1:8931/mcp", policy(), noDns);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain("RELAY_REVIEW_EGRESS_ALLOW=127.0.0.1:8931");
  });

  test("the workbench's own port and the database's are refused even when named", () => {
    const env = {
      RELAY_REVIEW_EGRESS_ALLOW: "127.0.0.1:3000,127.0.0.1:5432,127.0.0.1:8931",
      PORT: "3000",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/app",
    };
    expect(egressPolicyFromEnv(env).ok).toBe(false);
    const r = egressPolicyFromEnv(env);
    if (!r.ok) {
      expect(r.message).toContain("127.0.0.1:3000");
      expect(r.message).toContain("the workbench's own port");
    }
    const db = egressPolicyFromEnv({ ...env, RELAY_REVIEW_EGRESS_ALLOW: "127.0.0.0/8:5432" });
    expect(db.ok).toBe(false);
    if (!db.ok) expect(db.message).toContain("the database's port");
    const fine = egressPolicyFromEnv({ ...env, RELAY_REVIEW_EGRESS_ALLOW: "127.0.0.1:8931" });
    expect(fine.ok).toBe(true);
  });
});
