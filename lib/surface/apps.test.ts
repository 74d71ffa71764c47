import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { convertItem } from "@/lib/mcp/convert";
import { readUiResources } from "@/lib/mcp/apps";
import { sha256Hex } from "@/lib/hash";
import {
  MAX_CSP_DOMAINS,
  isAppOnlyTool,
  uiDeclarations,
  uiResourceUris,
  type UiResourceItem,
} from "./apps";
import { describeItemChanges, diffSurfaces, surfaceItemChanges } from "./diff";
import { fingerprintDocument, fingerprintSurface } from "./fingerprint";
import type { Surface, ToolItem } from "./types";

const UI = "ui://dashboard/view.html";
const tool = (raw: Record<string, unknown>): ToolItem => {
  const c = convertItem("tools", raw, 1, 0);
  if (!c.ok) throw new Error(c.reject.reason);
  return c.item as ToolItem;
};
const base = { name: "show_dashboard", inputSchema: { type: "object" } };
const surface = (tools: ToolItem[], uiResources?: UiResourceItem[]): Surface => ({
  instructions: null,
  tools,
  resources: [],
  resourceTemplates: [],
  prompts: [],
  rejects: [],
  ...(uiResources ? { uiResources } : {}),
});
const fp = (s: Surface) => fingerprintSurface(s).surfaceSha256;

describe("MCP Apps metadata in the surface", () => {
  it("a tool without Apps metadata keeps no _meta: other _meta keys leave the fingerprint as it was", () => {
    const plain = tool(base);
    const other = tool({
      ...base,
      _meta: { "openai/outputTemplate": "x", ui: { prefersBorder: true } },
    });
    expect(other).toEqual(plain);
    expect(fp(surface([other]))).toBe(fp(surface([plain])));
    // And the document has no uiResources member without ui:// resources.
    expect(fingerprintSurface(surface([plain], [])).canonical).not.toContain("uiResources");
    expect(fingerprintSurface(surface([plain])).itemHashes.uiResources).toBeUndefined();
  });

  it("resourceUri and visibility are kept and hashed; changing either changes the fingerprint", () => {
    const ui = tool({ ...base, _meta: { ui: { resourceUri: UI }, other: 1 } });
    expect(ui._meta).toEqual({ ui: { resourceUri: UI } });
    const appOnly = tool({ ...base, _meta: { ui: { resourceUri: UI, visibility: ["app"] } } });
    expect(isAppOnlyTool(appOnly._meta)).toBe(true);
    expect(isAppOnlyTool(ui._meta)).toBe(false);
    const hashes = new Set([tool(base), ui, appOnly].map((t) => fp(surface([t]))));
    expect(hashes.size).toBe(3);
  });

  it("malformed or unbounded Apps metadata makes the tool a reject, with the reason", () => {
    for (const [meta, reason] of [
      [{ ui: { visibility: ["model", "everyone"] } }, /visibility/],
      [{ ui: { resourceUri: "https://evil.example/app.html" } }, /ui:\/\//],
      [{ ui: "ui://x" }, /must be an object/],
      [{ "ui/resourceUri": 7 }, /ui\/resourceUri/],
    ] as const) {
      const c = convertItem("tools", { ...base, _meta: meta }, 1, 0);
      expect(c.ok).toBe(false);
      if (!c.ok) expect(c.reject.reason).toMatch(reason);
    }
    const many = Array.from({ length: MAX_CSP_DOMAINS + 1 }, (_, i) => `https://h${i}.example`);
    const r = convertItem(
      "resources",
      { uri: UI, name: "d", _meta: { ui: { csp: { connectDomains: many } } } },
      1,
      0,
    );
    expect(r.ok).toBe(false);
  });

  it("read ui:// resources are hashed under uiResources (CSP and permissions count; an unread reason does not)", async () => {
    const read = (connectDomains: string[]) =>
      readUiResources([UI], () =>
        Promise.resolve({
          contents: [
            {
              uri: UI,
              mimeType: "text/html;profile=mcp-app",
              text: "<html></html>",
              _meta: {
                ui: { csp: { connectDomains }, permissions: { camera: {} }, prefersBorder: true },
              },
            },
          ],
        }),
      );
    const a = await read(["https://api.example"]);
    expect(a).toEqual([
      {
        uri: UI,
        mimeType: "text/html;profile=mcp-app",
        _meta: {
          ui: { csp: { connectDomains: ["https://api.example"] }, permissions: { camera: {} } },
        },
      },
    ]);
    const t = tool({ ...base, _meta: { ui: { resourceUri: UI } } });
    const s = surface([t], a);
    const f = fingerprintSurface(s);
    // The assembled bytes are RFC 8785 of the documented document (uiResources last).
    expect(f.canonical).toBe(canonicalize(fingerprintDocument(s)));
    expect(f.canonical.endsWith(`"uiResources":[${canonicalize(a[0])}]}`)).toBe(true);
    expect(f.itemHashes.uiResources).toEqual([{ key: UI, sha256: sha256Hex(canonicalize(a[0])!) }]);
    expect(fp(surface([t], await read(["https://other.example"])))).not.toBe(f.surfaceSha256);

    // A pin diff names the UI resource and the field that changed.
    const diff = diffSurfaces(s, surface([t], await read(["https://other.example"])));
    expect(diff.isEqual).toBe(false);
    expect(diff.uiResources?.changed.map((c) => [c.key, c.fields.map((f) => f.field)])).toEqual([
      [UI, ["_meta"]],
    ]);
    expect(describeItemChanges(surfaceItemChanges(diff))).toBe(
      `UI resource "${UI}" changed (_meta)`,
    );
    expect(diffSurfaces(s, s).isEqual).toBe(true);

    const failing = (reason: string) =>
      readUiResources([UI], () => Promise.reject(new Error(reason)));
    const x = await failing("boom");
    expect(x[0]).toMatchObject({ uri: UI, unreadable: true });
    expect(fp(surface([t], x))).toBe(fp(surface([t], await failing("another message"))));
    expect(fp(surface([t], x))).not.toBe(f.surfaceSha256);
  });

  it("lists the ui:// URIs to read and what each UI declares", () => {
    const show = tool({ ...base, _meta: { ui: { resourceUri: UI } } });
    const refresh = tool({
      ...base,
      name: "refresh",
      _meta: { ui: { resourceUri: UI, visibility: ["app"] } },
    });
    expect(
      uiResourceUris([show, refresh], [{ uri: "ui://b/x" }, { uri: "https://not-ui" }]),
    ).toEqual(["ui://b/x", UI]);
    const [d] = uiDeclarations(
      [{ uri: UI, _meta: { ui: { permissions: { microphone: {}, clipboardWrite: {} } } } }],
      [],
      [show, refresh],
    );
    expect(d).toMatchObject({
      permissions: ["microphone", "clipboardWrite"],
      renderedBy: ["show_dashboard", "refresh"],
      appOnlyTools: ["refresh"],
    });
  });
});
