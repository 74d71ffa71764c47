import { describe, expect, test } from "vitest";
import { redactUrlSecrets, scrubErrorForLog } from "@/lib/http/redact";
import { withRoute } from "@/lib/http/route";
import { AppError } from "@/lib/errors";

const TOKEN = "Zm9vYmFyYmF6cXV4MDEyMzQ1Njc4OWFiY2RlZmdoaWpr";

describe("redactUrlSecrets", () => {
  test.each([
    [`/share/${TOKEN}`, "/share/[redacted]"],
    [`/api/share/${TOKEN}`, "/api/share/[redacted]"],
    [`/api/share/${TOKEN}/decisions?x=1`, "/api/share/[redacted]/decisions?x=1"],
    [
      `http://127.0.0.1:3000/sign-in?next=/&token=${TOKEN}`,
      "http://127.0.0.1:3000/sign-in?next=/&token=[redacted]",
    ],
    [`/x?token=${TOKEN}#a`, "/x?token=[redacted]#a"],
    ["/api/reviews/rev-1/decisions", "/api/reviews/rev-1/decisions"],
  ])("%s → %s", (input, expected) => {
    expect(redactUrlSecrets(input)).toBe(expected);
    expect(redactUrlSecrets(input)).not.toContain(TOKEN);
  });

  test("a failing route logs the share path without its token", async () => {
    const lines: string[] = [];
    const route = withRoute(() => Promise.reject(new Error("boom")), {
      log: (message) => void lines.push(message),
    });
    const res = await route(
      new Request(`http://127.0.0.1:3000/api/share/${TOKEN}?token=${TOKEN}`),
      {},
    );
    expect(res.status).toBe(500);
    expect(lines).toEqual(["[api] GET /api/share/[redacted] failed"]);
  });
});

describe("the error logged beside a route's message", () => {
  const GHP = "ghp_0123456789abcdefghijABCDEFGHIJ0123";
  const leaky = () => {
    const inner = Object.assign(new Error(`fetch /api/share/${TOKEN} failed with ${GHP}`), {
      code: "ECONNRESET",
      url: `http://127.0.0.1/x?token=${TOKEN}`,
      params: [TOKEN, GHP],
      attempt: 2,
    });
    return new Error(`could not open /share/${TOKEN}?token=${TOKEN}`, { cause: inner });
  };

  test("its message, stack, causes and string fields are scrubbed; other fields are left out; name and code stay", () => {
    const logged = scrubErrorForLog(leaky()) as Error & { cause: Error & Record<string, unknown> };
    const all = JSON.stringify([
      logged.message,
      logged.stack,
      logged.cause.message,
      logged.cause.stack,
      logged.cause,
    ]);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(GHP);
    expect(logged.cause.message).toBe(
      "fetch /api/share/[redacted] failed with [redacted GITHUB_TOKEN]",
    );
    expect(logged.cause).toMatchObject({
      code: "ECONNRESET",
      url: "http://127.0.0.1/x?token=[redacted]",
      attempt: 2,
    });
    expect(logged.cause.params).toBeUndefined();
    expect(logged.name).toBe("Error");
  });

  test("values that are not errors are logged as scrubbed text; a long chain of causes is cut", () => {
    expect(scrubErrorForLog(`/share/${TOKEN}`)).toBe("/share/[redacted]");
    expect(scrubErrorForLog({ url: `/share/${TOKEN}` })).toBe('{"url":"/share/[redacted]"}');
    let e: Error = new Error("root");
    for (let i = 0; i < 10; i++) e = new Error(`level ${i}`, { cause: e });
    let depth = 0;
    for (let c: unknown = scrubErrorForLog(e); c instanceof Error; c = c.cause) depth++;
    expect(depth).toBe(4);
  });

  test("both ways a route logs (a 5xx AppError's cause, any other error) carry no token", async () => {
    const logged: unknown[] = [];
    const log = (message: string, error: unknown) => void logged.push(message, error);
    const url = `http://127.0.0.1:3000/api/share/${TOKEN}`;
    await withRoute(() => Promise.reject(leaky()), { log })(new Request(url), {});
    await withRoute(
      () =>
        Promise.reject(
          new AppError("INTERNAL", `store failed for ${TOKEN.slice(0, 4)}`, { cause: leaky() }),
        ),
      { log },
    )(new Request(url), {});
    const text = logged
      .map((v) =>
        v instanceof Error
          ? `${v.stack} ${JSON.stringify(v)} ${String((v.cause as Error)?.stack)}`
          : String(v),
      )
      .join("\n");
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(GHP);
    expect(logged).toHaveLength(4);
  });
});
