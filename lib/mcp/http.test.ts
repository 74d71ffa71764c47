import { describe, expect, test } from "vitest";
import { MAX_HTTP_MESSAGE_BYTES, messageCounter } from "@/lib/mcp/http";

const MIB = 1024 * 1024;
const text = (s: string) => new TextEncoder().encode(s);

describe("the HTTP message bound counts one message (issue 28, item 2)", () => {
  test("a JSON body is one message: every byte counts", () => {
    const count = messageCounter("application/json");
    let bytes = 0;
    for (let i = 0; i < 40; i++) bytes = count(new Uint8Array(MIB));
    expect(bytes).toBe(40 * MIB);
    expect(bytes).toBeGreaterThan(MAX_HTTP_MESSAGE_BYTES);
  });

  test("an event stream restarts the count at each event's end, so a long stream of events passes", () => {
    const count = messageCounter("text/event-stream; charset=utf-8");
    const event = text(`event: message\ndata: ${"x".repeat(MIB)}\n\n`);
    let most = 0;
    for (let i = 0; i < 40; i++) most = Math.max(most, count(event));
    expect(most).toBeLessThan(2 * MIB);
    // CRLF line ends end an event too.
    expect(count(text("data: a\r\n\r\n"))).toBe(0);
  });

  test("one event without an end keeps counting across chunks", () => {
    const count = messageCounter("text/event-stream");
    count(text("data: "));
    let bytes = 0;
    for (let i = 0; i < 33; i++) bytes = count(new Uint8Array(MIB).fill(0x61));
    expect(bytes).toBeGreaterThan(MAX_HTTP_MESSAGE_BYTES);
    // A single newline inside is a line end, not an event's end.
    expect(count(text("\ndata: more"))).toBeGreaterThan(bytes);
  });
});
