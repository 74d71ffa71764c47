import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseParam, readJson, withRoute } from "@/lib/http/route";

const Body = z.object({ a: z.object({ b: z.number() }) }).strict();
const quiet = { log: () => undefined };
const post = (
  body: BodyInit | null,
  headers: Record<string, string> = { "content-type": "application/json" },
) => new Request("http://127.0.0.1/x", { method: "POST", body, headers });

const route = withRoute(
  async (request: Request) => Response.json(await readJson(request, Body)),
  quiet,
);

async function errorOf(res: Response) {
  return (
    (await res.json()) as { error: { code: string; message: string; issues?: { path: string }[] } }
  ).error;
}

describe("withRoute", () => {
  test("a good body passes", async () => {
    const res = await route(post(JSON.stringify({ a: { b: 1 } })), undefined);
    expect(res.status).toBe(200);
  });

  test.each([
    ["not json", "{", /not valid JSON/],
    ["empty", "", /empty/],
  ])("%s → 400", async (_name, body, message) => {
    const res = await route(post(body), undefined);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(message);
  });

  test("a bad field → 400 naming its path", async () => {
    const res = await route(post(JSON.stringify({ a: { b: "x" } })), undefined);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.issues?.map((i) => i.path)).toEqual(["a.b"]);
  });

  test("a wrong content type → 400", async () => {
    const res = await route(
      post("a=1", { "content-type": "application/x-www-form-urlencoded" }),
      undefined,
    );
    expect(res.status).toBe(400);
  });

  test("a body over the limit → 413, whether or not Content-Length says so", async () => {
    const big = JSON.stringify({ a: { b: 1 }, pad: "x".repeat(2 * 1024 * 1024) });
    expect((await route(post(big), undefined)).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 3; i++) c.enqueue(new Uint8Array(1024 * 1024).fill(32));
        c.close();
      },
    });
    const chunked = new Request("http://127.0.0.1/x", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect((await route(chunked, undefined)).status).toBe(413);
  });

  test("an AppError keeps its status; anything else is a 500 that leaks nothing", async () => {
    const notFound = withRoute(
      () => Promise.reject(new AppError("NOT_FOUND", "no such thing")),
      quiet,
    );
    expect((await notFound(post(null), undefined)).status).toBe(404);

    const leaky = withRoute(
      () => Promise.reject(new Error("password=hunter2 at /srv/db.ts:12")),
      quiet,
    );
    const res = await leaky(post(null), undefined);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/hunter2|db\.ts/);
    expect(JSON.parse(text)).toMatchObject({ error: { code: "INTERNAL" } });

    // Our own data failing our own schema is a server fault, not a 400.
    const strayZod = withRoute(() => Promise.resolve(Response.json(z.number().parse("x"))), quiet);
    expect((await strayZod(post(null), undefined)).status).toBe(500);
  });

  test("parseParam names the parameter", () => {
    expect(() => parseParam(z.string().min(3), "a", "id")).toThrow(AppError);
    try {
      parseParam(z.string().min(3), "a", "id");
    } catch (e) {
      expect((e as AppError).issues?.[0]?.path).toBe("id");
      expect((e as AppError).status).toBe(400);
    }
  });
});
