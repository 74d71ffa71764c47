/**
 * Issue 28, finding 15: an imported client config keeps no secret inside a connection string
 * (after a flag, in NAME=value, key=value;…) or in a URL's path: each becomes a `${NAME}`
 * reference, and the replacement names the server, the argument (its path in the file) and the
 * variable to set on the Secrets page.
 */
import { describe, expect, test } from "vitest";
import { parseClientConfig } from "@/lib/import/config";

const SECRETS = ["pgPassw0rd-77", "adoPassw0rd-88", "k9Zx8q2LmN4pR7sT9vW1yB3d"];
const CONFIG = JSON.stringify({
  mcpServers: {
    db: {
      command: "npx",
      args: [
        "-y",
        "@example/db-mcp",
        `--connection-string=postgres://app:${SECRETS[0]}@db.internal:5432/app`,
        `Server=db;User Id=sa;Password=${SECRETS[1]};`,
      ],
      env: {},
    },
    feed: {
      command: "npx",
      args: ["mcp-remote", `https://api.example.com/v1/${SECRETS[2]}/mcp`],
    },
  },
});

describe("import: connection strings and URL paths", () => {
  test("every secret becomes a reference, and each replacement names its argument", () => {
    const parsed = parseClientConfig(CONFIG, { fileName: "mcp.json" });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const text = JSON.stringify(parsed.config);
    for (const s of SECRETS) expect(text).not.toContain(s);
    const by = (key: string) => parsed.config.servers.find((s) => s.key === key)!.transport;
    expect(by("db")).toMatchObject({
      args: [
        "-y",
        "@example/db-mcp",
        "--connection-string=postgres://app:${RR_DB_URL_PASSWORD}@db.internal:5432/app",
        "Server=db;User Id=sa;Password=${RR_DB_PASSWORD};",
      ],
    });
    expect(by("feed")).toMatchObject({
      args: ["mcp-remote", "https://api.example.com/v1/${RR_FEED_URL_PATH}/mcp"],
    });
    // The sandbox refuses a `${NAME}` in a command line (finding 8): the import says so per server.
    const notes = (key: string) => parsed.config.servers.find((s) => s.key === key)!.notes;
    expect(notes("db").join("\n")).toMatch(
      /command line carried RR_DB_URL_PASSWORD, RR_DB_PASSWORD: the sandbox refuses/,
    );
    const places = parsed.config.replacements.map((r) => [r.server, r.path, r.variable]);
    expect(places).toEqual(
      expect.arrayContaining([
        ["db", expect.stringMatching(/args.*2/), "RR_DB_URL_PASSWORD"],
        ["db", expect.stringMatching(/args.*3/), "RR_DB_PASSWORD"],
        ["feed", expect.stringMatching(/args.*1/), "RR_FEED_URL_PATH"],
      ]),
    );
  });
});
