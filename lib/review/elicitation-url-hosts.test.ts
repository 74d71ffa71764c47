import { describe, expect, test } from "vitest";
import { parseElicitationUrlHostsText } from "@/lib/review/elicitation-url-hosts";
import { createDemoReview } from "@/lib/review/demo";
import { RelayServerSchema, ReviewSchema } from "@/lib/review/schema";

const server = (elicitationUrlHosts?: unknown) =>
  RelayServerSchema.safeParse({
    id: "srv-a",
    name: "a",
    transport: { kind: "manual" },
    ...(elicitationUrlHosts === undefined ? {} : { elicitationUrlHosts }),
  });

describe("a server's URL-elicitation hosts", () => {
  test("default to none, so documents written before the field still load", () => {
    const parsed = server();
    expect(parsed.success && parsed.data.elicitationUrlHosts).toEqual([]);
    const review = createDemoReview();
    const old = JSON.parse(JSON.stringify(review)) as { servers: Record<string, unknown>[] };
    for (const s of old.servers) delete s.elicitationUrlHosts;
    const loaded = ReviewSchema.parse(old);
    expect(loaded.servers.map((s) => s.elicitationUrlHosts)).toEqual(old.servers.map(() => []));
  });

  test("accept exact lower-case DNS host names", () => {
    const parsed = server(["login.example.com", "xn--bcher-kva.example", "localhost"]);
    expect(parsed.success).toBe(true);
  });

  test.each([
    ["*.example.com", "wildcards"],
    ["Login.example.com", "lower-case"],
    ["https://login.example.com", "host name only"],
    ["login.example.com:443", "host name only"],
    ["login.example.com.", "end with a dot"],
    ["10.0.0.1", "IP address"],
    ["[::1]", "host name only"],
    ["-bad.example.com", "not a DNS host name"],
    ["a..example.com", "not a DNS host name"],
    [`${"a".repeat(64)}.example.com`, "not a DNS host name"],
    ["", "must not be empty"],
  ])("refuse %j, naming it (%s)", (host, why) => {
    const parsed = server([host]);
    expect(parsed.success).toBe(false);
    const message = parsed.error!.issues[0]!.message;
    expect(message).toContain(why);
    if (host) expect(message).toContain(JSON.stringify(host));
  });

  test("at most 50, each once", () => {
    const hosts = Array.from({ length: 51 }, (_, i) => `h${i}.example.com`);
    expect(server(hosts.slice(0, 50)).success).toBe(true);
    expect(server(hosts).success).toBe(false);
    const twice = server(["a.example.com", "a.example.com"]);
    expect(twice.error?.issues[0]?.message).toBe('"a.example.com" is listed twice');
  });
});

describe("the form's hosts field", () => {
  test("reads comma- and line-separated entries, lower-cased, each once", () => {
    expect(
      parseElicitationUrlHostsText(" Login.Example.com,\npay.example.com\n\n, login.example.com "),
    ).toEqual({ hosts: ["login.example.com", "pay.example.com"], error: null });
    expect(parseElicitationUrlHostsText("  ")).toEqual({ hosts: [], error: null });
  });

  test("names the first bad entry", () => {
    const read = parseElicitationUrlHostsText("login.example.com, *.evil.example, 10.0.0.1");
    expect(read.hosts).toBeNull();
    expect(read.error).toContain('"*.evil.example"');
  });

  test("refuses more than 50 hosts", () => {
    const text = Array.from({ length: 51 }, (_, i) => `h${i}.example.com`).join("\n");
    expect(parseElicitationUrlHostsText(text).error).toBe(
      "51 hosts listed; at most 50 are allowed",
    );
  });
});
