import { readFile } from "node:fs/promises";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, test } from "vitest";
import {
  DECISION_RECORD_SCHEMA_FILE,
  DECISION_RECORD_SCHEMA_ID,
} from "@/lib/decisions/json-schema";
import { signRecord } from "@/lib/decisions/record";
import { generatedSchemaFiles } from "@/scripts/gen-schemas";
import { newKeyPair, unsignedOnCallRecord } from "@/tests/decisions/fixtures";

// Safe: a CommonJS module; under Node's ESM loader the default import is module.exports, whose `default` is the plugin.
const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;
const committed = async (file: string) => readFile(path.resolve(file), "utf8");

describe("published JSON Schema", () => {
  test("every committed schema file is what scripts/gen-schemas.ts would write (run it after changing the zod schema)", async () => {
    const files = await generatedSchemaFiles();
    expect(files.map((f) => f.file)).toContain(DECISION_RECORD_SCHEMA_FILE);
    for (const { file, text } of files) expect(await committed(file), file).toBe(text);
  });

  test("has $id and $schema", async () => {
    const schema = JSON.parse(await committed(DECISION_RECORD_SCHEMA_FILE)) as Record<
      string,
      unknown
    >;
    expect(schema.$id).toBe(DECISION_RECORD_SCHEMA_ID);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  describe("validates real records (ajv, strict mode, formats on)", async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(
      JSON.parse(await committed(DECISION_RECORD_SCHEMA_FILE)) as object,
    );
    const { privateKey } = newKeyPair();

    test.each([
      ["bound to a live surface, with a registration", unsignedOnCallRecord()],
      ["made against declared tools", unsignedOnCallRecord({ surfaceSha256: null })],
      ["rejected, no conditions", unsignedOnCallRecord({ verdict: "rejected", conditions: [] })],
    ])("a signed record %s validates", (_label, unsigned) => {
      const record = JSON.parse(JSON.stringify(signRecord(unsigned, privateKey))) as unknown;
      expect(validate(record), ajv.errorsText(validate.errors)).toBe(true);
    });

    test.each([
      ["an unknown field", (r: Record<string, unknown>) => void (r.extra = true)],
      ["no signature", (r: Record<string, unknown>) => void delete r.signature],
      [
        "a transport with a command",
        (r: Record<string, unknown>) =>
          void ((r.server as { transport: Record<string, unknown> }).transport.command = "node"),
      ],
      [
        "a mutable image tag",
        (r: Record<string, unknown>) =>
          void ((r.server as Record<string, unknown>).imageDigest =
            "ghcr.io/atlas/knowledge-mcp:latest"),
      ],
    ])("a record with %s does not", (_label, mutate) => {
      const record = JSON.parse(
        JSON.stringify(signRecord(unsignedOnCallRecord(), privateKey)),
      ) as Record<string, unknown>;
      mutate(record);
      expect(validate(record)).toBe(false);
    });
  });
});
