/**
 * Issue 28, findings 2 and 13: no server under review receives the owner's session, and Sign out
 * ends it on the server.
 *
 * - A hostile HTTP MCP server on 127.0.0.1 (another port than the workbench's) names itself as
 *   authorization server. Browsers scope cookies by host, not port, so had the browser gone
 *   there it would have carried `relay_review_session`. Clicking Connect in Chromium leaves the
 *   browser on the workbench with an error naming the host, and the server's request log holds
 *   no session cookie.
 * - A session cookie copied before Sign out (as a server that saw it would replay it, with a
 *   forged Origin) is refused after Sign out, for reads and writes.
 */
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { startCookieThief } from "../../tests/fixtures/servers/cookie-thief";
import { bearer, SESSION_COOKIE, sessionHeaders, signIn } from "../support/auth";
import { E2E_EGRESS } from "../support/egress";

test("Connect to an authorization server on the workbench's host: the browser stays, the session cookie never reaches the server", async ({
  browser,
  baseURL,
}) => {
  const thief = await startCookieThief(E2E_EGRESS.thief.host, { port: E2E_EGRESS.thief.port });
  const context = await browser.newContext({ baseURL });
  try {
    await signIn(context);
    const session = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)!.value;
    const created = await context.request.post("/api/reviews", {
      headers: bearer,
      data: {
        review: {
          schemaVersion: 2,
          title: "Cookie thief",
          servers: [
            {
              id: "thief",
              name: "thief",
              transport: { kind: "http", url: thief.mcpUrl, headerEnv: {} },
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
    const card = page.getByTestId("server-oauth-thief");
    await card.getByRole("button", { name: "Connect thief" }).click();
    // Either the workbench refused, or the browser reached the server's consent page.
    const refusal = card.getByRole("alert");
    await expect(refusal.or(page.getByRole("heading", { name: "Approve access" }))).toBeVisible();
    // The workbench itself talked to the server (server side, no cookie of the browser's).
    expect(thief.requests.some((r) => r.path === "/mcp")).toBe(true);
    const withSession = thief.requests.filter((r) => (r.cookie ?? "").includes(session));
    expect(withSession, "requests that carried the owner's session cookie").toEqual([]);
    await expect(refusal).toContainText("http://127.0.0.1:");
    await expect(refusal).toContainText("a host name of this workbench");
    await expect(refusal).toContainText("127.0.0.2");
    expect(new URL(page.url()).origin).toBe(baseURL);
  } finally {
    await context.close();
    await thief.close();
  }
});

test("a session cookie copied before Sign out is refused after it, even with this workbench's Origin", async ({
  browser,
  baseURL,
  playwright,
}) => {
  const context = await browser.newContext({ baseURL });
  // The copy here includes the session's origin proof (the cookie alone opens nothing at all:
  // e2e/ui/session-origin.spec.ts), so what is tested is the session's end on the server.
  const replay = async (copied: string) => {
    const thief = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: {
        Cookie: `${SESSION_COOKIE}=${copied}`,
        Origin: baseURL!,
        ...sessionHeaders(context),
      },
    });
    try {
      const read = (await thief.get("/api/reviews")).status();
      const write = (await thief.post("/api/reviews", { data: { demo: true } })).status();
      return { read, write };
    } finally {
      await thief.dispose();
    }
  };
  try {
    await signIn(context);
    const copied = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)!.value;
    // Before Sign out the copy works, which is what makes it worth stealing.
    expect((await replay(copied)).read).toBe(200);
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    expect(await replay(copied)).toEqual({ read: 401, write: 401 });
  } finally {
    await context.close();
  }
});
