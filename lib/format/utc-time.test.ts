import { describe, expect, test } from "vitest";
import { utcDay, utcMinute, utcSecond } from "@/lib/format/utc-time";

describe("times in UTC", () => {
  // 23:59:30 UTC on 6 December is already 7 December in Tokyo and still 6 December in New York:
  // the shown day must follow UTC, whatever zone the process runs in.
  const late = "2026-12-06T23:59:30.000Z";

  test("a minute, a second and a day are shown in UTC and say so", () => {
    expect(utcMinute(late)).toBe("6 Dec 2026, 23:59 UTC");
    expect(utcSecond(late)).toBe("6 Dec 2026, 23:59:30 UTC");
    expect(utcDay(late)).toBe("6 Dec 2026");
  });

  test("a Date and epoch milliseconds read as the same instant as its ISO string", () => {
    expect(utcMinute(new Date(late))).toBe(utcMinute(late));
    expect(utcSecond(Date.parse(late))).toBe(utcSecond(late));
  });
});
