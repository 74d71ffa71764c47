/**
 * The source-to-sink graph of about 500 nodes, from navigation start to its first paint in
 * Chromium. Honest end to end: the production build (`next start`) on a free loopback port against
 * a temporary data folder, a generated review created through the API (100 writers + 100 sources +
 * 250 returning tools in 25 server groups, none collapsed + 20 agents + 30 sinks), the Graph
 * section opened in Chromium, and the time read from the `graph-painted` mark the component sets
 * two animation frames after its first render into the SVG (so after the frame that painted it).
 * It includes the page's own work: HTML, JS, the analysis route, layout and drawing. One warm-up
 * load (PGlite opening, route compilation) is not counted; the figure is the median of the rest.
 * Needs a build: without `.next/BUILD_ID` it reports a MISS saying so.
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { chromium, type Browser } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/support/chromium";
import { FIVE_HUNDRED_NODES, largeReview } from "../../e2e/support/large-review";
import {
  appServerUnavailable,
  signInThroughPage,
  startAppServer,
  type AppServer,
} from "../support/app-server";
import { median, type BenchResult } from "../types";

const NAME = "graph: ~500 nodes, navigation start to first paint (Chromium)";
const GOAL_MS = 1000;
const RUNS = 5;

export async function run(): Promise<BenchResult[]> {
  const goal = `< ${GOAL_MS} ms`;
  const unavailable = appServerUnavailable();
  if (unavailable)
    return [{ name: NAME, figure: `not measured: ${unavailable}`, goal, pass: false }];
  if (!existsSync(CHROMIUM_PATH)) {
    return [
      {
        name: NAME,
        figure: `not measured: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH, or run \`npm run test:all\` once: it installs Debian's chromium)`,
        goal,
        pass: false,
      },
    ];
  }
  // Launched inside the try: a browser that fails to start must not leave the server running.
  let server: AppServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startAppServer();
    const { base, token } = server;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const context = await browser.newContext({
      baseURL: base,
      viewport: { width: 1280, height: 800 },
    });
    await signInThroughPage(context, token);
    const created = await context.request.post("/api/reviews", {
      data: { review: largeReview(FIVE_HUNDRED_NODES, "Bench: 500-node graph") },
      headers: { Authorization: `Bearer ${token}` },
    });
    if (created.status() !== 201)
      throw new Error(`creating the review answered ${created.status()}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };

    const times: number[] = [];
    let drawn = 0;
    for (let i = 0; i <= RUNS; i++) {
      const page = await context.newPage();
      await page.goto(`/reviews/${id}?section=graph&graph=all`); // the whole graph, not the default view of paths to sensitive sinks
      await page.waitForFunction(
        () => performance.getEntriesByName("graph-painted").length > 0,
        undefined,
        { timeout: 60_000 },
      );
      const t = await page.evaluate(
        () => performance.getEntriesByName("graph-painted")[0]!.startTime,
      );
      drawn = await page.locator("g.gnode:not(.k-group)").count();
      await page.close();
      if (i > 0) times.push(t); // the first load warms the server up
    }
    const m = median(times);
    return [
      {
        name: NAME,
        figure: `${m.toFixed(0)} ms median of ${RUNS} (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}; ${drawn} nodes drawn; load average ${loadavg()[0]!.toFixed(1)})`,
        goal,
        pass: m < GOAL_MS,
      },
    ];
  } catch (error) {
    return [
      {
        name: NAME,
        figure: `not measured: ${(error as Error).message}${server ? `; server said: ${server.stderrTail()}` : ""}`,
        goal,
        pass: false,
      },
    ];
  } finally {
    await browser?.close();
    await server?.stop();
  }
}
