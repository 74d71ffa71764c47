/**
 * Imported first by the OAuth demo, before the MCP SDK's authorization-server router, which reads
 * this flag once when it is loaded: the demo's issuer is plain http on 127.0.0.2, and the SDK
 * exempts only `localhost` and `127.0.0.1` from its https rule. The demo's authorization server
 * cannot live on those names, because the workbench answers for them and the browser would carry
 * its session cookie there (lib/auth/cookie-hosts.ts). Loopback only; never a real deployment.
 */
process.env.MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL ??= "1";
