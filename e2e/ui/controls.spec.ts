// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { DEMO_NETWORK_POLICY } from "../../lib/review/demo";
import { bearer, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";

const DEMO_POLICY_WITH_BAD_CIDR = DEMO_NETWORK_POLICY.replace("10.42.7.0/24", "10.42.7.0/33");

type Stored = {
  revision: number;
  review: Record<string, unknown> & {
    controls: { egress: { serverId: string; policyYaml: string }[] };
  };
};

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[controls]: the seed's controls evaluate from configuration, and prose changes nothing", async ({
  page,
}) => {
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=controls`);

  const credential = page.getByTestId("credential-knowledge-mcp");
  await expect(credential.locator(".badge").first()).toHaveText("holds");

  await expect(page.getByTestId("egress-summary-knowledge-mcp")).toContainText(
    "a destination nobody listed is denied by construction",
  );
  await expect(page.getByTestId("egress-summary-knowledge-mcp")).toContainText("10.42.7.0/24");

  // "Would a fetch to this host:port be allowed?" — an external fetch is denied, the internal range on 443 is not.
  const query = page
    .getByRole("region", { name: "Network egress of knowledge-mcp" })
    .getByRole("form", { name: "Would a fetch be allowed?" });
  await expect(query.getByTestId("egress-verdict")).toContainText("Denied");
  await query.getByLabel("Host or IP").fill("10.42.7.12");
  await expect(query.getByTestId("egress-verdict")).toContainText("Allowed");
  await query.getByLabel("Port").fill("80");
  await expect(query.getByTestId("egress-verdict")).toContainText("Denied");

  await expect(page.getByTestId("approval-on-call")).toContainText(
    "14 prompts a day × 1.9 s median = 26.6 s of human attention a day",
  );
  await expect(page.getByTestId("approval-on-call")).toContainText("a click, not a review");

  await expect(
    page.getByText("no component reads it: no position in the path, no effect on any finding"),
  ).toBeVisible();
  const residue = await page.getByTestId("residue-statement").textContent();

  // Removing the statement of intent changes no finding and not the residue.
  const before = (await (
    await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })
  ).json()) as { findings: { id: string }[] };
  await page.getByRole("button", { name: "Remove statement" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  const after = (await (
    await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })
  ).json()) as { findings: { id: string }[] };
  expect(after.findings.map((f) => f.id)).toEqual(before.findings.map((f) => f.id));
  await expect(page.getByTestId("residue-statement")).toHaveText(residue ?? "");
});

test("[controls]: adding write:issue to the token fails the credential", async ({ page }) => {
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=controls`);
  const form = page.getByRole("form", { name: "Credential of knowledge-mcp" });
  await form
    .getByLabel("Scopes (comma-separated)")
    .fill("read:issue, read:project, read:comment, write:issue");
  await form.getByRole("button", { name: "Save credential" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  const credential = page.getByTestId("credential-knowledge-mcp");
  await expect(credential.locator(".badge").first()).toHaveText("fails");
  await expect(credential).toContainText("write:issue");
});

test("[controls]: a form on screen before its section has hydrated takes no input it would lose", async ({
  page,
}) => {
  // The section's chunk arrives late (as on a loaded machine): its server-rendered form is on
  // screen first. Typed into then, a controlled input would keep the text in the DOM while the
  // component's state kept the old scopes, and the save would write those.
  await page.route(/\/_next\/static\/chunks\/.*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=controls`, { waitUntil: "commit" });
  const form = page.getByRole("form", { name: "Credential of knowledge-mcp" });
  const scopes = form.getByLabel("Scopes (comma-separated)");
  await expect(scopes).toBeVisible();
  await expect(scopes).toBeDisabled();
  await scopes.fill("read:issue, read:project, read:comment, write:issue");
  await form.getByRole("button", { name: "Save credential" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  const credential = page.getByTestId("credential-knowledge-mcp");
  await expect(credential.locator(".badge").first()).toHaveText("fails");
  const stored = (await (
    await page.request.get(`/api/reviews/${id}`, { headers: bearer })
  ).json()) as { review: { controls: { credentials: { scopes: string[] }[] } } };
  expect(stored.review.controls.credentials[0]!.scopes).toContain("write:issue");
});

test("[controls]: a default-allow policy admits the external fetch, and malformed YAML names its line", async ({
  page,
}) => {
  const id = (await createDemoReview(page.request)).id;
  const stored = (await (
    await page.request.get(`/api/reviews/${id}`, { headers: bearer })
  ).json()) as Stored;
  const review = structuredClone(stored.review);
  review.controls.egress = [
    {
      serverId: "knowledge-mcp",
      policyYaml: [
        "apiVersion: networking.k8s.io/v1",
        "kind: NetworkPolicy",
        "metadata: { name: knowledge-mcp-egress }",
        "spec:",
        "  podSelector: {}",
        "  policyTypes: [Egress]",
        "  egress:",
        "    - {}",
        "",
      ].join("\n"),
    },
  ];
  const saved = await page.request.put(`/api/reviews/${id}`, {
    headers: bearer,
    data: { baseRevision: stored.revision, review },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`/reviews/${id}?section=controls`);
  await expect(page.getByTestId("egress-summary-knowledge-mcp")).toContainText(
    "a destination nobody listed is admitted",
  );
  const egress = page.getByRole("region", { name: "Network egress of knowledge-mcp" });
  await expect(egress.getByTestId("egress-verdict")).toContainText("Allowed");

  const broken = structuredClone(review);
  broken.controls.egress = [{ serverId: "knowledge-mcp", policyYaml: DEMO_POLICY_WITH_BAD_CIDR }];
  const second = await page.request.put(`/api/reviews/${id}`, {
    headers: bearer,
    data: { baseRevision: stored.revision + 1, review: broken },
  });
  expect(second.status()).toBe(200);
  await page.reload();
  // The bad CIDR sits on line 15 of the policy text.
  await expect(egress.getByTestId("egress-parse-errors")).toContainText(/line 15\b.*cidr/i);
  await expect(page.getByTestId("egress-summary-knowledge-mcp")).toContainText(
    "cannot be evaluated",
  );
});
