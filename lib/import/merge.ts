/**
 * An imported config into a review: each server becomes a `RelayServer` (or is matched to one
 * already in the review by how it is reached: the same command and args, or the same URL), and
 * the file becomes one `Agent` holding its servers' tools. Pure.
 *
 * Which tools the agent holds: a config names servers, not tools, so the agent is given each
 * server's declared tools as the review knows them now. A server new to the review has none until
 * someone inspects it or enters them; the summary says so per server, and the reviewer then adds
 * the inspected tools to the agent (the Agents section). Nothing is guessed.
 */
import { z } from "zod";
import { isRemoteTransport } from "@/lib/transport-kind";
import type { ImportedConfig, ImportedServer, SecretReplacement } from "@/lib/import/config";
import { CLIENT_SHAPES, slugId } from "@/lib/import/config";
import {
  ControlsSchema,
  REVIEW_SCHEMA_VERSION,
  type Review,
  type ReviewInput,
  type Transport,
} from "@/lib/review/schema";

export const ImportSummarySchema = z.object({
  shape: z.enum(CLIENT_SHAPES),
  fileName: z.string(),
  agent: z.object({ id: z.string(), name: z.string(), toolCount: z.number().int() }),
  servers: z.array(
    z.object({
      key: z.string(),
      id: z.string(),
      name: z.string(),
      status: z.enum(["added", "existing"]),
      toolCount: z.number().int(),
      notes: z.array(z.string()),
    }),
  ),
  replacements: z.array(
    z.object({
      server: z.string(),
      field: z.enum(["env", "header", "arg", "url"]),
      name: z.string(),
      variable: z.string(),
      path: z.string(),
      line: z.number().int(),
    }),
  ),
  notes: z.array(z.string()),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

function toTransport(t: ImportedServer["transport"]): Transport {
  return t.kind === "stdio"
    ? { kind: "stdio", command: t.command, args: [...t.args], envNames: [...t.envNames] }
    : { kind: t.kind, url: t.url, headerEnv: { ...t.headerEnv } };
}

/** Whether two transports reach the same server (env and header names aside). */
export function sameServer(a: Transport, b: Transport): boolean {
  if (a.kind === "stdio" && b.kind === "stdio")
    return (
      a.command === b.command &&
      a.args.length === b.args.length &&
      a.args.every((x, i) => x === b.args[i])
    );
  if (isRemoteTransport(a) && isRemoteTransport(b))
    return new URL(a.url).toString() === new URL(b.url).toString();
  return false;
}

const unique = (taken: Set<string>, base: string) => {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 70)}-${n}`;
  taken.add(id);
  return id;
};

/** The review with the config's servers and agent added. */
export function applyImport(
  review: Review,
  config: ImportedConfig,
): { review: ReviewInput; summary: ImportSummary } {
  const servers: NonNullable<ReviewInput["servers"]> = structuredClone(review.servers);
  const agents: NonNullable<ReviewInput["agents"]> = structuredClone(review.agents);
  const serverIds = new Set<string>(review.servers.map((s) => s.id));
  const summaryServers: ImportSummary["servers"] = [];
  const tools: { serverId: string; tool: string }[] = [];
  for (const s of config.servers) {
    const transport = toTransport(s.transport);
    const existing = review.servers.find((x) => sameServer(x.transport, transport));
    if (existing) {
      for (const t of existing.declaredTools) tools.push({ serverId: existing.id, tool: t.name });
      summaryServers.push({
        key: s.key,
        id: existing.id,
        name: existing.name,
        status: "existing",
        toolCount: existing.declaredTools.length,
        notes: s.notes,
      });
      continue;
    }
    const id = unique(serverIds, s.id);
    const notes = [
      ...s.notes,
      "no tools known yet: inspect the server, then add its tools to the agent",
    ];
    servers.push({
      id,
      name: s.name,
      transport,
      imageDigest: null,
      declaredTools: [],
      pin: null,
      notes:
        `Imported from ${config.fileName}.${s.notes.length ? ` ${s.notes.join("; ")}.` : ""}`.slice(
          0,
          4000,
        ),
    });
    summaryServers.push({ key: s.key, id, name: s.name, status: "added", toolCount: 0, notes });
  }
  const agentIds = new Set<string>(review.agents.map((a) => a.id));
  const agentId = unique(agentIds, slugId(config.agentName));
  agents.push({
    id: agentId,
    name: config.agentName,
    description:
      `Imported from ${config.fileName}: the servers one client session starts together.`.slice(
        0,
        4000,
      ),
    tools,
  });
  return {
    review: { ...structuredClone(review), servers, agents },
    summary: {
      shape: config.shape,
      fileName: config.fileName,
      agent: { id: agentId, name: config.agentName, toolCount: tools.length },
      servers: summaryServers,
      replacements: config.replacements,
      notes: config.notes,
    },
  };
}

/** A fresh review holding only the imported servers and agent. */
export function reviewFromImport(
  config: ImportedConfig,
  title?: string,
): { review: ReviewInput; summary: ImportSummary } {
  const empty = {
    schemaVersion: REVIEW_SCHEMA_VERSION,
    title: (title ?? `Imported: ${config.agentName}`).slice(0, 200),
    summary: "",
    servers: [],
    sources: [],
    tools: [],
    agents: [],
    controls: ControlsSchema.parse({}),
    decisions: [],
  } as unknown as Review; // safe: an empty document of the current schema
  return applyImport(empty, config);
}

export type { SecretReplacement };
