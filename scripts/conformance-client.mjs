// The client command the MCP conformance suite runs (scripts/conformance.sh). For most scenarios
// it starts `npx --no-install relay-review inspect --json … --url URL` exactly as an operator
// would. The scenarios that need a tools/call (THROUGH_GATE: sse-retry, auth/scope-step-up) run
// scripts/conformance-agent.ts in this process instead: it inspects, records a signed decision in
// a temporary workbench folder, starts the gate on the same OAuth session and plays the agent
// (see its header for why that is one process). Either way this plays the operator's part the
// suite cannot: it hands over the credentials the scenario gives (MCP_CONFORMANCE_CONTEXT) by
// variable name, as CI would, and approves in place of the person at the browser, fetching each
// "authorize at:" URL printed and following its redirect to the CLI's loopback. The suite's
// authorization servers approve at once; nothing else is automated.
import { spawn } from "node:child_process";
import { register as registerHooks } from "node:module";
import { createInterface } from "node:readline";

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
// The suite's reference client uses this URL as its Client ID Metadata Document (auth/basic-cimd
// expects it); it is only used when an authorization server advertises support.
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

const THROUGH_GATE = new Set([
  "sse-retry",
  "auth/scope-step-up",
  "tools_call",
  "sep-2322-client-request-state",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
]);

/**
 * The authorization server a static credential is for. The CLI hands a client secret, key or
 * refresh token only to the issuer the operator names (--issuer), never to the one a server's
 * metadata names. The suite's context gives the credentials but not its authorization server, so
 * this harness, playing the operator who knows it, reads it once from the scenario's own resource
 * metadata (path-based, then at the root); an operator writes it down instead.
 */
async function operatorsIssuer(serverUrl) {
  const u = new URL(serverUrl);
  for (const path of [
    `/.well-known/oauth-protected-resource${u.pathname}`,
    "/.well-known/oauth-protected-resource",
  ]) {
    const res = await fetch(new URL(path, u.origin)).catch(() => null);
    if (!res?.ok) continue;
    const prm = await res.json().catch(() => null);
    if (typeof prm?.authorization_servers?.[0] === "string") return prm.authorization_servers[0];
  }
  throw new Error(`no authorization server named in ${serverUrl}'s resource metadata`);
}

const env = { ...process.env };
const args = ["--authorize-timeout-ms", "20000"];
if (
  [
    "auth/client-credentials-basic",
    "auth/client-credentials-jwt",
    "auth/pre-registration",
  ].includes(scenario)
)
  args.push("--issuer", await operatorsIssuer(url));
if (scenario === "auth/client-credentials-basic") {
  env.RR_CONFORMANCE_CLIENT_SECRET = context.client_secret;
  args.push("--client-credentials", "--client-id", context.client_id);
  args.push("--client-secret-env", "RR_CONFORMANCE_CLIENT_SECRET");
} else if (scenario === "auth/client-credentials-jwt") {
  env.RR_CONFORMANCE_CLIENT_KEY = context.private_key_pem;
  args.push("--client-credentials", "--client-id", context.client_id);
  args.push("--client-key-env", "RR_CONFORMANCE_CLIENT_KEY");
  args.push("--client-key-alg", context.signing_algorithm ?? "ES256");
} else if (scenario === "auth/pre-registration") {
  env.RR_CONFORMANCE_CLIENT_SECRET = context.client_secret;
  args.push(
    "--client-id",
    context.client_id,
    "--client-secret-env",
    "RR_CONFORMANCE_CLIENT_SECRET",
  );
} else if (scenario.startsWith("auth/")) {
  args.push("--client-metadata-url", CIMD_URL);
}
args.push("--url", url);

const approvals = [];
/** Approve an "authorize at:" line as the person at the browser would. */
function approveFrom(line) {
  const m = /authorize at: (\S+)/.exec(line);
  if (!m) return;
  approvals.push(
    (async () => {
      const res = await fetch(m[1], { redirect: "manual" });
      const location = res.headers.get("location");
      if (!location)
        throw new Error(`the authorization endpoint answered ${res.status} without a redirect`);
      await fetch(location); // the CLI's loopback redirect URI
    })().catch((error) =>
      process.stderr.write(`conformance-client: approving failed: ${error.message}\n`),
    ),
  );
}

if (THROUGH_GATE.has(scenario)) {
  const { register } = await import("tsx/esm/api");
  register();
  registerHooks(new URL("../cli/shared/server-only-hook.mjs", import.meta.url));
  const { runAgent } = await import("./conformance-agent.ts");
  let code = 1;
  try {
    code = await runAgent(
      args,
      (line) => {
        process.stderr.write(`conformance-agent: ${line}\n`);
        approveFrom(line);
      },
      Array.isArray(context.toolCalls) ? context.toolCalls : [],
      // The original two need every call to succeed; in the 2026 ones a refusal is an answer.
      !["sse-retry", "auth/scope-step-up"].includes(scenario),
    );
  } catch (error) {
    process.stderr.write(`conformance-agent: ${error instanceof Error ? error.stack : error}\n`);
  }
  await Promise.all(approvals);
  process.exit(code);
}

const child = spawn("npx", ["--no-install", "relay-review", "inspect", "--json", ...args], {
  env,
  stdio: ["ignore", "inherit", "pipe"],
});
createInterface({ input: child.stderr }).on("line", (line) => {
  process.stderr.write(line + "\n");
  approveFrom(line);
});
child.on("close", async (code) => {
  await Promise.all(approvals);
  process.exit(code ?? 1);
});
