/**
 * Review servers → an `mcpServers` client config (the shape Claude Desktop, Cursor and generic
 * clients read), the inverse of lib/import/config.ts: variables appear as `${NAME}` placeholders,
 * never values, so the importer reads the same servers back. Pure and small enough for the
 * browser (the upload panel sends only this rebuilt text, never the file it was given).
 */
import type { RelayServer, Transport } from "@/lib/review/schema";

/** The server's entry in an `mcpServers` config, as the client starts it. */
export function mcpServerEntry(
  transport: Transport,
  gate: { recordPath: string; publicKeyPath: string; publicKeySha256?: string } | null,
): Record<string, unknown> | null {
  if (transport.kind === "manual") return null;
  // The key's SHA-256 pins the trust anchor: the key file sits in a folder the agent may write.
  const pin = gate?.publicKeySha256 ? ["--key-sha256", gate.publicKeySha256] : [];
  const placeholders = (names: readonly string[]) =>
    Object.fromEntries(names.map((n) => [n, `\${${n}}`]));
  if (transport.kind === "stdio") {
    const env = placeholders(transport.envNames);
    const withEnv = (e: Record<string, unknown>) => (transport.envNames.length ? { ...e, env } : e);
    if (!gate) return withEnv({ command: transport.command, args: [...transport.args] });
    return withEnv({
      command: "npx",
      args: [
        "relay-review",
        "gate",
        "--record",
        gate.recordPath,
        "--public-key",
        gate.publicKeyPath,
        ...pin,
        "--",
        transport.command,
        ...transport.args,
      ],
    });
  }
  const headers = Object.fromEntries(
    Object.entries(transport.headerEnv).map(([h, v]) => [h, `\${${v}}`]),
  );
  if (!gate)
    return {
      type: transport.kind,
      url: transport.url,
      ...(Object.keys(headers).length ? { headers } : {}),
    };
  // Through the gate over stdio: the gate reaches the server and reads header values from its environment.
  const names = [...new Set(Object.values(transport.headerEnv))].sort();
  return {
    command: "npx",
    args: [
      "relay-review",
      "gate",
      "--record",
      gate.recordPath,
      "--public-key",
      gate.publicKeyPath,
      ...pin,
      "--url",
      transport.url,
    ],
    ...(names.length ? { env: placeholders(names) } : {}),
  };
}

/** An `mcpServers` config for these servers (no gate): what the importer reads back as the same servers. */
export function clientConfigForServers(
  servers: readonly Pick<RelayServer, "name" | "transport">[],
): string {
  const mcpServers: Record<string, unknown> = {};
  for (const s of servers) {
    const entry = mcpServerEntry(s.transport, null);
    if (entry) mcpServers[s.name] = entry;
  }
  return JSON.stringify({ mcpServers }, null, 2) + "\n";
}
