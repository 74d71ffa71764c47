/** Seeding helpers for the live-surface e2e tests: a demo review, and a server added to it by API. */
import { expect, type APIRequestContext } from "@playwright/test";
import { bearer } from "./auth";

export type StoredServer = { id: string; name?: string; transport: unknown; pin: unknown } & Record<
  string,
  unknown
>;
export type StoredReview = {
  id: string;
  revision: number;
  review: { servers: StoredServer[] } & Record<string, unknown>;
};

export async function createDemoReview(request: APIRequestContext): Promise<StoredReview> {
  const res = await request.post("/api/reviews", { data: { demo: true }, headers: bearer });
  expect(res.status()).toBe(201);
  return (await res.json()) as StoredReview;
}

export async function getReview(request: APIRequestContext, id: string): Promise<StoredReview> {
  const res = await request.get(`/api/reviews/${id}`, { headers: bearer });
  expect(res.status()).toBe(200);
  return (await res.json()) as StoredReview;
}

/** Apply `change` to the current revision and save it. */
export async function editReview(
  request: APIRequestContext,
  id: string,
  change: (r: StoredReview["review"]) => void,
): Promise<StoredReview> {
  const current = await getReview(request, id);
  change(current.review);
  const res = await request.put(`/api/reviews/${id}`, {
    headers: bearer,
    data: { baseRevision: current.revision, review: current.review },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as StoredReview;
}

export const hostileServer = (id: string, behaviour: string) => ({
  id,
  name: id,
  transport: {
    kind: "stdio",
    command: "node",
    args: ["--import", "tsx", "tests/fixtures/servers/hostile.ts", behaviour],
    envNames: [],
  },
});

export const KNOWLEDGE_V42_ARGS = ["servers/dist/knowledge-mcp-v4.2.js", "stdio"];

/** The NDJSON lines of an inspect response. */
export function ndjson(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
