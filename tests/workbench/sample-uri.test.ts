/**
 * Which URI a resource sample reads (lib/workbench/sample-run.ts `sampleUri`): a template expanded
 * with the reviewer's variables is read only when the gate's strict rule admits the result, so a
 * variable cannot move the read to another path, a parent folder or a query.
 */
import { describe, expect, test } from "vitest";
import { SampleRequestSchema } from "@/lib/workbench/sample-api";
import { sampleUri } from "@/lib/workbench/sample-run";

const uriOf = (item: string, tool: string, args: Record<string, unknown> = {}) =>
  sampleUri(SampleRequestSchema.parse({ item, tool, arguments: args }));

describe("the URI a resource sample reads", () => {
  test("a tool reads no URI; a fixed resource its own", () => {
    expect(uriOf("tool", "get_ticket", { id: "x" })).toEqual({ ok: true, uri: null });
    expect(uriOf("resource", "tickets://queue/latest")).toEqual({
      ok: true,
      uri: "tickets://queue/latest",
    });
  });

  test("a template's variables expand into the URI it admits", () => {
    expect(uriOf("resource_template", "atlas://spaces/{key}", { key: "ENG" })).toEqual({
      ok: true,
      uri: "atlas://spaces/ENG",
    });
    expect(uriOf("resource_template", "docs://{+path}", { path: "guides/setup.md" })).toEqual({
      ok: true,
      uri: "docs://guides/setup.md",
    });
  });

  test("a variable that reaches a parent folder, another segment or a query is refused", () => {
    for (const [template, value] of [
      ["docs://{+path}", "guides/../../secrets"],
      ["atlas://spaces/{key}", "ENG/../OPS"],
      ["atlas://spaces/{key}", ".."],
      ["docs://{+path}", "a?token=x"],
    ] as const) {
      const r = uriOf("resource_template", template, {
        [template.includes("key") ? "key" : "path"]: value,
      });
      expect(r.ok, `${template} with ${value}`).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/does not admit strictly/);
    }
  });

  test("missing, unknown and non-string variables are named", () => {
    const refusal = (r: ReturnType<typeof uriOf>) => (r.ok ? null : r.message);
    expect(refusal(uriOf("resource_template", "atlas://spaces/{key}"))).toMatch(
      /needs a value for "key"/,
    );
    expect(
      refusal(uriOf("resource_template", "atlas://spaces/{key}", { key: "ENG", page: "1" })),
    ).toMatch(/has no variable "page"/);
    expect(refusal(uriOf("resource_template", "atlas://spaces/{key}", { key: 7 }))).toMatch(
      /"key" .* must be a string/,
    );
    expect(refusal(uriOf("resource", "tickets://queue/latest", { id: "x" }))).toMatch(
      /takes no arguments/,
    );
  });
});
