// Child process for the key-store race test: prints the keyId it ends up with.
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";

const dir = process.argv[2];
if (!dir) throw new Error("usage: key-race-child DIR");
process.stdout.write((await loadOrCreateSigningKey(dir)).keyId);
