/**
 * Shared review links. The owner creates a link in the Decision section (shown once); a fresh
 * browser context with no cookies opens it and sees the read-only view, and from that context:
 * no edit controls, no request to an owner route, every owner write is 401, no other review is
 * reachable; a frozen link keeps its revision after the owner saves; a revoked link and an expired
 * one answer exactly like a token that never existed (same status, same body).
 */
import type { APIRequestContext, Browser, BrowserContext } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import {
  CreateShareLinkResponseSchema,
  ListShareLinksResponseSchema,
  ShareViewResponseSchema,
} from "../../lib/decisions/api";
import { DEMO_REVIEW_TITLE } from "../../lib/review/demo";
import { bearer, signIn } from "../support/auth";
import { createDemoReview, editReview } from "../support/surface";

const UNKNOWN_TOKEN = "A".repeat(43);

async function createLink(request: APIRequestContext, id: string, body: Record<string, unknown>) {
  const res = await request.post(`/api/reviews/${id}/share-links`, { headers: bearer, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return CreateShareLinkResponseSchema.parse(await res.json());
}

async function freshContext(
  browser: Browser,
  baseURL: string | undefined,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL });
  expect(await context.cookies()).toHaveLength(0);
  return context;
}

/** Status and body of the share API and page for a token, from a context without credentials. */
async function answer(context: BrowserContext, token: string) {
  const api = await context.request.get(`/api/share/${token}`);
  const page = await context.request.get(`/share/${token}`, { maxRedirects: 0 });
  return { apiStatus: api.status(), apiBody: await api.text(), pageStatus: page.status() };
}

test("[share]: a link opens a read-only view in a fresh context that cannot edit, inspect, create links or reach another review", async ({
  browser,
  baseURL,
  context,
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(context);
  const { id } = await createDemoReview(page.request);
  const other = await createDemoReview(page.request);
  await editReview(page.request, other.id, (r) => void (r.title = "Another review, not shared"));
  const decided = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: {
      baseRevision: 1,
      serverId: "knowledge-mcp",
      agentId: "on-call",
      verdict: "rejected",
      reviewer: "R. Reviewer",
      rationale: "The on-call agent also holds trigger_deploy.",
    },
  });
  expect(decided.status(), await decided.text()).toBe(201);

  // The owner creates a frozen link in the UI; the URL is shown once.
  await page.goto(`/reviews/${id}?section=decision`);
  const create = page.getByRole("form", { name: "Create a share link" });
  await create.getByLabel("Freeze at revision 2").check();
  await create.getByLabel("Label (optional)").fill("for the platform team");
  await create.getByRole("button", { name: "Create link" }).click();
  const url = await page.getByTestId("share-link-url").inputValue();
  expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
  const token = url.split("/share/")[1]!;
  await expect(page.getByTestId("share-links")).toContainText("for the platform team");
  await expect(page.getByTestId("share-links")).toContainText("frozen at revision 2");
  // Never shown again: not in the list, nor anywhere in the review's API answers.
  const listed = await page.request.get(`/api/reviews/${id}/share-links`, { headers: bearer });
  expect(await listed.text()).not.toContain(token);
  ListShareLinksResponseSchema.parse(JSON.parse(await listed.text()));
  await page.reload();
  await page.getByRole("heading", { name: "Share a read-only link" }).waitFor();
  expect(await page.content()).not.toContain(token);

  const guest = await freshContext(browser, baseURL);
  try {
    const view = await guest.newPage();
    const requested: string[] = [];
    view.on("request", (r) => requested.push(new URL(r.url()).pathname));
    const consoleErrors: string[] = [];
    view.on("console", (m) => void (m.type() === "error" && consoleErrors.push(m.text())));
    view.on("pageerror", (e) => consoleErrors.push(e.message));
    const res = await view.goto(`/share/${token}`);
    expect(res?.status()).toBe(200);
    await expect(view.getByTestId("share-view")).toBeVisible();
    await expect(view.getByRole("heading", { level: 1 })).toHaveText(DEMO_REVIEW_TITLE);
    await expect(view.getByTestId("share-revision")).toHaveText("frozen at revision 2");
    await expect(view.getByText("read-only", { exact: true })).toBeVisible();
    // Decision with status, writer bounds, paths, controls and residue.
    const decision = view.locator('[data-testid^="share-decision-"]');
    await expect(decision).toHaveCount(1);
    await expect(decision).toContainText("Rejected");
    await expect(decision).toContainText("knowledge-mcp into on-call agent");
    await expect(decision.getByTestId("decision-status")).toHaveAttribute("data-state", "current");
    await expect(view.getByTestId("share-writer-bounds")).toContainText(
      "everyone with an email address",
    );
    await expect(view.getByTestId("paths-table")).toContainText("trigger_deploy");
    await expect(view.getByTestId("controls-table")).toContainText("Tool-set separation");
    // The agent sessions table, as the review's Graph section shows it, read-only.
    const sessions = view.getByTestId("agent-verdicts");
    await expect(sessions.locator('tr[data-agent-id="on-call"]')).toContainText("on-call agent");
    await expect(sessions.locator('tr[data-agent-id="on-call"]')).toContainText(/\d of 4/);
    await expect(sessions.locator('tr[data-agent-id="on-call"]')).toContainText(
      "A split would cut its paths",
    );
    await expect(view.getByTestId("share-residue")).toContainText("What survives the controls");

    // No edit controls: nothing to type into, no form, no edit/inspect/link/decide button.
    await expect(view.locator("form, input, textarea, select")).toHaveCount(0);
    await expect(
      view.getByRole("button", {
        name: /\b(save|add|edit|remove|delete|revoke|create|record|decide|inspect|pin|re-pin|split|download)\b/i,
      }),
    ).toHaveCount(0);
    // The page talked to no owner route, and rendered (and hydrated) without errors.
    expect(requested.filter((p) => p.startsWith("/api/"))).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // The share API answers the same review and nothing else, whatever is appended.
    const api = ShareViewResponseSchema.parse(
      await (await guest.request.get(`/api/share/${token}`)).json(),
    );
    expect(api.revision).toBe(2);
    expect(api.frozen).toBe(true);
    expect(api.decisions).toHaveLength(1);
    const withOther = await guest.request.get(
      `/api/share/${token}?id=${other.id}&reviewId=${other.id}`,
    );
    expect(withOther.status()).toBe(200);
    const body = await withOther.text();
    expect(body).not.toContain(other.id);
    expect(body).not.toContain("Another review, not shared");
    for (const p of [
      `/api/share/${token}/../../reviews/${other.id}`,
      `/api/share/${token}/%2e%2e/%2e%2e/reviews/${other.id}`,
      `/share/${token}/../../reviews/${other.id}`,
    ]) {
      const r = await guest.request.get(p, { maxRedirects: 0 });
      expect(r.status(), p).not.toBe(200);
      expect(await r.text(), p).not.toContain("Another review, not shared");
    }

    // Every owner route refuses the guest: reads and writes alike are 401.
    for (const reviewId of [id, other.id]) {
      expect((await guest.request.get(`/api/reviews/${reviewId}`)).status()).toBe(401);
      expect((await guest.request.get(`/api/reviews/${reviewId}/decisions`)).status()).toBe(401);
      expect(
        (
          await guest.request.put(`/api/reviews/${reviewId}`, {
            data: { baseRevision: 2, review: api.review },
          })
        ).status(),
      ).toBe(401);
      expect((await guest.request.delete(`/api/reviews/${reviewId}`)).status()).toBe(401);
      expect(
        (await guest.request.post(`/api/reviews/${reviewId}/decisions`, { data: {} })).status(),
      ).toBe(401);
      expect(
        (
          await guest.request.post(`/api/reviews/${reviewId}/share-links`, {
            data: { frozen: false },
          })
        ).status(),
      ).toBe(401);
      expect((await guest.request.get(`/api/reviews/${reviewId}/share-links`)).status()).toBe(401);
      expect(
        (
          await guest.request.post(`/api/reviews/${reviewId}/servers/knowledge-mcp/inspect`, {
            data: {},
          })
        ).status(),
      ).toBe(401);
    }
    expect((await guest.request.get("/api/reviews")).status()).toBe(401);
    expect((await guest.request.get("/api/signing-key")).status()).toBe(401);
    // The share path itself only reads.
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await guest.request.fetch(`/api/share/${token}`, { method, data: {} });
      expect(r.status(), method).toBe(405);
    }
    // The owner's own review page sends the guest to sign in.
    const owner = await guest.request.get(`/reviews/${id}`, { maxRedirects: 0 });
    expect(owner.status()).toBe(307);

    // Frozen: the owner saves; the link still shows revision 2. A live link shows the new one.
    await editReview(page.request, id, (r) => void (r.title = "Renamed after sharing"));
    const live = await createLink(page.request, id, { frozen: false });
    await view.reload();
    await expect(view.getByTestId("share-revision")).toHaveText("frozen at revision 2");
    await expect(view.getByRole("heading", { level: 1 })).toHaveText(DEMO_REVIEW_TITLE);
    const liveView = await guest.newPage();
    await liveView.goto(live.path);
    await expect(liveView.getByTestId("share-revision")).toHaveText("latest revision (3)");
    await expect(liveView.getByRole("heading", { level: 1 })).toHaveText("Renamed after sharing");
  } finally {
    await guest.close();
  }
});

test("[share]: revoked and expired links answer exactly like an unknown token", async ({
  browser,
  baseURL,
  context,
  page,
}) => {
  await signIn(context);
  const { id } = await createDemoReview(page.request);
  const guest = await freshContext(browser, baseURL);
  try {
    const unknown = await answer(guest, UNKNOWN_TOKEN);
    expect(unknown.apiStatus).toBe(404);
    expect(unknown.pageStatus).toBe(404);
    expect(await answer(guest, "not-even-a-token")).toEqual(unknown);

    // Revoke in the UI.
    const link = await createLink(page.request, id, { frozen: false, label: "to revoke" });
    expect((await answer(guest, link.token)).apiStatus).toBe(200);
    await page.goto(`/reviews/${id}?section=decision`);
    await page.getByRole("button", { name: "Revoke link to revoke" }).click();
    await expect(page.getByTestId(`share-link-${link.link.id}`)).toHaveAttribute(
      "data-state",
      "revoked",
    );
    expect(await answer(guest, link.token)).toEqual(unknown);
    const guestPage = await guest.newPage();
    expect((await guestPage.goto(link.path))?.status()).toBe(404);
    await expect(guestPage.getByText("There is nothing at this address.")).toBeVisible();
    await expect(guestPage.getByTestId("share-view")).toHaveCount(0);

    // Expired: about a second of life.
    const brief = await createLink(page.request, id, { frozen: true, expiresInHours: 0.0003 });
    expect(brief.link.expiresAt).not.toBeNull();
    await expect
      .poll(async () => (await answer(guest, brief.token)).apiStatus, { timeout: 10_000 })
      .toBe(404);
    expect(await answer(guest, brief.token)).toEqual(unknown);
    const links = ListShareLinksResponseSchema.parse(
      await (await page.request.get(`/api/reviews/${id}/share-links`, { headers: bearer })).json(),
    );
    expect(links.links.find((l) => l.id === brief.link.id)?.state).toBe("expired");
    expect(links.links.find((l) => l.id === link.link.id)?.state).toBe("revoked");

    // A link id of this review only; revoking twice keeps the first time.
    const other = await createDemoReview(page.request);
    expect(
      (
        await page.request.delete(`/api/reviews/${other.id}/share-links/${link.link.id}`, {
          headers: bearer,
        })
      ).status(),
    ).toBe(404);
    const twice = await page.request.delete(`/api/reviews/${id}/share-links/${link.link.id}`, {
      headers: bearer,
    });
    expect(twice.status()).toBe(200);
    expect(((await twice.json()) as { revokedAt: string }).revokedAt).toBe(
      links.links.find((l) => l.id === link.link.id)?.revokedAt,
    );
  } finally {
    await guest.close();
  }
});
