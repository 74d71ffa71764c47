import { describe, expect, test } from "vitest";
import { redactUrlSecrets } from "@/lib/http/redact";
import { withRoute } from "@/lib/http/route";

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
