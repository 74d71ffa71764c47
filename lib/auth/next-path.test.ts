import { describe, expect, test } from "vitest";
import { safeNextPath } from "@/lib/auth/next-path";

describe("safeNextPath: only a same-origin path, else /", () => {
  test.each([
    [null, "/"],
    [undefined, "/"],
    ["", "/"],
    ["/", "/"],
    ["/reviews/x?y=1", "/reviews/x?y=1"],
    ["/reviews/x?section=decision#top", "/reviews/x?section=decision#top"],
    ["/reviews/%2F%2Fevil.example", "/reviews/%2F%2Fevil.example"],
    // Off-site, as the browser reads them.
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["\\/evil.example", "/"],
    ["/\t/evil.example", "/"], // what ?next=/%09/evil.example decodes to
    ["/\n/evil.example", "/"],
    ["/\r/evil.example", "/"],
    ["/ /evil.example", "/"],
    ["/\u00a0/evil.example", "/"],
    ["/\u2028/evil.example", "/"],
    ["/\u200b/evil.example", "/"],
    ["/\u0000/evil.example", "/"],
    ["https://evil.example", "/"],
    ["http:evil.example", "/"],
    ["javascript:alert(1)", "/"],
    [" javascript:alert(1)", "/"],
    ["/javascript:alert(1)", "/javascript:alert(1)"], // a path on this origin, not a scheme
    ["data:text/html,x", "/"],
    ["evil.example", "/"],
    ["reviews/x", "/"],
  ])("safeNextPath(%j) = %j", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });

  test("the query value of a sign-in link decodes to a refused path", () => {
    for (const link of [
      "/sign-in?next=/%09/evil.example",
      "/sign-in?next=%2F%2Fevil.example",
      "/sign-in?next=/%5Cevil.example",
      "/sign-in?next=/%0A/evil.example",
    ]) {
      const next = new URL(link, "http://127.0.0.1:3000").searchParams.get("next");
      expect(safeNextPath(next), link).toBe("/");
    }
  });
});
