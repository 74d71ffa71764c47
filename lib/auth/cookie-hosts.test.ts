import { describe, expect, test } from "vitest";
import { allowedHostsFor } from "@/lib/auth/check";
import { cookieHostRefusal, sessionCookieHosts } from "@/lib/auth/cookie-hosts";

const hosts = sessionCookieHosts(
  allowedHostsFor("3000", "relay.corp.example:443"),
  "http://127.0.0.1:3000",
);
const refusal = (url: string) =>
  cookieHostRefusal(new URL(url), hosts, "the authorization server's address");

describe("the browser is never sent to a host that holds the session cookie", () => {
  test.each([
    "http://127.0.0.1:4444/authorize",
    "http://127.0.0.1:3000/authorize",
    "https://127.0.0.1/authorize",
    "http://localhost:4444/authorize",
    "http://LOCALHOST.:4444/authorize",
    "http://[::1]:4444/authorize",
    "http://2130706433:4444/authorize", // 127.0.0.1 written as one number
    "http://0x7f.0.0.1:4444/authorize",
    "https://relay.corp.example:8443/authorize",
  ])("%s is refused, naming the host", (url) => {
    const why = refusal(url);
    expect(why).toContain(new URL(url).hostname);
    expect(why).toContain("127.0.0.2");
  });

  test.each([
    "http://127.0.0.2:4444/authorize",
    "http://[::2]:4444/authorize",
    "https://auth.corp.example/authorize",
    "https://corp.example/authorize",
  ])("%s may be visited", (url) => {
    expect(refusal(url)).toBeNull();
  });

  test("the host of the request at hand counts even when it is not in the allowed list", () => {
    const own = sessionCookieHosts([], "http://workbench.test:3000");
    expect(cookieHostRefusal(new URL("http://workbench.test:1/"), own, "x")).not.toBeNull();
  });
});
