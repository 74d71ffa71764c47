/**
 * The decision record's JSON Schema, generated from the zod schema so the two cannot disagree.
 * Cross-field invariants (server.id = decision.serverId, toolSetSha256 matches toolSet, …) are
 * zod refinements and do not appear in the JSON Schema; docs/decision-record.md lists them.
 * Written to public/schemas/ by scripts/gen-schemas.ts; a test fails when the file drifts.
 */
import { z } from "zod";
import { DecisionRecordSchema } from "@/lib/decisions/record";

export const DECISION_RECORD_SCHEMA_ID = "urn:relay-review:schema:decision-record:v1";
export const DECISION_RECORD_SCHEMA_FILE = "public/schemas/decision-record.v1.json";
/** Where the running workbench serves the file (Next serves public/ at the root). */
export const DECISION_RECORD_SCHEMA_URL_PATH = "/schemas/decision-record.v1.json";

export function decisionRecordJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(DecisionRecordSchema, {
    target: "draft-2020-12",
    reused: "inline",
    unrepresentable: "throw",
  });
  return { $schema, $id: DECISION_RECORD_SCHEMA_ID, ...rest };
}
