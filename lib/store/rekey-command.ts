import "server-only";
/**
 * `npm run secrets:rekey -- --from-key-file OLD --to-key-file NEW`: re-seal every stored secret
 * and every sealed OAuth connection and open flow under a new master key in one transaction (lib/store/secrets.ts rekeySecrets), against the store
 * the app would open (DATABASE_URL, else the PGlite data folder; stop the app first with PGlite).
 * Exit 0 done, 1 refused (nothing changed), 2 usage. Keys are files holding base64 of 32 bytes.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseSecretKey, secretKeyId } from "@/lib/secrets/crypto";
import { openStore } from "@/lib/store/db";
import { rekeySecrets } from "@/lib/store/secrets";

const USAGE =
  "usage: npm run secrets:rekey -- --from-key-file OLD_KEY_FILE --to-key-file NEW_KEY_FILE";

function readKey(file: string, what: string): Buffer | string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return `${what} ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  const parsed = parseSecretKey(text, `${what} ${file}`);
  return parsed.ok ? parsed.key : parsed.message;
}

export async function runRekey(argv: string[]): Promise<number> {
  let values: { "from-key-file"?: string; "to-key-file"?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { "from-key-file": { type: "string" }, "to-key-file": { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`secrets:rekey: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (!values["from-key-file"] || !values["to-key-file"]) {
    process.stderr.write(`secrets:rekey: both key files are needed\n${USAGE}\n`);
    return 2;
  }
  const from = readKey(values["from-key-file"], "the old key file");
  const to = readKey(values["to-key-file"], "the new key file");
  for (const k of [from, to])
    if (typeof k === "string") {
      process.stderr.write(`secrets:rekey: ${k}\n`);
      return 2;
    }
  const store = await openStore();
  try {
    const r = await rekeySecrets(store.db, from as Buffer, to as Buffer);
    if (!r.ok) {
      process.stderr.write(`secrets:rekey: refused: ${r.message}\n`);
      return 1;
    }
    process.stdout.write(
      `secrets:rekey: ${r.rekeyed} secret(s) re-sealed under key ${secretKeyId(to as Buffer)}${r.alreadyUnderNewKey ? ` (${r.alreadyUnderNewKey} already were)` : ""}, and with them ${r.oauth.connections} OAuth connection(s)${r.oauth.alreadyUnderNewKey ? ` (${r.oauth.alreadyUnderNewKey} already were)` : ""} and ${r.oauth.flows} open OAuth flow(s). Give every instance the new key now (RELAY_REVIEW_SECRET_KEY_FILE=${values["to-key-file"]}, or replace the data folder's secret-key file with it); a start with the old key stops and says so.\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
