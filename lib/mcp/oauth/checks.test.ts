import { describe, expect, test } from "vitest";
import {
  endpointRefusal,
  isLoopbackHost,
  issuerRefusal,
  redact,
  resourceRefusal,
  selectScope,
} from "@/lib/mcp/oauth/checks";

describe("OAuth URL checks", () => {
  test.each([
    ["localhost", true],
    ["127.0.0.1", true],
    ["127.9.9.9", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["10.0.0.1", false],
    ["169.254.169.254", false],
    ["localhost.evil.example", false],
    ["example.com", false],
  ])("%s is loopback: %s", (host, expected) => expect(isLoopbackHost(host)).toBe(expected));

  test.each([
    ["https://as.example/token", null],
    ["http://127.0.0.1:8080/token", null],
    ["http://as.example/token", /plain http off loopback/],
    ["https://user:pw@as.example/token", /carries credentials/],
    ["javascript:alert(1)", /not an http\(s\) URL/],
    ["not a url", /is not a URL/],
  ])("endpoint %s", (url, expected) => {
    const r = endpointRefusal("the token endpoint", url);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toMatch(expected);
  });

  test.each([
    ["https://as.example", "https://as.example/", null],
    ["https://as.example/tenant", "https://as.example/tenant", null],
    ["https://as.example", "https://evil.example", /RFC 8414/],
    ["https://as.example/tenant1", "https://as.example/tenant2", /RFC 8414/],
    ["https://as.example", undefined, /names no issuer/],
  ])("issuer fetched for %s, named %s", (as, issuer, expected) => {
    const r = issuerRefusal(as, issuer);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toMatch(expected);
  });

  test.each([
    ["https://mcp.example/mcp", "https://mcp.example/mcp", null],
    ["https://mcp.example/mcp", "https://mcp.example/", null],
    ["https://mcp.example/mcp", "https://mcp.example", null],
    ["https://mcp.example/mcp", "https://mcp.example/other", /not this server/],
    ["https://mcp.example/mcp", "https://mcp.example/mc", /not this server/],
    ["https://mcp.example/mcp", "https://evil.example/mcp", /not this server/],
    ["https://mcp.example/mcp", "http://mcp.example/mcp", /not this server/],
  ])("server %s, resource %s", (server, resource, expected) => {
    const r = resourceRefusal(server, resource);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toMatch(expected);
  });

  test("scope selection and redaction", () => {
    expect(selectScope("a b", ["c"], "d")).toBe("a b");
    expect(selectScope(null, ["c", "e"], "d")).toBe("c e");
    expect(selectScope(undefined, [], "d")).toBe("d");
    expect(selectScope(undefined, undefined, undefined)).toBeUndefined();
    expect(redact("code=abcdef&x=1 abcdef", ["abcdef", "xy"])).toBe(
      "code=[redacted]&x=1 [redacted]",
    );
  });
});
