// Starts the production build on 127.0.0.1:3000 unless HOST / PORT say otherwise, and says so.
// The workbench spawns MCP servers on its owner's behalf, so it is loopback-only by default.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const host = process.env.HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
const isLoopback = host === "127.0.0.1" || host === "localhost" || host === "::1";

// The same rule as lib/auth/owner-token.ts (MIN_OWNER_TOKEN_LENGTH): refuse to start rather than answer every request with 500.
const token = process.env.RELAY_REVIEW_TOKEN?.trim();
if (token && (token.length < 32 || /\s/.test(token))) {
  console.error(
    `relay-review: cannot start: RELAY_REVIEW_TOKEN must be at least 32 characters with no spaces (it has ${token.length}); unset it to have a token generated, or set a longer one`,
  );
  process.exit(1);
}

if (!existsSync(path.resolve(".next", "BUILD_ID"))) {
  console.error(
    "relay-review: no production build found; run `npm run build` first (or `npm run app`).",
  );
  process.exit(1);
}
console.log(`relay-review: binding to http://${host.includes(":") ? `[${host}]` : host}:${port}`);
console.log(
  isLoopback
    ? "relay-review: listening on loopback only (set HOST to change; the sign-in link follows once the server is up)"
    : `relay-review: WARNING: HOST=${host} exposes the workbench beyond this machine; it can start MCP servers on the owner's behalf`,
);

// Every stdio server the workbench inspects runs in a bubblewrap sandbox; without one, it refuses them.
const has = (cmd) => spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;
if (process.env.RELAY_REVIEW_UNSANDBOXED === "1") {
  console.log(
    "relay-review: WARNING: RELAY_REVIEW_UNSANDBOXED=1: stdio servers run without a sandbox, as this user, with its files and network",
  );
} else if (!has("bwrap")) {
  console.log(
    "relay-review: no sandbox: bubblewrap is not installed, so stdio servers will be refused; run `apt-get install bubblewrap` (and `apt-get install strace` to record what they try)",
  );
} else {
  if (!has("strace"))
    console.log(
      "relay-review: strace is not installed: stdio servers run sandboxed, but what they try is not recorded; run `apt-get install strace`",
    );
  if (spawnSync("socat", ["-V"], { stdio: "ignore" }).status !== 0)
    console.log(
      "relay-review: socat is not installed: launchers that grant egress are refused (the others run as before); run `apt-get install socat`",
    );
}

const nextBin = path.resolve("node_modules/next/dist/bin/next");
const child = spawn(process.execPath, [nextBin, "start", "-H", host, "-p", port], {
  stdio: "inherit",
  env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env, HOST: host, PORT: port },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
