import { expect, test } from "@playwright/test";
import { bearer, signIn } from "../support/auth";

type AnalysisBody = {
  reviewId: string;
  revision: number;
  paths: { total: number; listed: { id: string }[] };
  graph: { nodes: { id: string }[] };
};

test("[analysis api]: 400 for a bad id, 404 for an unknown review, 401 without credentials", async ({
  request,
}) => {
  expect(
    (await request.get("/api/reviews/not%20an%20id!/analysis", { headers: bearer })).status(),
  ).toBe(400);
  const missing = await request.get("/api/reviews/rev_doesnotexist0000/analysis", {
    headers: bearer,
  });
  expect(missing.status()).toBe(404);
  expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  expect((await request.get("/api/reviews/rev_doesnotexist0000/analysis")).status()).toBe(401);
});

test("[analysis api]: the route returns the paths the graph section's table renders for the demo", async ({
  request,
  page,
  context,
}) => {
  const created = await request.post("/api/reviews", { data: { demo: true }, headers: bearer });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const res = await request.get(`/api/reviews/${id}/analysis`, { headers: bearer });
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toContain("no-store");
  const body = (await res.json()) as AnalysisBody;
  expect(body.reviewId).toBe(id);
  expect(body.revision).toBe(1);
  expect(body.paths.total).toBe(8);
  expect(body.paths.listed.map((p) => p.id)).toContain(
    "path:on-call:support-portal:knowledge-mcp/knowledge_search->deploy-tools/trigger_deploy",
  );

  await signIn(context);
  // The whole graph (`graph=all`), not the default view of the paths to sensitive sinks.
  await page.goto(`/reviews/${id}?section=graph&graph=all`);
  const rows = page.locator(`[data-testid="paths-table"] tr[data-path-id]`);
  await expect(rows).toHaveCount(body.paths.listed.length);
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-path-id")));
  // The same paths, in the table's reading order (cross-tool paths to sensitive sinks first).
  expect([...shown].sort()).toEqual(body.paths.listed.map((p) => p.id).sort());
  // The graph is a client-only chunk that can paint after the table: wait for it, then compare.
  const nodes = page.locator(`[data-testid="graph-svg"] g.gnode[data-key]`);
  await expect(nodes.first()).toBeAttached();
  await expect
    .poll(async () => {
      const drawn = await nodes.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-key")));
      return body.graph.nodes.filter((n) => !drawn.includes(n.id)).map((n) => n.id);
    })
    .toEqual([]);
});
