// The client command the MCP conformance suite runs (scripts/conformance.sh): it starts
// `npx --no-install relay-review inspect --json … --url URL` exactly as an operator would, and plays
// the operator's part the suite cannot: it hands over the credentials the scenario gives
// (MCP_CONFORMANCE_CONTEXT) by variable name, as CI would, and approves in place of the person at
// the browser, fetching the "authorize at:" URL the CLI prints and following its redirect to the
// CLI's loopback. The suite's authorization servers approve at once; nothing else is automated.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
// The suite's reference client uses this URL as its Client ID Metadata Document (auth/basic-cimd
// expects it); it is only used when an authorization server advertises support.
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

const env = { ...process.env };
const args = [
  "--no-install",
  "relay-review",
  "inspect",
  "--json",
  "--authorize-timeout-ms",
  "20000",
];
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

const child = spawn("npx", args, { env, stdio: ["ignore", "inherit", "pipe"] });
const approvals = [];
createInterface({ input: child.stderr }).on("line", (line) => {
  process.stderr.write(line + "\n");
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
});
child.on("close", async (code) => {
  await Promise.all(approvals);
  process.exit(code ?? 1);
});
