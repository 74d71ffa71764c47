/**
 * The app runs under its Content-Security-Policy with no violation: every page (the sign-in page
 * signed out, the review list, each review section including Monaco's editors and diff with its
 * worker, the share view) loads with no `securitypolicyviolation` event and no CSP console error,
 * while every response carries a strict policy whose nonce is on each of the page's scripts and
 * is new on every request.
 */
import type { Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";

type Watch = { violations: () => Promise<string[]>; console: string[] };

async function watchCsp(page: Page): Promise<Watch> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(
        `${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  const consoleLines: string[] = [];
  page.on("console", (m) => {
    // Monaco says so when its worker cannot start and it falls back to the main thread.
    if (/Content Security Policy|Refused to|Could not create web worker/i.test(m.text()))
      consoleLines.push(m.text());
  });
  return {
    violations: () => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []),
    console: consoleLines,
  };
}

function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name ?? "", values.join(" ")]),
  );
}

test("[csp]: every page runs under a strict nonce-based CSP with no violation, Monaco included", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const first = await page.request.get("/sign-in");
  const csp = first.headers()["content-security-policy"] ?? "";
  const d = directives(csp);
  expect(d.get("default-src")).toBe("'self'");
  expect(d.get("object-src")).toBe("'none'");
  expect(d.get("base-uri")).toBe("'none'");
  expect(d.get("frame-ancestors")).toBe("'none'");
  expect(d.get("worker-src")).toBe("'self' blob:");
  expect(d.get("script-src")).toMatch(/^'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
  expect(csp).not.toContain("unsafe-eval");
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  const second = (await page.request.get("/sign-in")).headers()["content-security-policy"] ?? "";
  expect(second).not.toBe(csp); // a fresh nonce per response
  // Monaco's files (its worker runs under their policy): our own scripts only.
  const monaco =
    (await page.request.get("/monaco/vs/loader.js")).headers()["content-security-policy"] ?? "";
  expect(directives(monaco).get("script-src")).toBe("'self'");

  const watch = await watchCsp(page);
  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: /sign in/i })).toBeVisible();
  expect(await watch.violations()).toEqual([]);

  await signIn(context);
  const { id } = await createDemoReview(page.request);
  const saved = await page.request.get(`/api/reviews/${id}`, { headers: bearer });
  const record = (await saved.json()) as { revision: number; review: Record<string, unknown> };
  expect(
    (
      await page.request.put(`/api/reviews/${id}`, {
        headers: bearer,
        data: { baseRevision: record.revision, review: { ...record.review, title: "csp check" } },
      })
    ).status(),
  ).toBe(200);

  await page.goto("/");
  await expect(page.getByRole("link", { name: "Relay Review" })).toBeVisible();
  for (const section of ["servers", "sources", "agents", "controls", "graph", "decision"]) {
    await page.goto(`/reviews/${id}?section=${section}`);
    await page.waitForLoadState("networkidle");
    expect(await watch.violations(), section).toEqual([]);
  }
  // Monaco: the History diff runs in Monaco's worker.
  await page.goto(`/reviews/${id}?section=history`);
  const item = page.getByTestId("revision-changes").locator('[data-change-key="review"]');
  await item.getByRole("button", { name: /Show difference in/ }).click();
  const diff = item.getByTestId("revision-diff");
  await expect(diff.locator(".monaco-diff-editor")).toBeVisible();
  await expect(diff.locator(".editor.modified")).toContainText("csp check");
  await page.waitForLoadState("networkidle");
  expect(await watch.violations(), "history").toEqual([]);

  const link = await page.request.post(`/api/reviews/${id}/share-links`, {
    headers: bearer,
    data: { frozen: false },
  });
  const { path } = (await link.json()) as { path: string };
  await page.goto(`${baseURL!}${path}`);
  await page.waitForLoadState("networkidle");
  expect(await watch.violations(), "share view").toEqual([]);
  expect(watch.console).toEqual([]);
});
