import { execFile } from "node:child_process";
import { createPublicKey } from "node:crypto";
import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { signRecord, signingKeyId, verifyRecord } from "@/lib/decisions/record";
import { loadOrCreateSigningKey, publicKeyPem } from "@/lib/decisions/node/keys";
import { unsignedOnCallRecord } from "@/tests/decisions/fixtures";

const execFileAsync = promisify(execFile);
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "rr-keys-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("signing key store", () => {
  test("creates the key pair on first use: private 0600, public PEM beside it, no temp files left", async () => {
    const dataDir = path.join(dir, "data");
    const key = await loadOrCreateSigningKey(dataDir);
    expect(key.privateKey.asymmetricKeyType).toBe("ed25519");
    expect(key.keyId).toBe(signingKeyId(key.publicKey));
    expect((await readdir(dataDir)).sort()).toEqual(["signing-key.pem", "signing-key.pub.pem"]);
    if (process.platform !== "win32")
      expect((await stat(path.join(dataDir, "signing-key.pem"))).mode & 0o777).toBe(0o600);
    const pub = await readFile(path.join(dataDir, "signing-key.pub.pem"), "utf8");
    expect(pub).toBe(key.publicKeyPem);
    expect(await publicKeyPem(dataDir)).toBe(pub);
    expect(signingKeyId(createPublicKey(pub))).toBe(key.keyId);
  });

  test("signs records that verify with the public key file", async () => {
    const key = await loadOrCreateSigningKey(dir);
    const record = signRecord(unsignedOnCallRecord(), key.privateKey, key.keyId);
    expect(
      verifyRecord(record, await readFile(path.join(dir, "signing-key.pub.pem"), "utf8")).ok,
    ).toBe(true);
  });

  test("concurrent first uses in separate processes agree on one key", async () => {
    const dataDir = path.join(dir, "race");
    const child = path.resolve("tests/decisions/key-race-child.ts");
    // server-only resolves to its empty module under the react-server condition, as in Next's server.
    const run = () =>
      execFileAsync(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", child, dataDir],
        { cwd: process.cwd() },
      );
    const outputs = await Promise.all(Array.from({ length: 4 }, run));
    const ids = new Set(outputs.map((o) => o.stdout));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toBe((await loadOrCreateSigningKey(dataDir)).keyId);
    expect((await readdir(dataDir)).sort()).toEqual(["signing-key.pem", "signing-key.pub.pem"]);
  }, 90_000);

  test("loads an existing key in a new process and repairs a missing or wrong public file", async () => {
    const first = await loadOrCreateSigningKey(path.join(dir, "a"));
    const other = path.join(dir, "b");
    // Copy the private key into another folder (a different cache entry, as a new process would see it).
    await (await import("node:fs/promises")).mkdir(other);
    await writeFile(
      path.join(other, "signing-key.pem"),
      first.privateKey.export({ type: "pkcs8", format: "pem" }),
      { mode: 0o600 },
    );
    await writeFile(path.join(other, "signing-key.pub.pem"), "stale");
    const loaded = await loadOrCreateSigningKey(other);
    expect(loaded.keyId).toBe(first.keyId);
    expect(await readFile(path.join(other, "signing-key.pub.pem"), "utf8")).toBe(
      first.publicKeyPem,
    );
  });

  test.skipIf(process.platform === "win32")(
    "refuses a private key readable by other users, and retries after it is fixed",
    async () => {
      const dataDir = path.join(dir, "loose");
      await (await import("node:fs/promises")).mkdir(dataDir);
      const { generateKeyPairSync } = await import("node:crypto");
      await writeFile(
        path.join(dataDir, "signing-key.pem"),
        generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }),
      );
      await chmod(path.join(dataDir, "signing-key.pem"), 0o644);
      await expect(loadOrCreateSigningKey(dataDir)).rejects.toThrow(/readable by other users/);
      await chmod(path.join(dataDir, "signing-key.pem"), 0o600);
      await expect(loadOrCreateSigningKey(dataDir)).resolves.toMatchObject({
        keyId: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
      });
    },
  );
});
