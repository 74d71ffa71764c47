import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/support/chromium";
import { E2E_EGRESS_ALLOW } from "./e2e/support/egress";

const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "./e2e",
  // A hang guard, not a speed goal (`npm run bench` measures speed): scripts/test-all.sh runs two
  // halves of the suite at once on two cores, so a test may get half the CPU it gets alone (the
  // 201-tool graph test with its axe check takes 41 s alone).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  workers: 1,
  forbidOnly: !!process.env.CI,
  // Per port: scripts/test-all.sh runs two shards at once, each on its own workbench and port.
  outputDir: `test-results/e2e-${PORT}`,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    trace: "retain-on-failure",
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: "api", testMatch: /api\/.*\.spec\.ts/ },
    {
      name: "ui",
      testMatch: /ui\/.*\.spec\.ts/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: `node scripts/start.mjs`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      RELAY_REVIEW_DATA: process.env.E2E_DATA_DIR ?? ".data-e2e",
      RELAY_REVIEW_TOKEN: process.env.E2E_TOKEN ?? "e2e-owner-token-0123456789abcdef0123456789",
      // The hostile fixtures' launchers (config/launchers.json, `fixture: true`) are allowlisted only with this.
      RELAY_REVIEW_ALLOW_FIXTURES: "1",
      // The specs' loopback servers, each on a port named here (loopback needs its port named).
      RELAY_REVIEW_EGRESS_ALLOW: E2E_EGRESS_ALLOW,
    },
  },
});
