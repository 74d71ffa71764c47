import { z } from "zod";
import { AppError } from "@/lib/errors";
import { jsonResponse, noContent, parseParam, readJson, withRoute } from "@/lib/http/route";
import { SetSecretRequestSchema, type SetSecretResponse } from "@/lib/secrets/api";
import { getSecretKey } from "@/lib/secrets/key";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { deleteSecret, secretNameProblem, setSecret } from "@/lib/store/secrets";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ name: string }> };

const NameParamSchema = z.string().superRefine((n, ctx) => {
  const problem = secretNameProblem(n);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** Set or rotate a value. The answer names the secret and when it was saved, never the value. */
export const PUT = withRoute(async (request: Request, { params }: Ctx) => {
  const name = parseParam(NameParamSchema, (await params).name, "name");
  const body = await readJson(request, SetSecretRequestSchema);
  const key = getSecretKey();
  if (!key.ok) throw new AppError("CONFLICT", key.message);
  const db = await getDb();
  const saved = await setSecret(db, key.key, name, body.value);
  // By name only: the value never reaches the log.
  await auditOwnerAction(db, {
    kind: "secret.set",
    summary: `Secret ${name} ${saved.created ? "set" : "replaced"}`,
    detail: { name, created: saved.created },
  });
  const response: SetSecretResponse = {
    name: saved.name,
    created: saved.created,
    updatedAt: saved.updatedAt,
  };
  return jsonResponse(response, saved.created ? 201 : 200);
});

export const DELETE = withRoute(async (_request: Request, { params }: Ctx) => {
  const name = parseParam(NameParamSchema, (await params).name, "name");
  const db = await getDb();
  if (!(await deleteSecret(db, name)))
    throw new AppError("NOT_FOUND", `no secret named ${name} is set`);
  await auditOwnerAction(db, {
    kind: "secret.deleted",
    summary: `Secret ${name} deleted`,
    detail: { name },
  });
  return noContent();
});
