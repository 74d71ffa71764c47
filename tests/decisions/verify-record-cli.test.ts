/**
 * `relay-review verify-record` as a real child process: exit codes and reasons for each outcome,
 * and the live surface check against a real stdio server (@modelcontextprotocol/server-everything).
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { buildRegistrationRecord } from "@/lib/surface/registration";
import type { SurfaceSnapshot } from "@/lib/surface/types";
import { signRecord, type DecisionRecord } from "@/lib/decisions/record";
import { SURFACE_SHA, unsignedOnCallRecord } from "@/tests/decisions/fixtures";
import { ROOT, runCli } from "@/tests/support/cli";

const EVERYTHING = [
  process.execPath,
  path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
  "stdio",
];

let dir: string;
const keys = generateKeyPairSync("ed25519");
const other = generateKeyPairSync("ed25519");
const pem = (k: typeof keys.publicKey) => k.export({ type: "spki", format: "pem" }).toString();

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(["verify-record", ...args], { ...process.env, ...env });

const file = async (name: string, value: unknown) => {
  const p = path.join(dir, name);
  await writeFile(p, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return p;
};

let signed: DecisionRecord;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "rr-verify-"));
  // Issued now: older than --max-age-days (default 90) is refused, tested below.
  signed = signRecord(
    unsignedOnCallRecord({}, { issuedAt: new Date().toISOString() }),
    keys.privateKey,
  );
  await file("pub.pem", pem(keys.publicKey));
  await file("other.pem", pem(other.publicKey));
  await file("signing-key.pub.pem", pem(keys.publicKey));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Each case starts a CLI process through tsx; on a loaded machine that takes well over the default 30 s.
describe.concurrent("verify-record: the record's age", { timeout: 90_000 }, () => {
  const issuedDaysAgo = (days: number) =>
    signRecord(
      unsignedOnCallRecord(
        {},
        { issuedAt: new Date(Date.now() - days * 86_400_000).toISOString() },
      ),
      keys.privateKey,
    );

  test("a record issued more than 90 days ago is refused by default, naming the bound and the flag", async () => {
    const r = await cli([
      await file("old.json", issuedDaysAgo(100)),
      "--public-key",
      path.join(dir, "pub.pem"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("100 days ago, beyond --max-age-days 90");
    expect(r.stdout).not.toContain("valid:");
  });

  test("--max-age-days sets another bound", async () => {
    const old = await file("old-365.json", issuedDaysAgo(100));
    const key = path.join(dir, "pub.pem");
    expect((await cli([old, "--public-key", key, "--max-age-days", "365"])).code).toBe(0);
    const tight = await cli([
      await file("ten.json", issuedDaysAgo(10)),
      "--public-key",
      key,
      "--max-age-days",
      "7",
    ]);
    expect(tight.code).toBe(1);
    expect(tight.stderr).toContain("beyond --max-age-days 7");
    const bad = await cli([old, "--public-key", key, "--max-age-days", "soon"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-age-days must be a whole number");
  });
});

describe.concurrent("verify-record: the signature", { timeout: 90_000 }, () => {
  test("a valid record exits 0 and says what it vouches for", async () => {
    const r = await cli([await file("ok.json", signed), "--public-key", path.join(dir, "pub.pem")]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^valid: signed by key [0-9a-f]{16}/);
    expect(r.stdout).toContain("approved_with_conditions, knowledge-mcp into on-call agent");
  });

  test("an approval that accepts risk says so: each finding, its owner, why and until when", async () => {
    // Issued today: a record past the default maximum age (90 days) is refused before it is read.
    const until = new Date(Date.now() + 60 * 86_400_000).toISOString();
    const accepting = signRecord(
      unsignedOnCallRecord(
        {
          acceptedRisks: [
            {
              findingId: "fnd-0904a035e353ad8e669034b6",
              kind: "path.to_sensitive_sink",
              severity: "critical",
              text: "Text written into the support portal can reach trigger_deploy",
              ends: { from: "Tracker: support portal project (SUP)", to: "trigger_deploy" },
              owner: "Head of Platform",
              why: "Deploys need a second person",
              until,
            },
          ],
        },
        { issuedAt: new Date().toISOString() },
      ),
      keys.privateKey,
    );
    const r = await cli([
      await file("accepting.json", accepting),
      "--public-key",
      path.join(dir, "pub.pem"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`ACCEPTS RISK: 1 open finding, until ${until} at the earliest:`);
    expect(r.stdout).toContain(
      `critical fnd-0904a035e353ad8e669034b6 path.to_sensitive_sink: Text written into the support portal can reach trigger_deploy; owner Head of Platform, until ${until}; why: Deploys need a second person`,
    );
    const plain = await cli([
      await file("plain.json", signed),
      "--public-key",
      path.join(dir, "pub.pem"),
    ]);
    expect(plain.stdout).toContain("accepts no open finding");
  });

  test("an acceptance whose until has passed: exit 1, like a too-old record, naming the finding, its kind and the date", async () => {
    const ended = new Date(Date.now() - 86_400_000).toISOString();
    const current = new Date(Date.now() + 60 * 86_400_000).toISOString();
    const risk = (findingId: string, until: string) => ({
      findingId,
      kind: "path.to_sensitive_sink",
      severity: "critical" as const,
      text: "Text written into the support portal can reach trigger_deploy",
      ends: { from: "Tracker: support portal project (SUP)", to: "trigger_deploy" },
      owner: "Head of Platform",
      why: "Deploys need a second person",
      until,
    });
    // The workbench will not export a decision whose acceptance has ended; the record is made
    // while both are current, then its date moved into the past and signed again.
    const made = unsignedOnCallRecord(
      {
        acceptedRisks: [
          risk("fnd-111111111111111111111111", current),
          risk("fnd-0904a035e353ad8e669034b6", current),
        ],
      },
      { issuedAt: new Date().toISOString() },
    );
    const record = signRecord(
      {
        ...made,
        decision: {
          ...made.decision,
          acceptedRisks: [
            risk("fnd-111111111111111111111111", current),
            risk("fnd-0904a035e353ad8e669034b6", ended),
          ],
        },
      },
      keys.privateKey,
    );
    const r = await cli([
      await file("ended.json", record),
      "--public-key",
      path.join(dir, "pub.pem"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("valid:");
    expect(r.stderr).toContain(
      `stale: decision dec-on-call accepted risk only until a date that has passed: fnd-0904a035e353ad8e669034b6 (path.to_sensitive_sink, critical) ended ${ended}; decide again`,
    );
    expect(r.stderr).not.toContain("fnd-111111111111111111111111");
  });

  test("--data reads the public key from the data folder", async () => {
    const r = await cli([await file("ok-data.json", signed), "--data", dir]);
    expect(r.code).toBe(0);
  });

  test.each([
    [
      "tampered",
      (r: DecisionRecord) => ({
        ...r,
        decision: { ...r.decision, rationale: r.decision.rationale + "!" },
      }),
      "pub.pem",
      /tampered: /,
    ],
    ["unsigned", (r: DecisionRecord) => ({ ...r, signature: undefined }), "pub.pem", /unsigned: /],
    ["wrong key", (r: DecisionRecord) => r, "other.pem", /wrong_key: the record was signed by key/],
    ["malformed", () => "{ not json", "pub.pem", /malformed: /],
    [
      "a smuggled duplicate verdict",
      (r: DecisionRecord) =>
        JSON.stringify(r).replace('"decision":{', '"decision":{"verdict":"rejected",'),
      "pub.pem",
      /malformed: .*duplicate key "verdict" at decision\.verdict/,
    ],
  ])("%s exits 1 with the reason", async (name, mutate, keyFile, message) => {
    const r = await cli([
      await file(`${name}.json`, mutate(structuredClone(signed))),
      "--public-key",
      path.join(dir, keyFile),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  test.each([
    ["no record", [], /RECORD.json is required/],
    ["both key options", ["x.json", "--public-key", "a", "--data", "b"], /not both/],
    ["both targets", ["x.json", "--url", "http://127.0.0.1:1/mcp", "--", "node"], /not both/],
    [
      "a missing key file",
      ["x.json", "--public-key", "/nonexistent/key.pem"],
      /cannot read x.json|no such file/,
    ],
  ])("usage problems exit 2 (%s)", async (_label, args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  test("an empty data folder exits 2 rather than inventing a key", async () => {
    const empty = await mkdtemp(path.join(tmpdir(), "rr-empty-"));
    const r = await cli([await file("ok-empty.json", signed), "--data", empty]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no signing key in/);
    await rm(empty, { recursive: true, force: true });
  });

  test("control characters from the record are escaped on the terminal", async () => {
    const { signature: _s, ...unsigned } = structuredClone(signed);
    unsigned.decision.author!.name = "Eve\u001b[2J";
    const record = signRecord(unsigned, keys.privateKey);
    const r = await cli([
      await file("ansi.json", record),
      "--public-key",
      path.join(dir, "pub.pem"),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Eve⟦ANSI ESC[2J⟧");
    expect(r.stdout).not.toContain("\u001b");
  });
});

describe("verify-record: the live surface (server-everything over stdio)", () => {
  let snapshot: SurfaceSnapshot;
  beforeAll(async () => {
    const result = await inspectServer({
      kind: "stdio",
      command: EVERYTHING[0]!,
      args: EVERYTHING.slice(1),
    });
    if (!result.ok) throw new Error(`inspection failed: ${result.error.message}`);
    snapshot = result.snapshot;
  }, 90_000);

  const recordFor = (surfaceSha256: string) => {
    const reg = buildRegistrationRecord(snapshot);
    const surface = {
      surfaceSha256,
      ...reg.surface,
      declaredCapabilities: reg.declared_capabilities,
      itemSha256: reg.item_sha256,
    };
    return signRecord(
      unsignedOnCallRecord(
        { surfaceSha256 },
        { currentSurfaceSha256: surfaceSha256, surface, issuedAt: new Date().toISOString() },
      ),
      keys.privateKey,
    );
  };
  // The inspection module is server-only; under Next it runs with the react-server condition.
  const REACT_SERVER = { NODE_OPTIONS: "--conditions=react-server" };

  test.concurrent(
    "exits 0 when the live surface matches the record",
    async () => {
      const r = await cli(
        [
          await file("live-ok.json", recordFor(snapshot.surfaceSha256)),
          "--public-key",
          path.join(dir, "pub.pem"),
          "--",
          ...EVERYTHING,
        ],
        REACT_SERVER,
      );
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`live surface matches the record: ${snapshot.surfaceSha256}`);
    },
    90_000,
  );

  test.concurrent(
    "exits 3 and names the changes when it does not",
    async () => {
      const record = recordFor(SURFACE_SHA);
      const first = record.registration!.item_sha256!.tools[0]!;
      // Re-sign with one tool's recorded hash changed, so the CLI can name it.
      const { signature: _s, ...unsigned } = structuredClone(record);
      unsigned.registration!.item_sha256!.tools[0] = {
        key: first.key,
        sha256: "0".repeat(64) as typeof first.sha256,
      };
      const r = await cli(
        [
          await file("live-bad.json", signRecord(unsigned, keys.privateKey)),
          "--public-key",
          path.join(dir, "pub.pem"),
          "--",
          ...EVERYTHING,
        ],
        REACT_SERVER,
      );
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`expected ${SURFACE_SHA}, got ${snapshot.surfaceSha256}`);
      expect(r.stderr).toContain(`changed tools ${first.key}`);
    },
    90_000,
  );

  test.concurrent(
    "a record made against declared tools cannot be checked live (exit 4)",
    async () => {
      const r = await cli(
        [
          await file(
            "declared.json",
            signRecord(
              unsignedOnCallRecord({ surfaceSha256: null }, { issuedAt: new Date().toISOString() }),
              keys.privateKey,
            ),
          ),
          "--public-key",
          path.join(dir, "pub.pem"),
          "--",
          ...EVERYTHING,
        ],
        REACT_SERVER,
      );
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/made against declared tools, not a live surface/);
    },
    90_000,
  );

  test.concurrent(
    "the live check runs from the CLI entry as installed (server-only loads outside Next)",
    async () => {
      const r = await cli([
        await file("live-plain.json", recordFor(snapshot.surfaceSha256)),
        "--public-key",
        path.join(dir, "pub.pem"),
        "--",
        ...EVERYTHING,
      ]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("live surface matches the record");
      expect(r.code).toBe(0);
    },
    90_000,
  );
});
