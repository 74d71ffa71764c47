/** The import mutation: POST /api/import, parsed with the shared response schema. */
import { apiFetch } from "@/components/api-client";
import { ImportResponseSchema, type ImportRequest } from "@/lib/import/api";

export function importConfig(body: ImportRequest) {
  return apiFetch("/api/import", ImportResponseSchema, {
    method: "POST",
    body: JSON.stringify(body),
  });
}
