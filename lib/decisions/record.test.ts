import { sign } from "node:crypto";
import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors";
import { FINGERPRINT_VERSION } from "@/lib/surface/fingerprint";
import { parseRegistrationRecord } from "@/lib/surface/registration";
import { canonicalJson } from "@/lib/hash";
import { DEMO_KNOWLEDGE_MCP_ARGS } from "@/lib/review/demo";
import {
  DecisionRecordSchema,
  RECORD_FINGERPRINT_VERSION,
  buildDecisionRecord,
  parseDecisionRecord,
  signRecord,
  signingInput,
  signingKeyId,
  verifyRecord,
  type DecisionRecord,
} from "@/lib/decisions/record";
import {
  SEED_SURFACE,
  newKeyPair,
  reviewWithDecision,
  unsignedOnCallRecord,
} from "@/tests/decisions/fixtures";

const keys = newKeyPair();
const other = newKeyPair();
const signed = () =>
  signRecord(unsignedOnCallRecord(), keys.privateKey, signingKeyId(keys.publicKey));
const clone = (r: DecisionRecord) => structuredClone<DecisionRecord>(r);

/** Same members, keys in reverse order at every level. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  return value;
}

describe("decision record", () => {
  test("has the seed's registration shape, transport names only, and the checks at issue time", () => {
    const r = unsignedOnCallRecord();
    expect(r).toMatchObject({
      // Version 3 (issue 29 item 3): the record names people instead of a typed reviewer.
      recordVersion: 3,
      kind: "relay-review.decision",
      review: { id: "rev-demo", revision: 5 },
      basis: { kind: "live_surface" },
      server: { name: "knowledge-mcp", transport: { kind: "stdio", envNames: [], headerEnv: {} } },
      agent: { name: "on-call agent" },
      registration: {
        server: "knowledge-mcp",
        image: expect.stringMatching(/@sha256:9f3c/) as unknown,
        surface_sha256: r.decision.bound.surfaceSha256,
        surface: {
          tools: [...SEED_SURFACE.tools].sort(),
          resources: [],
          resourceTemplates: ["atlas://spaces/{key}"],
          prompts: [],
        },
        on_surface_change: "block",
      },
    });
    expect(r.conditionChecks.map((c) => c.holds)).toEqual([true, true, true]);
    // The server's launch command (its script path) stays out of a record that is shared.
    expect(JSON.stringify(r)).not.toContain(DEMO_KNOWLEDGE_MCP_ARGS[0]);
  });

  test("http transports keep header and env names, never the URL or values", () => {
    const { review, decision } = reviewWithDecision();
    review.servers[0]!.transport = {
      kind: "http",
      url: "https://mcp.example/?token=s3cret",
      headerEnv: { Authorization: "KM_TOKEN" },
    };
    const r = buildDecisionRecord({
      review,
      reviewId: "r",
      revision: 5,
      decision,
      issuedAt: new Date(),
      currentSurfaceSha256: decision.bound.surfaceSha256,
    });
    expect(r.server.transport).toEqual({
      kind: "http",
      envNames: ["KM_TOKEN"],
      headerEnv: { Authorization: "KM_TOKEN" },
    });
    expect(JSON.stringify(r)).not.toContain("s3cret");
    expect(r.registration).toBeNull();
  });

  test("every variable a server is given is named, ${NAME}s in its args and URL included", () => {
    const { review, decision } = reviewWithDecision();
    const build = () =>
      buildDecisionRecord({
        review,
        reviewId: "r",
        revision: 5,
        decision,
        issuedAt: new Date(),
        currentSurfaceSha256: decision.bound.surfaceSha256,
      });
    review.servers[0]!.transport = {
      kind: "stdio",
      command: "npx",
      args: ["-y", "gl-mcp", "--token=${GITLAB_TOKEN}"],
      envNames: ["GITLAB_API_URL"],
    };
    expect(build().server.transport).toEqual({
      kind: "stdio",
      envNames: ["GITLAB_API_URL", "GITLAB_TOKEN"],
      headerEnv: {},
    });
    review.servers[0]!.transport = {
      kind: "http",
      url: "https://mcp.example/mcp?api_key=${MCP_KEY}",
      headerEnv: { Authorization: "KM_TOKEN" },
    };
    expect(build().server.transport).toEqual({
      kind: "http",
      envNames: ["KM_TOKEN", "MCP_KEY"],
      headerEnv: { Authorization: "KM_TOKEN" },
    });
  });

  test("a decision made against declared tools says so and has no registration", () => {
    const r = unsignedOnCallRecord({ surfaceSha256: null });
    expect(r.basis).toEqual({
      kind: "declared_tools",
      statement: "made against declared tools, not a live surface",
    });
    expect(r.registration).toBeNull();
  });

  test("the registration block is a lib/surface registration record (same fingerprint version)", () => {
    const r = unsignedOnCallRecord();
    expect(RECORD_FINGERPRINT_VERSION).toBe(FINGERPRINT_VERSION);
    expect(parseRegistrationRecord(r.registration)).toMatchObject({
      ok: true,
      record: { surface_sha256: r.decision.bound.surfaceSha256 },
    });
  });

  test("refuses a registration surface other than the bound one", () => {
    expect(() =>
      unsignedOnCallRecord({}, { surface: { ...SEED_SURFACE, surfaceSha256: "f".repeat(64) } }),
    ).toThrow(/not the one the decision is bound to/);
  });

  test("a stale decision cannot be exported", () => {
    const { review, decision } = reviewWithDecision();
    review.controls.credentials[0]!.scopes.push("write:issue");
    expect(() =>
      buildDecisionRecord({
        review,
        reviewId: "r",
        revision: 6,
        decision,
        issuedAt: new Date(),
        currentSurfaceSha256: decision.bound.surfaceSha256,
      }),
    ).toThrow(/stale .*controls changed/);
  });

  test("round-trips through JSON and the schema unchanged", () => {
    const record = signed();
    const text = JSON.stringify(record, null, 2);
    const parsed = parseDecisionRecord(text);
    expect(parsed).toEqual({ ok: true, record });
    expect(DecisionRecordSchema.parse(JSON.parse(text))).toEqual(record);
  });

  test.each([
    ["an unknown field", (r: Record<string, unknown>) => void (r.extra = 1), "malformed"],
    ["a wrong version", (r: Record<string, unknown>) => void (r.recordVersion = 4), "malformed"],
    ["no signature", (r: Record<string, unknown>) => void delete r.signature, "unsigned"],
    [
      "a tool set out of order",
      (r: Record<string, unknown>) =>
        void (r.decision as DecisionRecord["decision"]).toolSet.reverse(),
      "malformed",
    ],
  ])("parse rejects %s", (_label, mutate, reason) => {
    const r = clone(signed()) as unknown as Record<string, unknown>;
    mutate(r);
    const result = parseDecisionRecord(r);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBeInstanceOf(AppError);
      expect(result.error.details).toEqual({ reason });
    }
  });

  test("parse rejects text that is not JSON", () => {
    expect(parseDecisionRecord("{nope").ok).toBe(false);
  });
});

describe("signature", () => {
  test("keyId is the first 16 hex of SHA-256 of the raw public key", async () => {
    const { createHash } = await import("node:crypto");
    const raw = Buffer.from(keys.publicKey.export({ format: "jwk" }).x!, "base64url");
    expect(raw).toHaveLength(32);
    expect(signingKeyId(keys.publicKey)).toBe(
      createHash("sha256").update(raw).digest("hex").slice(0, 16),
    );
    expect(signingKeyId(keys.privateKey)).toBe(signingKeyId(keys.publicKey));
  });

  test("covers the canonical JSON of the record without the signature", async () => {
    const { verify } = await import("node:crypto");
    const record = signed();
    const { signature, ...rest } = record;
    expect(
      verify(
        null,
        Buffer.from(canonicalJson(rest)),
        keys.publicKey,
        Buffer.from(signature.value, "base64"),
      ),
    ).toBe(true);
  });

  test("a signed record verifies, also as JSON text and with the PEM key", () => {
    const record = signed();
    expect(verifyRecord(record, keys.publicKey)).toMatchObject({
      ok: true,
      keyId: signingKeyId(keys.publicKey),
    });
    const pem = keys.publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(verifyRecord(JSON.stringify(record), pem).ok).toBe(true);
  });

  test("reordered keys still verify: the signature is over the canonical form", () => {
    const reordered = reverseKeys(signed());
    expect(Object.keys(reordered as object)[0]).toBe("signature");
    expect(verifyRecord(JSON.stringify(reordered, null, 4), keys.publicKey).ok).toBe(true);
  });

  const tamper: [string, (r: DecisionRecord) => void][] = [
    [
      "one character of the rationale",
      (r) => void (r.decision.rationale = r.decision.rationale.replace("read-only", "read-onlY")),
    ],
    ["one character of the tool set", (r) => void (r.decision.toolSet[0]!.tool = "trigger_deplor")],
    ["the verdict", (r) => void (r.decision.verdict = "approved")],
    [
      "a bound fingerprint",
      (r) =>
        void (r.decision.bound.surfaceSha256 = r.decision.bound.surfaceSha256!.replace(
          "b",
          "c",
        ) as never),
    ],
    [
      "the registration's on_surface_change",
      (r) => void (r.registration!.on_surface_change = "warn"),
    ],
    ["an added field", (r) => void ((r as unknown as Record<string, unknown>).note = "harmless?")],
  ];
  test.each(tamper)("changing %s fails as tampered", (_label, mutate) => {
    const r = clone(signed());
    mutate(r);
    const result = verifyRecord(r, keys.publicKey);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toBe("tampered");
  });

  test("a signature whose base64 is not canonical is refused, though it decodes to the same bytes", () => {
    const record = signed();
    const value = record.signature.value; // 86 characters and "==": the 86th carries 4 unused bits
    const last = value[85]!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const variants = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(
      (bits) => value.slice(0, 85) + alphabet[alphabet.indexOf(last) ^ bits] + "==",
    );
    // Some variants decode to the very same 64 bytes: the signature alone would not notice.
    const same = variants.filter((v) =>
      Buffer.from(v, "base64").equals(Buffer.from(value, "base64")),
    );
    expect(same.length).toBeGreaterThan(0);
    for (const v of same) {
      const altered = { ...record, signature: { ...record.signature, value: v } };
      expect(verifyRecord(JSON.stringify(altered), keys.publicKey)).toMatchObject({
        ok: false,
        reason: "malformed",
      });
      expect(parseDecisionRecord(altered).ok).toBe(false);
    }
    expect(verifyRecord(record, keys.publicKey).ok).toBe(true);
  });

  test("the keyId alone changed on a valid signature is tampered", () => {
    const record = signed();
    const relabelled = {
      ...record,
      signature: { ...record.signature, keyId: signingKeyId(other.publicKey) },
    };
    // The signature still verifies with this key, but the label lies about which key made it.
    expect(verifyRecord(relabelled, keys.publicKey)).toMatchObject({
      ok: false,
      reason: "tampered",
      message: expect.stringMatching(/keyId was changed/) as unknown,
    });
  });

  test("a wrong key fails as wrong_key", () => {
    expect(verifyRecord(signed(), other.publicKey)).toMatchObject({
      ok: false,
      reason: "wrong_key",
      message: expect.stringContaining(signingKeyId(keys.publicKey)) as unknown,
    });
  });

  test("unsigned fails as unsigned", () => {
    expect(verifyRecord(unsignedOnCallRecord(), keys.publicKey)).toMatchObject({
      ok: false,
      reason: "unsigned",
    });
    expect(verifyRecord({ ...signed(), signature: null }, keys.publicKey)).toMatchObject({
      ok: false,
      reason: "unsigned",
    });
  });

  test.each([
    ["not JSON", "{"],
    ["not an object", "[1,2]"],
    ["null", null],
    ["a number", 42],
    ["another kind", { kind: "x", recordVersion: 1 }],
    [
      "a bad signature field",
      { ...signedOnce(), signature: { alg: "RS256", keyId: "x", value: "y" } },
    ],
    [
      "a lone surrogate",
      { ...signedOnce(), decision: { ...signedOnce().decision, rationale: "\ud800" } },
    ],
  ])("malformed input (%s) fails as malformed, without throwing", (_label, input) => {
    expect(verifyRecord(input, keys.publicKey)).toMatchObject({ ok: false, reason: "malformed" });
  });

  test("a validly signed record that breaks the schema is malformed", async () => {
    const { sign } = await import("node:crypto");
    const { signature: _s, ...unsigned } = signed();
    const bad = { ...unsigned, decision: { ...unsigned.decision, rationale: "" } };
    const value = sign(null, Buffer.from(canonicalJson(bad)), keys.privateKey).toString("base64");
    const result = verifyRecord(
      { ...bad, signature: { alg: "Ed25519", keyId: signingKeyId(keys.publicKey), value } },
      keys.publicKey,
    );
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
  });

  test("a key that is not Ed25519 is bad_key", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey;
    expect(verifyRecord(signed(), rsa)).toMatchObject({ ok: false, reason: "bad_key" });
    expect(verifyRecord(signed(), "not a pem")).toMatchObject({ ok: false, reason: "bad_key" });
  });

  test("signRecord refuses a keyId that is not the key's", () => {
    expect(() => signRecord(unsignedOnCallRecord(), keys.privateKey, "0123456789abcdef")).toThrow(
      /not the id of this key/,
    );
  });
});

let once: DecisionRecord | undefined;
function signedOnce(): DecisionRecord {
  once ??= signed();
  return once;
}

describe("duplicate keys", () => {
  // JSON.parse keeps the last "verdict", so the signature verifies; a reader keeping the first sees "rejected".
  const smuggled = () => {
    const text = JSON.stringify(signedOnce());
    return text.replace('"decision":{', '"decision":{"verdict":"rejected",');
  };

  test("a verdict smuggled before the signed one is malformed, naming the key path", () => {
    expect((JSON.parse(smuggled()) as DecisionRecord).decision.verdict).toBe(
      "approved_with_conditions",
    );
    const result = verifyRecord(smuggled(), keys.publicKey);
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
    expect(!result.ok && result.message).toContain('duplicate key "verdict" at decision.verdict');
    const parsed = parseDecisionRecord(smuggled());
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.userMessage).toContain("decision.verdict");
  });

  test("a duplicate at the top level or deep inside is refused too; the untouched text verifies", () => {
    const text = JSON.stringify(signedOnce());
    expect(verifyRecord(text, keys.publicKey).ok).toBe(true);
    const top = text.replace('{"recordVersion":3', '{"recordVersion":3,"recordVersion":3');
    expect(verifyRecord(top, keys.publicKey)).toMatchObject({
      ok: false,
      message: expect.stringContaining("at recordVersion") as unknown,
    });
    const deep = text.replace('"toolSet":[{', '"toolSet":[{"tool":"x",');
    expect(verifyRecord(deep, keys.publicKey)).toMatchObject({
      ok: false,
      message: expect.stringContaining("at decision.toolSet[0].tool") as unknown,
    });
  });
});

describe("record version 2: accepted risk and supersession", () => {
  const accepted = {
    findingId: "fnd-0904a035e353ad8e669034b6",
    kind: "path.to_sensitive_sink",
    severity: "critical" as const,
    text: "Text written into Tracker: support portal project (SUP) can reach trigger_deploy",
    ends: { from: "Tracker: support portal project (SUP)", to: "trigger_deploy on deploy-tools" },
    owner: "Head of Platform",
    why: "Deploys are rare and watched",
    until: "2026-04-05T10:00:00.000Z",
  };

  test("an approval's record carries what it accepts and what it supersedes, under the signature", () => {
    const record = signRecord(
      unsignedOnCallRecord({ acceptedRisks: [accepted], supersedes: "dec-earlier" }),
      keys.privateKey,
    );
    expect(record.recordVersion).toBe(3);
    expect(record.decision.acceptedRisks).toEqual([accepted]);
    expect(record.decision.supersedes).toBe("dec-earlier");
    expect(verifyRecord(JSON.stringify(record), keys.publicKey).ok).toBe(true);
    const moved = clone(record);
    moved.decision.acceptedRisks![0]!.until = "2030-01-01T00:00:00.000Z";
    expect(verifyRecord(moved, keys.publicKey)).toMatchObject({ ok: false, reason: "tampered" });
    // An approval that accepts nothing says so.
    expect(unsignedOnCallRecord().decision.acceptedRisks).toEqual([]);
  });

  test("a version 1 record (before acceptance was recorded) still verifies; one claiming v1 with v2 fields is malformed", () => {
    const {
      acceptedRisks: _a,
      supersedes: _s,
      author: _au,
      requiredApprovals: _r,
      approvals: _ap,
      ...rest
    } = unsignedOnCallRecord().decision;
    const v1decision = { ...rest, reviewer: "Ada" };
    const v1 = signRecord(
      { ...unsignedOnCallRecord(), recordVersion: 1, decision: v1decision },
      keys.privateKey,
    );
    expect(verifyRecord(JSON.stringify(v1), keys.publicKey)).toMatchObject({ ok: true });
    // Signed as it stands (signRecord would refuse it): a v2 record without what v2 must say.
    const unsignedMixed = { ...unsignedOnCallRecord(), recordVersion: 2, decision: v1decision };
    const mixed = {
      ...unsignedMixed,
      signature: {
        alg: "Ed25519",
        keyId: signingKeyId(keys.publicKey),
        value: sign(null, signingInput(unsignedMixed), keys.privateKey).toString("base64"),
      },
    };
    expect(verifyRecord(mixed, keys.publicKey)).toMatchObject({
      ok: false,
      reason: "malformed",
    });
    expect(() =>
      signRecord(
        { ...unsignedOnCallRecord({ acceptedRisks: [accepted] }), recordVersion: 1 },
        keys.privateKey,
      ),
    ).toThrow(/appears only in version 2 records/);
  });

  test("a superseded decision gets no record", () => {
    expect(() => unsignedOnCallRecord({}, { supersededBy: "dec-newer" })).toThrow(
      /superseded by decision dec-newer/,
    );
  });
});
