import canonicalize from "canonicalize";
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  canonicalJson,
  canonicalJsonEach,
  fingerprintDocument,
  fingerprintSurface,
} from "@/lib/surface/fingerprint";
import type { Surface, ToolItem } from "@/lib/surface/types";
import { manyTools } from "@/tests/fixtures/servers/many-tools-listing";

const tool = (name: string, extra: Partial<ToolItem> = {}): ToolItem => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  ...extra,
});
const base: Surface = {
  instructions: "Use wisely.",
  tools: [
    tool("alpha", { annotations: { readOnlyHint: true } }),
    tool("beta"),
    tool("gamma", { title: "Gamma" }),
  ],
  resources: [
    { uri: "file:///a", name: "a" },
    { uri: "file:///b", name: "b", mimeType: "text/plain" },
  ],
  resourceTemplates: [{ uriTemplate: "atlas://spaces/{key}", name: "space" }],
  prompts: [{ name: "p", arguments: [{ name: "x", required: true }] }],
  rejects: [],
};
const fp = (s: Surface) => fingerprintSurface(s).surfaceSha256;
const sha = (t: string) => createHash("sha256").update(t, "utf8").digest("hex");

describe("surface fingerprint", () => {
  test("is the SHA-256 of canonicalize(document) — the assembled bytes equal RFC 8785 of the whole", () => {
    const f = fingerprintSurface(base);
    expect(f.canonical).toBe(canonicalize(fingerprintDocument(base)));
    expect(f.surfaceSha256).toBe(sha(f.canonical));
    expect(f.itemHashes.tools.map((h) => h.key)).toEqual(["alpha", "beta", "gamma"]);
    expect(f.itemHashes.tools[0]!.sha256).toBe(
      sha(
        canonicalize({
          name: "alpha",
          description: "The alpha tool.",
          inputSchema: base.tools[0]!.inputSchema,
          annotations: { readOnlyHint: true },
        })!,
      ),
    );
  });

  test("is independent of list order and of key order inside items", () => {
    const shuffled: Surface = {
      ...base,
      tools: [
        base.tools[2]!,
        base.tools[0]!,
        {
          description: "The beta tool.",
          inputSchema: { properties: { q: { type: "string" } }, type: "object" },
          name: "beta",
        },
      ],
      resources: [...base.resources].reverse(),
    };
    expect(fp(shuffled)).toBe(fp(base));
  });

  test.each([
    [
      "a changed description alone",
      (s: Surface) => ({
        ...s,
        tools: s.tools.map((t) =>
          t.name === "beta" ? { ...t, description: "The beta tool. " } : t,
        ),
      }),
    ],
    [
      "a rename",
      (s: Surface) => ({
        ...s,
        tools: s.tools.map((t) => (t.name === "beta" ? { ...t, name: "beta2" } : t)),
      }),
    ],
    ["a removal", (s: Surface) => ({ ...s, tools: s.tools.filter((t) => t.name !== "beta") })],
    [
      "an annotation flip",
      (s: Surface) => ({
        ...s,
        tools: s.tools.map((t) =>
          t.name === "alpha" ? { ...t, annotations: { readOnlyHint: false } } : t,
        ),
      }),
    ],
    [
      "a schema change",
      (s: Surface) => ({
        ...s,
        tools: s.tools.map((t) =>
          t.name === "beta" ? { ...t, inputSchema: { type: "object" } } : t,
        ),
      }),
    ],
    ["changed instructions", (s: Surface) => ({ ...s, instructions: "Use wisely!" })],
    ["no instructions", (s: Surface) => ({ ...s, instructions: null })],
    [
      "a resource mimeType",
      (s: Surface) => ({
        ...s,
        resources: [s.resources[0]!, { ...s.resources[1]!, mimeType: "text/html" }],
      }),
    ],
    [
      "a template description",
      (s: Surface) => ({
        ...s,
        resourceTemplates: [{ ...s.resourceTemplates[0]!, description: "x" }],
      }),
    ],
    [
      "a prompt argument becoming optional",
      (s: Surface) => ({
        ...s,
        prompts: [{ name: "p", arguments: [{ name: "x", required: false }] }],
      }),
    ],
    [
      "a rejected item appearing",
      (s: Surface) => ({ ...s, rejects: [{ list: "tools" as const, raw: { name: 42 } }] }),
    ],
  ])("changes with %s", (_what, change) => {
    expect(fp(change(base))).not.toBe(fp(base));
  });

  test("an absent field differs from an empty one; only listed fields count", () => {
    const withEmpty = {
      ...base,
      tools: base.tools.map((t) => (t.name === "gamma" ? { ...t, description: "" } : t)),
    };
    const withoutDesc = {
      ...base,
      tools: base.tools.map((t) =>
        t.name === "gamma" ? { name: t.name, title: "Gamma", inputSchema: t.inputSchema } : t,
      ),
    };
    expect(fp(withEmpty)).not.toBe(fp(withoutDesc));
    const withExtra = {
      ...base,
      tools: base.tools.map((t) => ({ ...t, _meta: { x: 1 }, icons: [] }) as ToolItem),
    };
    expect(fp(withExtra)).toBe(fp(base));
  });

  test("rejects with lone surrogates hash without throwing; an own __proto__ key counts", () => {
    const s: Surface = { ...base, rejects: [{ list: "tools", raw: { name: "bad \uD800" } }] };
    expect(() => fingerprintSurface(s)).not.toThrow();
    const proto = JSON.parse('{"type":"object","__proto__":{"x":1}}') as Record<string, unknown>;
    const a = { ...base, tools: [tool("alpha", { inputSchema: proto })] };
    const b = { ...base, tools: [tool("alpha", { inputSchema: { type: "object" } })] };
    expect(fp(a)).not.toBe(fp(b));
  });

  test("canonicalJson is byte-identical to the canonicalize package (the RFC 8785 oracle)", () => {
    const values: unknown[] = [
      fingerprintDocument(base),
      {
        b: 1,
        a: [1, 2.5, -0, 1e21, 1e-7, 123456789012345680000],
        "e\u0301": "é",
        é: null,
        "": "",
        "\ud83d\ude00": "astral key",
      },
      ["\u0000\u001f\u007f\u2028", "tab\tnl\n", '"quote"', "\\", true, false, null, [], {}],
      JSON.parse('{"__proto__":{"x":1},"z":{"y":[{"b":2,"a":1}]}}'),
      { ["\uE000"]: 1, ["\uD83D\uDE00"]: 2, a: 3 }, // UTF-16 order: U+1F600 (D83D…) sorts before U+E000
      [undefined, { skipped: undefined, kept: [undefined] }],
      { "\uD83D\uDE00 paired": "\uD83D\uDE00", nested: [[[{ z: 0, y: [{}] }]]] },
      // Integer-like keys (which objects enumerate first), upper before lower case, escaped keys.
      { "10": 1, "9": 2, a: 3, B: 4, _: 5, 'a"b': 6, "\u0000": 7, "": 8 },
      // More keys than the in-place sort handles, in scrambled order.
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, i])),
    ];
    for (const v of values) expect(canonicalJson(v)).toBe(canonicalize(v));
    // One key cache shared by every call, as a fingerprint shares one across a surface's items.
    const keyTexts = new Map<string, string>();
    for (const v of [...values, ...values])
      expect(canonicalJson(v, keyTexts)).toBe(canonicalize(v));
    expect(() => canonicalJson("\uD800")).toThrow();
    expect(() => canonicalJson({ "\uDC00": 1 })).toThrow();
    expect(() => canonicalJson([Number.NaN])).toThrow();
  });

  test("canonicalJson writes a value's own members, never what its toJSON returns", () => {
    class Tagged {
      b = 1;
      a = [2];
      toJSON() {
        return "not the members";
      }
    }
    class TaggedList extends Array<number> {
      toJSON() {
        return "not the elements";
      }
    }
    const list = TaggedList.from([3, 1]);
    expect(canonicalJson({ d: new Date(0), t: new Tagged(), l: list })).toBe(
      '{"d":{},"l":[3,1],"t":{"a":[2],"b":1}}',
    );
    expect(canonicalJson(new Date(0))).toBe("{}");
    expect(canonicalJson([new Tagged()])).toBe('[{"a":[2],"b":1}]');
  });

  test("canonicalJsonEach gives each value's canonicalJson, whatever the values hold", () => {
    const separatorLike = "\u0000relay-review canonical batch separator\u0000";
    const odd: unknown[] = [
      { list: ["a", separatorLike, "b"] }, // the batch separator as an element
      separatorLike,
      [separatorLike, separatorLike],
      { "C:\\udp": "\\ud800 is text, not an escape" },
      { "10": 1, "9": 2 },
      JSON.parse('{"__proto__":{"x":1},"a":1}'),
      { when: new Date(0) },
      { kept: { a: 1, b: [1, { c: 2 }] }, moved: { b: 1, a: 2 } },
      [undefined, { skipped: undefined }],
      "\uD83D\uDE00",
    ];
    const values = Array.from({ length: 250 }, (_, i) =>
      i % 10 === 0 ? odd[(i / 10) % odd.length] : { i, name: `t${i}`, z: [i], a: { y: 1, x: 2 } },
    );
    expect(canonicalJsonEach(values)).toEqual(values.map((v) => canonicalJson(v)));
    for (const v of values.filter((x) => !(x instanceof Object && "when" in x)))
      expect(canonicalJson(v)).toBe(canonicalize(v));
    // A value with no canonical form throws, as canonicalJson does.
    expect(() => canonicalJsonEach([...values, { bad: "\uD800" }])).toThrow();
    expect(() => canonicalJsonEach([{ n: Number.NaN }, ...values])).toThrow();
  });

  test("10,000 tools: one hash per item, each the hash of that item alone (the bench measures the 100 ms goal)", () => {
    const tools = Array.from({ length: 10_000 }, (_, i) =>
      tool(`t${i}`, { annotations: { readOnlyHint: i % 2 === 0 } }),
    );
    const { itemHashes } = fingerprintSurface({ ...base, tools });
    expect(itemHashes.tools).toHaveLength(10_000);
    expect(new Set(itemHashes.tools.map((h) => h.sha256)).size).toBe(10_000);
    const t42 = itemHashes.tools.find((h) => h.key === "t42")!;
    expect(t42.sha256).toBe(
      fingerprintSurface({ ...base, tools: [tools[42]!] }).itemHashes.tools[0]!.sha256,
    );
  });
});

/**
 * Pins: a fingerprint of a known surface must never change. A pin a reviewer made compares the
 * server's live surface with a stored hash, so any change to these bytes (a faster canonical form,
 * a field added to the projection) would break every existing pin.
 */
describe("fingerprint pins", () => {
  // docs/fingerprint.md § Worked example.
  const worked: Surface = {
    instructions: "Read-only reference.",
    tools: [
      {
        name: "read_page",
        description: "Read a wiki page, including its comment thread.",
        inputSchema: {
          type: "object",
          properties: { page_id: { type: "string" } },
          required: ["page_id"],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: "list_spaces",
        description: "List the wiki spaces the service identity can read.",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
      },
    ],
    resources: [],
    resourceTemplates: [
      { uriTemplate: "atlas://spaces/{key}", name: "space", mimeType: "application/json" },
    ],
    prompts: [],
    rejects: [],
  };

  test("the worked example of docs/fingerprint.md hashes to the values published there", () => {
    const f = fingerprintSurface(worked);
    expect(f.canonical.length).toBe(614);
    expect(f.surfaceSha256).toBe(
      "3e226128c2bd3f2f748fd532af1caeb48f4ad0a969ea0df4887d39a6be3d7257",
    );
    expect(f.itemHashes.tools).toEqual([
      {
        key: "list_spaces",
        sha256: "f7ad9ec4b06d5efba1c8847c4996fb0437f55769d2def39ac52af9118ebb3fb6",
      },
      {
        key: "read_page",
        sha256: "4fd363663382ed85eb494d364601421d18dfdbcd858d67d7322485c0638d8119",
      },
    ]);
    expect(f.itemHashes.resourceTemplates).toEqual([
      {
        key: "atlas://spaces/{key}",
        sha256: "ef5393f8670bf1df1056037424b1b41ecd923dc06634aa8141d5c2a20ff26aa3",
      },
    ]);
    expect(f.itemHashes.instructions).toBe(
      "4bb8a386b814f26a339b97306afe8da051b55eb2650d686df6ec069c7d5a793a",
    );
    const changed = structuredClone(worked);
    changed.tools[0]!.description += " Also fetches linked pages.";
    expect(fingerprintSurface(changed).surfaceSha256).toBe(
      "27ef2cc4f50c3d7bb28299a0de5e59356afa0b24c567def338f5952affb50005",
    );
  });

  test("10,000 tools, as the bench's server lists them, keep their fingerprint", () => {
    const tools: ToolItem[] = manyTools(10_000);
    // Listed in reverse: the fingerprint sorts, so list order must not matter.
    const f = fingerprintSurface({ ...worked, tools: tools.reverse() });
    expect(f.surfaceSha256).toBe(
      "a3fd8bb02a778aa0f59f1440fc22edfc4eeaf2f89c1ff9f0f6bea295cf159f3f",
    );
    expect(f.itemHashes.tools[1234]).toEqual({
      key: "tool_01234",
      sha256: "b5e23c331bb4d245d13bdfb4ae31751501717c10519d40b177e038cc16d1121b",
    });
  });
});
