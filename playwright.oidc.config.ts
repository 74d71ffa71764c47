/**
 * The OpenID Connect e2e (issue 29 items 2-3): the demo identity provider (scripts/demo-idp.ts,
 * oidc-provider on loopback) and the workbench configured to use it, both started here. Run with
 * `npx playwright test -c playwright.oidc.config.ts` after `npm run build`.
 */
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/support/chromium";

const PORT = Number(process.env.E2E_OIDC_PORT ?? 3102);
const IDP_PORT = Number(process.env.E2E_IDP_PORT ?? 4402);
export const E2E_OIDC_TOKEN = "e2e-oidc-owner-token-0123456789abcdef0123456789";

export default defineConfig({
  testDir: "./e2e/oidc",
  timeout: 180_000,
  expect: { timeout: 30_000 },
  workers: 1,
  outputDir: "test-results/oidc",
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    trace: "retain-on-failure",
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      command: "node --import tsx scripts/demo-idp.ts",
      url: `http://127.0.0.1:${IDP_PORT}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { IDP_PORT: String(IDP_PORT), APP_ORIGIN: `http://127.0.0.1:${PORT}` },
    },
    {
      command: "node scripts/start.mjs",
      url: `http://127.0.0.1:${PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(PORT),
        HOST: "127.0.0.1",
        RELAY_REVIEW_DATA: process.env.E2E_OIDC_DATA_DIR ?? ".data-e2e-oidc",
        RELAY_REVIEW_TOKEN: E2E_OIDC_TOKEN,
        RELAY_REVIEW_OIDC_ISSUER: `http://127.0.0.1:${IDP_PORT}`,
        RELAY_REVIEW_OIDC_CLIENT_ID: "relay-review",
        RELAY_REVIEW_OIDC_CLIENT_SECRET: "demo-client-secret-not-for-production",
        RELAY_REVIEW_OIDC_ROLE_MAP:
          "relay-viewers=viewer,relay-reviewers=reviewer,relay-approvers=approver,relay-admins=admin",
      },
    },
  ],
});
