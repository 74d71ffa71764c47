import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { TOOL_ROLES } from "@/lib/review/schema";

/**
 * The labelled corpus: surfaces of real MCP servers from npm, captured verbatim, and a hand-written
 * label per tool. The labels are ground truth for measuring role suggestions, so a tool without a
 * label (or a label for a tool the server does not list) is an error here, never a silent skip.
 */

const CORPUS_DIR = import.meta.dirname;

const CapturedToolSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal("object") }),
  outputSchema: z.looseObject({}).optional(),
  annotations: z
    .looseObject({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
});
export type CapturedTool = z.infer<typeof CapturedToolSchema>;

const CapturedSurfaceSchema = z.strictObject({
  tools: z.array(CapturedToolSchema).min(1),
  resources: z.array(z.looseObject({ uri: z.string(), name: z.string() })),
  resourceTemplates: z.array(z.looseObject({ uriTemplate: z.string(), name: z.string() })),
  prompts: z.array(z.looseObject({ name: z.string() })),
  instructions: z.string().nullable(),
});
export type CapturedSurface = z.infer<typeof CapturedSurfaceSchema>;

const CapturedServerSchema = z.strictObject({
  package: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+\.\d+$/, "an exact version"),
  capturedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  command: z.string().min(1),
  surface: CapturedSurfaceSchema,
});

export const CorpusRoleSchema = z.enum(TOOL_ROLES);
export type CorpusRole = z.infer<typeof CorpusRoleSchema>;

const ToolLabelSchema = z.strictObject({
  roles: z
    .array(CorpusRoleSchema)
    .refine((roles) => new Set(roles).size === roles.length, "a role is listed twice"),
  why: z.string().min(1),
});
export type ToolLabel = z.infer<typeof ToolLabelSchema>;

const LabelsSchema = z.record(z.string(), ToolLabelSchema);

export interface CorpusServer {
  slug: string;
  package: string;
  version: string;
  command: string;
  surface: CapturedSurface;
  labels: Record<string, ToolLabel>;
}

function readJson<T>(file: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(
      `corpus: cannot read ${path.relative(CORPUS_DIR, file)}: ${(error as Error).message}`,
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `corpus: ${path.relative(CORPUS_DIR, file)} is invalid: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

function checkLabels(
  slug: string,
  surface: CapturedSurface,
  labels: Record<string, ToolLabel>,
): void {
  const listed = surface.tools.map((tool) => tool.name);
  const duplicate = listed.find((name, index) => listed.indexOf(name) !== index);
  if (duplicate !== undefined) throw new Error(`corpus: ${slug} lists tool "${duplicate}" twice`);
  const names = new Set(listed);
  const unlabelled = listed.filter((name) => !Object.hasOwn(labels, name));
  const unknown = Object.keys(labels).filter((name) => !names.has(name));
  if (unlabelled.length > 0) {
    throw new Error(
      `corpus: ${slug} has no label for tool(s) ${unlabelled.map((n) => `"${n}"`).join(", ")}`,
    );
  }
  if (unknown.length > 0) {
    throw new Error(
      `corpus: ${slug} labels tool(s) it does not list: ${unknown.map((n) => `"${n}"`).join(", ")}`,
    );
  }
}

/** Every captured server with its labels, sorted by slug; throws naming the first mismatch. */
export function loadCorpus(dir: string = CORPUS_DIR): CorpusServer[] {
  const serverDir = path.join(dir, "servers");
  const labelDir = path.join(dir, "labels");
  const serverSlugs = fs
    .readdirSync(serverDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5));
  const labelSlugs = fs
    .readdirSync(labelDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5));
  const orphan = labelSlugs.find((slug) => !serverSlugs.includes(slug));
  if (orphan !== undefined)
    throw new Error(`corpus: labels/${orphan}.json has no servers/${orphan}.json`);
  return serverSlugs.sort().map((slug) => {
    const labelFile = path.join(labelDir, `${slug}.json`);
    if (!fs.existsSync(labelFile))
      throw new Error(`corpus: servers/${slug}.json has no labels/${slug}.json`);
    const server = readJson(path.join(serverDir, `${slug}.json`), CapturedServerSchema);
    const labels = readJson(labelFile, LabelsSchema);
    checkLabels(slug, server.surface, labels);
    return {
      slug,
      package: server.package,
      version: server.version,
      command: server.command,
      surface: server.surface,
      labels,
    };
  });
}
