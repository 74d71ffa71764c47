/**
 * axe-core in the e2e suite: no serious or critical violation on a page a reviewer or a share-link
 * reader works in (issue 32, item 5). `expectNoSeriousViolations` checks a page where a spec says;
 * a spec that imports `test` from here instead of @playwright/test also has the final state of
 * each of its tests checked, after the test passed, in every page of the test's browser context
 * that shows the app. axe runs inside the page from the copy bundled in @axe-core/playwright: no
 * network.
 */
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

const BLOCKING = new Set(["serious", "critical"]);

/** Fails naming each serious or critical violation: its rule, help and the elements it found. */
export async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  // Everything the page loads (analysis, revisions, the code editor) is drawn before axe looks.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.locator(".skeleton")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations
    .filter((v) => BLOCKING.has(v.impact ?? ""))
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ") ?? ""}`).join("\n")}`,
    );
  expect(blocking, where).toEqual([]);
}

/** Playwright's `test`, with axe run on the final state of each passing test's app pages. */
export const test = base.extend<{ axeFinalState: void }>({
  axeFinalState: [
    async ({ context, baseURL }, use, testInfo) => {
      await use();
      // A failed test already says what broke; its half-drawn page would only add noise.
      if (testInfo.status !== testInfo.expectedStatus || !baseURL) return;
      const origin = new URL(baseURL).origin;
      for (const page of context.pages()) {
        if (page.isClosed() || !page.url().startsWith(`${origin}/`)) continue;
        await expectNoSeriousViolations(
          page,
          `final state of "${testInfo.title}" at ${new URL(page.url()).pathname}`,
        );
      }
    },
    { auto: true },
  ],
});

export { expect };
