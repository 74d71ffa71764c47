import { describe, expect, it, test } from "vitest";
import { ROLE_KEYWORD_RULES, newRoleCache, resolveRoles, roleMask, roleSet, suggestRoles, tokenize } from "./suggest";

const roles = (t: Parameters<typeof suggestRoles>[0]) => suggestRoles(t).roles.map((r) => r.role);

describe("suggestRoles", () => {
  it("an absent hint is not safe: a tool with no annotations is suggested as every kind of sink", () => {
    expect(roles({ name: "do_thing" })).toEqual(["returns_untrusted_text", "writes", "deploys_or_destroys", "network_or_shares"]);
    const s = suggestRoles({ name: "do_thing" });
    expect(s.roles.find((r) => r.role === "writes")?.reasons[0]).toMatch(/spec default/);
    expect(s.annotations.destructiveHint).toEqual({ value: true, origin: "spec_default" });
  });

  it("a declared read-only, closed-world tool gets roles from keywords only", () => {
    expect(roles({ name: "list_spaces", annotations: { readOnlyHint: true, openWorldHint: false } })).toEqual(["returns_untrusted_text"]);
  });

  test.each([
    ["knowledge_search", "Search tickets", { readOnlyHint: true }, ["returns_untrusted_text"]],
    ["trigger_deploy", "Trigger a production deploy", { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, ["writes", "deploys_or_destroys"]],
    ["share_file", "Share a file with a user", { readOnlyHint: false, destructiveHint: false, openWorldHint: true }, ["returns_untrusted_text", "reads_private_data", "writes", "network_or_shares"]],
    ["fetch_url", "Fetch a web page", { readOnlyHint: true, openWorldHint: true }, ["returns_untrusted_text", "network_or_shares"]],
    ["get-env", "Returns all environment variables", { readOnlyHint: true, openWorldHint: false }, ["returns_untrusted_text", "reads_private_data"]],
    ["deleteRepository", "", { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, ["writes", "deploys_or_destroys"]],
    ["send_email", "", { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, ["reads_private_data", "writes", "network_or_shares"]],
  ])("%s → %j", (name, description, annotations, expected) => {
    expect(roles({ name, description, annotations })).toEqual(expected);
  });

  it("every suggested role carries at least one reason", () => {
    for (const r of suggestRoles({ name: "upload_and_delete", description: "Uploads a file, then deletes it" }).roles) expect(r.reasons.length).toBeGreaterThan(0);
  });

  it("mapped sources make a tool return their text", () => {
    const s = suggestRoles({ name: "x", annotations: { readOnlyHint: true, openWorldHint: false } }, { sourceIds: ["support-portal" as never], roles: [], rolesConfirmed: false });
    expect(s.roles).toMatchObject([{ role: "returns_untrusted_text", reasons: ["returns text from 1 mapped source(s): support-portal"] }]);
  });
});

describe("resolveRoles", () => {
  const tool = { name: "trigger_deploy", annotations: { destructiveHint: true } };
  const base = { serverId: "deploy-tools" as never, tool: "trigger_deploy", sourceIds: [] };

  it("a confirmed assessment is authoritative", () => {
    const r = resolveRoles(tool, { ...base, roles: ["deploys_or_destroys"], rolesConfirmed: true });
    expect(r).toMatchObject({ roles: ["deploys_or_destroys"], origin: "confirmed" });
  });

  it("otherwise the suggestion is used and marked as such, including unconfirmed entered roles", () => {
    const r = resolveRoles({ name: "lookup", annotations: { readOnlyHint: true, openWorldHint: false } }, { ...base, roles: ["reads_private_data"], rolesConfirmed: false });
    expect(r.origin).toBe("suggested");
    expect(r.roles).toEqual(["returns_untrusted_text", "reads_private_data"]);
  });
});

describe("keyword matching", () => {
  // The definition: per rule, the first word of the name (then of the description) in its list; a
  // rule with completing words fires only with the first such word of the name, else of the description.
  function referenceKeywordReasons(name: string, description: string): string[] {
    const nameWords = tokenize(name);
    const descWords = tokenize(description);
    const out: string[] = [];
    for (const rule of ROLE_KEYWORD_RULES) {
      for (const [where, words] of [["name", nameWords], ["description", descWords]] as const) {
        const hit = words.find((w) => rule.words.includes(w));
        if (!hit) continue;
        const completing = rule.with ? (nameWords.find((w) => rule.with?.includes(w)) ?? descWords.find((w) => rule.with?.includes(w))) : undefined;
        if (rule.with && !completing) continue;
        out.push(`${rule.role}: ${completing ? `${where} says "${hit}" with "${completing}"` : `${where} says "${hit}"`}: ${rule.why}`);
      }
    }
    return out;
  }
  const keywordReasons = (name: string, description: string) =>
    suggestRoles({ name, description, annotations: { readOnlyHint: true, openWorldHint: false } }).roles.flatMap((r) => r.reasons.map((reason) => `${r.role}: ${reason}`));
  const sorted = (xs: string[]) => [...new Set(xs)].sort();

  test.each([
    ["fetchUrl", "Fetch a web page"],
    ["getUser", "Gets the user PROFILE by email"],
    ["send_mail", "Sends email; posts to Slack"],
    ["URLFetch", "download the link"],
    ["deleteRepository2", "İstanbul deploy"],
    ["naïve_search", "Café — read the inbox"],
    ["searchsearch", "search-search"],
    ["", ""],
  ])("%j / %j matches the definition", (name, description) => {
    expect(sorted(keywordReasons(name, description))).toEqual(sorted(referenceKeywordReasons(name, description)));
  });

  it("matches the definition on generated names and descriptions", () => {
    let seed = 11;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const pieces = ["get", "Get", "url", "URL", "fetch", "web", "send", "mail", "e", "_", "-", " ", ".", "X", "9", "post", "s", "delete", "İ", "é", "Search", "link", "links", "user", "users"];
    const text = () => Array.from({ length: Math.floor(rand() * 8) }, () => pieces[Math.floor(rand() * pieces.length)]).join("");
    for (let i = 0; i < 3000; i++) {
      const [name, description] = [text(), text()];
      expect(sorted(keywordReasons(name, description)), `${name} / ${description}`).toEqual(sorted(referenceKeywordReasons(name, description)));
    }
  });
});

describe("the role cache of one analysis", () => {
  const assessment = (over: object = {}) => ({ serverId: "s" as never, tool: "t", sourceIds: [], roles: [], rolesConfirmed: false, ...over });

  it("gives tools with the same reasons one shared resolution, whose roles cannot be changed", () => {
    const cache = newRoleCache();
    const a = resolveRoles({ name: "search_pages", description: "Search pages" }, null, cache);
    const b = resolveRoles({ name: "search_issues", description: "Search issues" }, null, cache);
    expect(b).toBe(a);
    expect(Object.isFrozen(a.roles)).toBe(true);
    expect(() => (a.roles as string[]).push("writes")).toThrow(TypeError);
    // Without a cache every call is its own object, equal in content.
    expect(resolveRoles({ name: "search_pages", description: "Search pages" })).not.toBe(a);
    expect(resolveRoles({ name: "search_pages", description: "Search pages" })).toEqual(a);
  });

  it("keeps apart what differs: a hint, a keyword, a confirmation, a tool's own mapped sources", () => {
    const cache = newRoleCache();
    const base = resolveRoles({ name: "get_page", annotations: { readOnlyHint: true } }, null, cache);
    expect(resolveRoles({ name: "get_page", annotations: { readOnlyHint: true, openWorldHint: false } }, null, cache)).not.toBe(base);
    expect(resolveRoles({ name: "read_page", annotations: { readOnlyHint: true } }, null, cache).suggestion.roles).not.toEqual(base.suggestion.roles);
    const confirmed = resolveRoles({ name: "get_page", annotations: { readOnlyHint: true } }, assessment({ roles: ["writes"], rolesConfirmed: true }), cache);
    expect(confirmed.origin).toBe("confirmed");
    expect(confirmed.roles).toEqual(["writes"]);
    expect(confirmed.suggestion).toBe(base.suggestion);
    const one = resolveRoles({ name: "get_page" }, assessment({ sourceIds: ["wiki"] }), cache);
    const other = resolveRoles({ name: "get_page" }, assessment({ sourceIds: ["portal"] }), cache);
    expect(one.reasons[0]?.reasons).toContain("returns text from 1 mapped source(s): wiki");
    expect(other.reasons[0]?.reasons).toContain("returns text from 1 mapped source(s): portal");
  });

  it("role sets and masks agree for every set", () => {
    for (let mask = 0; mask < 32; mask++) expect(roleMask(roleSet(mask))).toBe(mask);
    expect(roleSet(roleMask(["writes", "returns_untrusted_text"]))).toEqual(["returns_untrusted_text", "writes"]);
  });
});

describe("tokenize", () => {
  // The definition the one-pass scanner must match, word for word.
  const reference = (text: string) =>
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0);

  test.each([["deleteRepository"], ["get-env"], ["fetch_URL v2"], ["ABCdef"], ["a1B2c3"], ["  __x__  "], [""], ["HTTPServer2Go"], ["naïve Café"], ["İstanbul K"]])("%j splits as the regex does", (text) => {
    expect(tokenize(text)).toEqual(reference(text));
  });

  it("matches the regex on generated ASCII text", () => {
    let s = 7;
    const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const alphabet = "aZ9_-. /bY0cX";
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: Math.floor(rand() * 16) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join("");
      expect(tokenize(text)).toEqual(reference(text));
    }
  });
});
