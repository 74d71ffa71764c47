import { describe, expect, test } from "vitest";
import { htmlPageResponse } from "@/lib/http/html-page";

describe("htmlPageResponse", () => {
  test("escapes what an authorization server wrote, and is neither cached nor a referrer", async () => {
    const res = htmlPageResponse({
      status: 400,
      title: "Connection failed",
      paragraphs: [`<script>alert("x")</script> & 'quoted'`],
      link: { href: "/reviews/r?a=1&b=<2>", label: "Back" },
    });
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).not.toContain("<script>");
    expect(html).toContain(
      "&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;quoted&#39;",
    );
    expect(html).toContain('href="/reviews/r?a=1&#38;b=&#60;2&#62;"');
    expect(html).not.toContain("http-equiv");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  test("a hand-over refreshes to a same-origin path only", async () => {
    const html = await htmlPageResponse({
      status: 200,
      title: "Finishing",
      paragraphs: [],
      link: { href: "/oauth/finish?state=s", label: "Continue" },
      isRedirect: true,
    }).text();
    expect(html).toContain('<meta http-equiv="refresh" content="0;url=/oauth/finish?state=s">');
    for (const href of ["https://evil.example/", "//evil.example/x", "/\\evil.example"])
      expect(() =>
        htmlPageResponse({
          status: 200,
          title: "x",
          paragraphs: [],
          link: { href, label: "x" },
          isRedirect: true,
        }),
      ).toThrow(/same-origin/);
  });
});
