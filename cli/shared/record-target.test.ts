import { describe, expect, test } from "vitest";
import { withRecordVariables } from "@/cli/shared/record-target";

const ENV = { TOKEN: "t-1", API_KEY: "k-1" };

describe("withRecordVariables", () => {
  test("stdio: the record's names from the environment, the operator's --env winning, unset names reported", () => {
    const r = withRecordVariables(
      { kind: "stdio", command: "srv", args: [], env: { API_KEY: "typed" } },
      { kind: "stdio", envNames: ["API_KEY", "MISSING", "TOKEN"], headerEnv: {} },
      ENV,
    );
    expect(r.target).toMatchObject({ env: { API_KEY: "typed", TOKEN: "t-1" } });
    expect(r.missing).toEqual(["MISSING"]);
  });

  test("http: headers from the record's variables, the operator's --header winning; sse records default to sse", () => {
    const r = withRecordVariables(
      { kind: "http", url: "http://127.0.0.1:1/mcp", headers: { "X-Extra": "1" } },
      {
        kind: "sse",
        envNames: ["TOKEN"],
        headerEnv: { Authorization: "TOKEN", "X-Other": "NOPE" },
      },
      ENV,
    );
    expect(r.target).toMatchObject({
      headers: { Authorization: "t-1", "X-Extra": "1" },
      mode: "sse",
    });
    expect(r.missing).toEqual(["NOPE"]);
  });

  test("an explicit transport mode is kept", () => {
    const r = withRecordVariables(
      { kind: "http", url: "http://127.0.0.1:1/mcp", mode: "auto" },
      { kind: "sse", envNames: [], headerEnv: {} },
      ENV,
    );
    expect(r.target).toMatchObject({ mode: "auto" });
  });
});
