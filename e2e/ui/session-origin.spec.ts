/**
 * Issue 28, finding 2 as a property: no server under review, and no page it can make the owner's
 * browser visit, ever receives a credential of the workbench.
 *
 * The attack: a hostile HTTP MCP server names an authorization server on a host of its own
 * (127.0.0.2, which the workbench lets Connect send the browser to), and that server answers
 * /authorize with a 302 to http://127.0.0.1:P, a port of the workbench's own host. Browsers scope
 * cookies by host, not port, so the capture server on P records `relay_review_session`. Replayed
 * from another process with every header forged to look like the workbench's own page
 * (Host, Origin, Referer, Sec-Fetch-*), that cookie must open nothing: no page, no API route, no
 * write. The owner's real browser keeps working.
 */
import { request as httpRequest } from "node:http";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { startCookieThief } from "../../tests/fixtures/servers/cookie-thief";
import { bearer, SESSION_COOKIE, signIn } from "../support/auth";
import { E2E_EGRESS } from "../support/egress";

type Replayed = { status: number; location: string | undefined; body: string };

/** One request from a process that is not the browser: raw node:http, so Host is ours to forge. */
function replay(
  baseURL: string,
  path: string,
  cookie: string,
  options: { method?: string; mode: "navigate" | "cors"; body?: string },
): Promise<Replayed> {
  const base = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: options.method ?? "GET",
        headers: {
          Host: base.host,
          Cookie: cookie,
          Origin: base.origin,
          Referer: `${base.origin}/`,
          "Sec-Fetch-Site": "same-origin",
          "Sec-Fetch-Mode": options.mode,
          "Sec-Fetch-Dest": options.mode === "navigate" ? "document" : "empty",
          Accept: options.mode === "navigate" ? "text/html" : "application/json",
          ...(options.body ? { "Content-Type": "application/json" } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

test("a cookie an authorization server's redirect captured on another port of the workbench's host opens nothing", async ({
  browser,
  baseURL,
}) => {
  const capture = await startCookieThief("127.0.0.1");
  const hostile = await startCookieThief(E2E_EGRESS.hostile.host, {
    authorizeRedirectTo: `${capture.base}/authorize?stolen=1`,
    port: E2E_EGRESS.hostile.port,
  });
  const context = await browser.newContext({ baseURL });
  try {
    await signIn(context);
    const title = `Payroll connectors ${Date.now()}`;
    const created = await context.request.post("/api/reviews", {
      headers: bearer,
      data: {
        review: {
          schemaVersion: 2,
          title,
          servers: [
            {
              id: "hostile",
              name: "hostile",
              transport: { kind: "http", url: hostile.mcpUrl, headerEnv: {} },
              declaredTools: [],
            },
          ],
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const page = await context.newPage();
    await page.goto(`/reviews/${id}?section=servers`);
    await page
      .getByTestId("server-oauth-hostile")
      .getByRole("button", { name: "Connect hostile" })
      .click();
    // The authorization server on 127.0.0.2 sends the browser on to 127.0.0.1:P.
    await page.waitForURL((u) => u.origin === capture.base);
    const carried = capture.requests
      .map((r) => r.cookie ?? "")
      .find((c) => c.includes(`${SESSION_COOKIE}=`));
    // The browser did carry the cookie there: the attack's precondition, which no server setting
    // can prevent (RFC 6265 §8.5). What follows is why it is worth nothing.
    expect(carried, "the capture server's Cookie headers").toBeDefined();
    const cookie = carried!;

    const pages = ["/", "/changes", "/secrets", "/webhooks", `/reviews/${id}`];
    const apis = ["/api/reviews", `/api/reviews/${id}`, "/api/secrets", "/api/webhooks"];
    const results: Record<string, Replayed> = {};
    for (const path of pages)
      results[path] = await replay(baseURL!, path, cookie, { mode: "navigate" });
    for (const path of apis) results[path] = await replay(baseURL!, path, cookie, { mode: "cors" });
    results["POST /api/reviews"] = await replay(baseURL!, "/api/reviews", cookie, {
      method: "POST",
      mode: "cors",
      body: JSON.stringify({ demo: true }),
    });
    for (const [what, r] of Object.entries(results)) {
      expect(r.body, `${what} carries no review data`).not.toContain(title);
      // (A path that names the review may echo it back in the sign-in redirect: the caller chose it.)
      if (!what.includes(id)) expect(r.body, `${what} carries no review id`).not.toContain(id);
      if (pages.includes(what)) {
        expect(r.status, `${what} is sent to sign in`).toBe(307);
        expect(new URL(r.location!, baseURL).pathname, what).toBe("/sign-in");
      } else {
        expect(r.status, `${what} is refused`).toBe(401);
      }
    }

    // The owner's own browser is not disturbed: pages and the API answer as before.
    await page.goto("/");
    await expect(page.getByRole("link", { name: title })).toBeVisible();
    await page.goto(`/reviews/${id}?section=servers`);
    await expect(page.getByTestId("server-oauth-hostile")).toBeVisible();
    const status = await page.evaluate(async () => (await fetch("/api/secrets")).status);
    expect(status).toBe(200);
  } finally {
    await context.close();
    await hostile.close();
    await capture.close();
  }
});
