import { describe, expect, it } from "vitest";
import { ANNOTATION_HINTS, SPEC_DEFAULT_HINTS, effectiveAnnotations } from "./annotations";

describe("effectiveAnnotations", () => {
  it("an absent hint is the spec's default, marked as such", () => {
    const e = effectiveAnnotations(undefined);
    for (const hint of ANNOTATION_HINTS)
      expect(e[hint]).toEqual({ value: SPEC_DEFAULT_HINTS[hint], origin: "spec_default" });
  });

  it("a declared boolean is the server's claim; any other value counts as absent", () => {
    const e = effectiveAnnotations({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: "yes",
      openWorldHint: 1,
    });
    expect(e.readOnlyHint).toEqual({ value: true, origin: "declared" });
    expect(e.destructiveHint).toEqual({ value: false, origin: "declared" });
    expect(e.idempotentHint).toEqual({ value: false, origin: "spec_default" });
    expect(e.openWorldHint).toEqual({ value: true, origin: "spec_default" });
  });

  it("the same combination is one shared object that cannot be changed", () => {
    const a = effectiveAnnotations({ readOnlyHint: true });
    expect(effectiveAnnotations({ readOnlyHint: true, title: "x" })).toBe(a);
    expect(effectiveAnnotations({ readOnlyHint: false })).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => {
      (a as Record<string, unknown>).readOnlyHint = { value: false, origin: "declared" };
    }).toThrow(TypeError);
  });
});
