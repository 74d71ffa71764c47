import { describe, expect, test } from "vitest";
import {
  argsHoldSecrets,
  isSecretName,
  makeNamer,
  redactArgs,
  redactUrl,
  tokenShapeIn,
  urlHoldsSecrets,
} from "@/lib/secrets/redact";

// Shapes only: none of these is a live credential.
const GHP = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
const PAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz";
const GLPAT = "glpat-" + "xYz12345678901234567";
const XOXB = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKl";
const SK = "sk-" + "proj-Abcdefghijklmnop1234";
const STRIPE = "sk_live_" + "51HabcdefGHIJ1234";
const NTN = "ntn_" + "123456789012345678901234abcd";
const AKIA = "AKIA" + "IOSFODNN7EXAMPLE";
const JWT = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjMifQ" + ".c2lnbmF0dXJlLXNpZw";

describe("tokenShapeIn", () => {
  test.each([
    [GHP, "GITHUB_TOKEN"],
    [PAT, "GITHUB_TOKEN"],
    ["gho_" + "x".repeat(36), "GITHUB_TOKEN"],
    [GLPAT, "GITLAB_TOKEN"],
    [XOXB, "SLACK_TOKEN"],
    ["xoxp-" + "1234567890-abc", "SLACK_TOKEN"],
    [SK, "API_KEY"],
    [STRIPE, "STRIPE_KEY"],
    [NTN, "NOTION_TOKEN"],
    [AKIA, "AWS_ACCESS_KEY_ID"],
    [JWT, "JWT"],
    ["prefix:" + GHP, "GITHUB_TOKEN"],
  ])("%s is a %s", (value, label) => {
    expect(tokenShapeIn(value)).toBe(label);
  });
  test.each([
    "servers/knowledge-mcp.ts",
    "--import",
    "tsx",
    "stdio",
    "sk-learn",
    "task-sk-abcdefghijklmnopqrstu",
    "ghp_short",
    "@modelcontextprotocol/server-github",
    "AKIA",
  ])("%s is not a credential", (value) => expect(tokenShapeIn(value)).toBeNull());
});

describe("isSecretName", () => {
  test.each([
    "--token",
    "--api-key",
    "--apiKey",
    "api_key",
    "GITHUB_TOKEN",
    "password",
    "--password",
    "X-Api-Key",
    "Authorization",
    "client_secret",
    "access_token",
    "sig",
    "key",
    "AWS_SECRET_ACCESS_KEY",
    "GITHUB_PERSONAL_ACCESS_TOKEN",
  ])("%s names a secret", (n) => expect(isSecretName(n)).toBe(true));
  test.each([
    "--port",
    "--verbose",
    "GITLAB_API_URL",
    "TOKEN_FILE",
    "KEY_PATH",
    "--config",
    "q",
    "page",
    "USE_PIPELINE",
    "Content-Type",
    "AWS_ACCESS_KEY_ID",
    "--token-url",
  ])("%s does not", (n) => expect(isSecretName(n)).toBe(false));
});

const namer = () => makeNamer("RR_GH_");

describe("redactArgs", () => {
  test.each<[string, string[], string[], string[]]>([
    [
      "--flag=value",
      ["server.js", `--token=${GHP}`],
      ["server.js", "--token=${RR_GH_TOKEN}"],
      ["RR_GH_TOKEN"],
    ],
    [
      "--flag value",
      ["server.js", "--api-key", "abc123secret"],
      ["server.js", "--api-key", "${RR_GH_API_KEY}"],
      ["RR_GH_API_KEY"],
    ],
    [
      "--password value",
      ["--password", "hunter2", "--port", "80"],
      ["--password", "${RR_GH_PASSWORD}", "--port", "80"],
      ["RR_GH_PASSWORD"],
    ],
    ["bare prefix value", ["run", GLPAT], ["run", "${RR_GH_GITLAB_TOKEN}"], ["RR_GH_GITLAB_TOKEN"]],
    [
      "NAME=value (docker -e)",
      ["run", "-e", `GITHUB_TOKEN=${PAT}`, "image"],
      ["run", "-e", "GITHUB_TOKEN=${GITHUB_TOKEN}", "image"],
      ["GITHUB_TOKEN"],
    ],
    [
      "Header: Bearer",
      ["mcp-remote", "https://mcp.example/sse", "--header", "Authorization: Bearer abc.def"],
      [
        "mcp-remote",
        "https://mcp.example/sse",
        "--header",
        "Authorization: Bearer ${RR_GH_AUTHORIZATION}",
      ],
      ["RR_GH_AUTHORIZATION"],
    ],
    [
      "URL password",
      ["postgres://app:s3cret@db:5432/app"],
      ["postgres://app:${RR_GH_URL_PASSWORD}@db:5432/app"],
      ["RR_GH_URL_PASSWORD"],
    ],
    [
      "URL query",
      ["https://api.example/x?api_key=abc&page=2"],
      ["https://api.example/x?api_key=${RR_GH_API_KEY}&page=2"],
      ["RR_GH_API_KEY"],
    ],
    [
      "token in URL userinfo",
      [`https://${GHP}@github.com/o/r.git`],
      ["https://${RR_GH_URL_USER}@github.com/o/r.git"],
      ["RR_GH_URL_USER"],
    ],
    ["JWT positional", [JWT], ["${RR_GH_JWT}"], ["RR_GH_JWT"]],
    [
      "same value twice, one variable",
      [`--token=${SK}`, SK],
      ["--token=${RR_GH_TOKEN}", "${RR_GH_TOKEN}"],
      ["RR_GH_TOKEN", "RR_GH_TOKEN"],
    ],
    [
      "two values, two variables",
      ["--token=a1", "--token=b2"],
      ["--token=${RR_GH_TOKEN}", "--token=${RR_GH_TOKEN_2}"],
      ["RR_GH_TOKEN", "RR_GH_TOKEN_2"],
    ],
  ])("%s", (_label, input, expected, variables) => {
    const r = redactArgs(input, namer());
    expect(r.args).toEqual(expected);
    expect(r.redactions.map((x) => x.variable)).toEqual(variables);
    expect(JSON.stringify(r)).not.toMatch(/hunter2|abc123secret|s3cret|ghp_a1|glpat-x|eyJhbGci/);
  });

  // Issue 28, finding 15: connection strings and URL paths inside an argument.
  test.each<[string, string[], string[]]>([
    [
      "connection string after a flag",
      ["--connection-string=postgres://app:pgpass99@db:5432/app"],
      ["--connection-string=postgres://app:${RR_GH_URL_PASSWORD}@db:5432/app"],
    ],
    [
      "connection string in NAME=value",
      ["-e", "DATABASE_URL=postgres://app:pgpass99@db/app"],
      ["-e", "DATABASE_URL=postgres://app:${RR_GH_URL_PASSWORD}@db/app"],
    ],
    [
      "jdbc URL with a password parameter",
      ["jdbc:postgresql://db/app?user=app&password=pgpass99"],
      ["jdbc:postgresql://db/app?user=app&password=${RR_GH_PASSWORD}"],
    ],
    [
      "key=value; connection string",
      ["Server=db;User Id=sa;Password=pgpass99;"],
      ["Server=db;User Id=sa;Password=${RR_GH_PASSWORD};"],
    ],
    [
      "a key in a URL path (Slack incoming webhook)",
      ["https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/x7Qp2LmN4pR7sT9vW1yB3dF5"],
      ["https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/${RR_GH_URL_PATH}"],
    ],
    [
      "a key in a URL path after a flag",
      ["--endpoint=https://api.example.com/v1/k9Zx8q2LmN4pR7sT9vW1yB3d/feed"],
      ["--endpoint=https://api.example.com/v1/${RR_GH_URL_PATH}/feed"],
    ],
  ])("%s", (_label, input, expected) => {
    const r = redactArgs(input, namer());
    expect(r.args).toEqual(expected);
    expect(JSON.stringify(r)).not.toMatch(/pgpass99|x7Qp2LmN|k9Zx8q2L/);
    expect(argsHoldSecrets(input).length).toBeGreaterThan(0);
  });

  test.each<[string, string[]]>([
    ["plain server args", ["--import", "tsx", "servers/knowledge-mcp.ts", "stdio"]],
    ["references stay", ["--token=${GITHUB_TOKEN}", "--api-key", "${env:KEY}"]],
    ["flag followed by a flag", ["--token", "--verbose"]],
    [
      "non-secret flags",
      ["--port=8080", "--host", "127.0.0.1", "-y", "@modelcontextprotocol/server-github"],
    ],
    ["URL without secrets", ["https://example.com/mcp?page=2"]],
    [
      "ordinary paths and names",
      [
        "https://raw.githubusercontent.com/modelcontextprotocol/servers/main/README.md",
        "@modelcontextprotocol/server-filesystem",
        "/home/someone/projects/relay-review-workbench",
        "--allowed-directories=/srv/data",
        "--db",
        "sqlite:///var/lib/app/knowledge.db",
      ],
    ],
  ])("%s: unchanged", (_label, input) => {
    const r = redactArgs(input, namer());
    expect(r.args).toEqual(input);
    expect(r.redactions).toEqual([]);
    expect(argsHoldSecrets(input)).toEqual([]);
  });
});

describe("redactUrl", () => {
  test.each<[string, "remove" | "reference", string, string[], boolean]>([
    ["https://user:pass@mcp.example/mcp", "remove", "https://mcp.example/mcp", [], true],
    [
      "https://user:pass@mcp.example/mcp",
      "reference",
      "https://user:${RR_GH_URL_PASSWORD}@mcp.example/mcp",
      ["password"],
      false,
    ],
    [
      "https://mcp.example/mcp?token=abc&x=1",
      "remove",
      "https://mcp.example/mcp?token=${RR_GH_TOKEN}&x=1",
      ["token"],
      false,
    ],
    [
      "https://mcp.example/mcp?access_token=a&sig=b&key=c&secret=d&password=e",
      "remove",
      "https://mcp.example/mcp?access_token=${RR_GH_ACCESS_TOKEN}&sig=${RR_GH_SIG}&key=${RR_GH_KEY}&secret=${RR_GH_SECRET}&password=${RR_GH_PASSWORD}",
      ["access_token", "sig", "key", "secret", "password"],
      false,
    ],
    [
      `https://hooks.example/services/${XOXB}/x`,
      "remove",
      "https://hooks.example/services/${RR_GH_SLACK_TOKEN}/x",
      ["SLACK_TOKEN"],
      false,
    ],
    [
      "https://app.example/cb#access_token=zzz&state=1",
      "remove",
      "https://app.example/cb#access_token=${RR_GH_ACCESS_TOKEN}&state=1",
      ["access_token"],
      false,
    ],
    [
      "https://mcp.example/mcp?api_key=${K}",
      "remove",
      "https://mcp.example/mcp?api_key=${K}",
      [],
      false,
    ],
  ])("%s (%s)", (url, mode, expected, names, removed) => {
    const r = redactUrl(url, namer(), { userinfo: mode });
    expect(r.url).toBe(expected);
    expect(r.redactions.map((x) => x.name)).toEqual(names);
    expect(r.removedUserinfo !== null).toBe(removed);
  });

  test("urlHoldsSecrets names what it found", () => {
    expect(urlHoldsSecrets("https://u:p@h.example/?token=x")).toEqual(["userinfo", "token"]);
    expect(urlHoldsSecrets("http://127.0.0.1:3000/mcp")).toEqual([]);
  });
});
