import "server-only";
/**
 * Sampling a source from the workbench (issue 31 item 3): a reviewer runs one of a server's
 * read-only tools, with arguments they choose, or reads one of its resources (a listed URI, or a
 * listed template expanded with variables they choose), and the detector scans what comes back
 * now. The result also says whether prose came back and in which fields (issue 32,
 * lib/roles/sampled-text.ts): the evidence a tool's surface cannot give for returns_untrusted_text.
 * The server is started exactly as an inspection starts it (the same prepareInspection: launcher
 * allowlist, egress allowlist, secrets, the sandbox) and the call goes over the same bounded
 * upstream session (lib/mcp/session.ts), opened, used for one call, closed.
 *
 * Only a tool the review says is read-only may run: its assessment must be confirmed by a reviewer
 * and name no role that writes, deploys, destroys or sends; and the
 * server must not itself annotate it as writing (readOnlyHint false) or destructive. Running a tool
 * acts on a real system, so the app's suggested roles are not enough.
 *
 * A template's expansion must be a URI the template admits strictly (lib/gate/uri-template.ts, the
 * gate's own rule), so a variable cannot make the server read another path, a query or a parent
 * folder.
 *
 * The result is counted into the source's detection counts (origin "sample", no agent) and a flag
 * is logged as `content.flagged`, like the gate's. What it showed about returned text is kept with
 * the item's assessment (its last few samples: when, by whom, the kind and the prose fields, never
 * the arguments or the text) as one review revision, so the roles table can show it later.
 * Detection is not a control: a sample changes no role, path, control or decision.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { z } from "zod";
import { OWNER_AUTHOR, principalAuthor, type Principal } from "@/lib/auth/principal";
import { currentPrincipal } from "@/lib/auth/request-principal";
import { detectDetailed, type Reason } from "@/lib/detection/detect";
import { AppError, reviewNotFound } from "@/lib/errors";
import { relayedTexts } from "@/lib/detection/gate-scan";
import { compileUriTemplate } from "@/lib/gate/uri-template";
import { revealHidden } from "@/lib/detection/text";
import { openServerSession } from "@/lib/mcp/node/inspect";
import { addSample } from "@/lib/review/edit";
import type { ReviewId, ServerId } from "@/lib/ids";
import { readSampledText, sampleEvidenceOf, type SampledText } from "@/lib/roles/sampled-text";
import type { InspectError } from "@/lib/mcp/types";
import { scrubValues } from "@/lib/secrets/references";
import type { Db } from "@/lib/store/db";
import { addDetectionCounts } from "@/lib/store/detection-counts";
import { getReview, saveReview } from "@/lib/store/reviews";
import { resolveInspectLimits, type InspectLimits } from "@/lib/surface/limits";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import type { PreparedInspection } from "@/lib/workbench/inspect-run";
import type { SurfaceSnapshot } from "@/lib/surface/types";
import {
  itemLabel,
  SAMPLE_PREVIEW_CHARS,
  samplableTool,
  sampleArgumentsRefusal,
  type SampleRequest,
  type SampleResult,
} from "@/lib/workbench/sample-api";

/**
 * The URI a resource sample reads: the resource's own, or the template expanded with the reviewer's
 * variables, which must be one the template admits strictly. Null for a tool; a refusal names why.
 */
export function sampleUri(
  request: SampleRequest,
): { ok: true; uri: string | null } | { ok: false; message: string } {
  const refused = sampleArgumentsRefusal(request);
  if (refused) return { ok: false, message: refused };
  if (request.item === "tool") return { ok: true, uri: null };
  if (request.item === "resource") return { ok: true, uri: request.tool };
  const label = itemLabel("resource_template", request.tool);
  let template: UriTemplate;
  try {
    template = new UriTemplate(request.tool);
  } catch (error) {
    return { ok: false, message: `${label} cannot be expanded: ${(error as Error).message}` };
  }
  const missing = template.variableNames.filter((n) => !(n in request.arguments));
  if (missing.length)
    return {
      ok: false,
      message: `${label} needs a value for ${missing.map((n) => JSON.stringify(n)).join(", ")}`,
    };
  const unknown = Object.keys(request.arguments).filter((n) => !template.variableNames.includes(n));
  if (unknown.length)
    return {
      ok: false,
      message: `${label} has no variable ${unknown.map((n) => JSON.stringify(n)).join(", ")}`,
    };
  const uri = template.expand(request.arguments as Record<string, string>);
  if (!compileUriTemplate(request.tool).matches(uri))
    return {
      ok: false,
      message: `${label} expanded to ${JSON.stringify(uri.slice(0, 300))}, which it does not admit strictly (a variable may not reach another path segment, a query or a parent folder; see docs/gate.md)`,
    };
  return { ok: true, uri };
}

/** The refusal for an item the live server does not list now, or a tool it says writes or destroys. */
function liveRefusal(snapshot: SurfaceSnapshot, request: SampleRequest): string | null {
  const { item, tool } = request;
  if (item === "resource")
    return snapshot.resources.some((r) => r.uri === tool)
      ? null
      : `the server does not list ${itemLabel(item, tool)} now`;
  if (item === "resource_template")
    return snapshot.resourceTemplates.some((t) => t.uriTemplate === tool)
      ? null
      : `the server does not list ${itemLabel(item, tool)} now`;
  const live = snapshot.tools.find((t) => t.name === tool);
  if (!live) return `the server does not list tool ${JSON.stringify(tool)} now`;
  const a = live.annotations ?? {};
  if (a.readOnlyHint === false || a.destructiveHint === true)
    return `tool ${JSON.stringify(tool)} is not read-only: the server annotates it ${a.readOnlyHint === false ? "readOnlyHint: false" : "destructiveHint: true"}; only read-only tools can be sampled`;
  return null;
}

/**
 * Saves attempted when another save lands between reading the review and writing it: each retry
 * re-reads it, so an edit made while the sample ran is kept, never overwritten.
 */
const MAX_SAMPLE_SAVE_ATTEMPTS = 3;

/**
 * Keep what a sample showed about returned text with the item's assessment, as one revision on
 * top of the current one (the reviewer may have saved while the server ran: the sample is added to
 * what they saved). Null when the review no longer assesses the item.
 */
export async function recordSample(
  db: Db,
  reviewId: ReviewId,
  request: Pick<SampleRequest, "item" | "tool">,
  serverId: ServerId,
  returnedText: SampledText,
  options: { now?: Date; principal?: Principal } = {},
): Promise<{ revision: number } | null> {
  const principal = options.principal ?? currentPrincipal();
  // Named as a pin names who pinned: the person, or the owner token as "owner".
  const by = principal.kind === "person" ? principal.name : OWNER_AUTHOR;
  const sample = sampleEvidenceOf(returnedText, options.now ?? new Date(), by);
  const ref = {
    serverId,
    tool: request.tool,
    ...(request.item !== "tool" ? { item: request.item } : {}),
  };
  let record = await getReview(db, reviewId);
  for (let attempt = 0; attempt < MAX_SAMPLE_SAVE_ATTEMPTS; attempt++) {
    if (!record) throw reviewNotFound(reviewId);
    const tools = addSample(record.review.tools, ref, sample);
    if (!tools) return null;
    const saved = await saveReview(
      db,
      reviewId,
      record.revision,
      { ...record.review, tools },
      principalAuthor(principal),
    );
    if (!saved) throw reviewNotFound(reviewId);
    if (saved.ok) return { revision: saved.record.revision };
    record = saved.conflict;
  }
  throw new AppError(
    "CONFLICT",
    "the sample ran, but the review kept changing while its result was being kept; sample it again",
  );
}

/** Tool names passed to the detector's tool-call signal. */
const MAX_TOOL_NAMES = 500;

export type SampleOutcome =
  { ok: true; result: SampleResult } | { ok: false; refused: boolean; error: InspectError };

const PassthroughSchema = z.looseObject({});

/**
 * Start the server as an inspection does, call the tool once, scan the text, count it and log a
 * flag. Never throws for a server's behaviour; a refusal (`refused: true`) ran nothing.
 */
export async function runSample(
  db: Db,
  prepared: Extract<PreparedInspection, { ok: true }>,
  request: SampleRequest,
  options: { limits?: Partial<InspectLimits>; signal?: AbortSignal } = {},
): Promise<SampleOutcome> {
  const { record, server, target, values } = prepared;
  const review = record.review;
  const allowed = samplableTool(review, server.id, request.tool, request.item);
  if (!allowed.ok)
    return { ok: false, refused: true, error: { code: "refused", message: allowed.message } };
  const planned = sampleUri(request);
  if (!planned.ok)
    return { ok: false, refused: true, error: { code: "refused", message: planned.message } };
  const uri = planned.uri;
  const method = uri === null ? "tools/call" : "resources/read";
  const limits = resolveInspectLimits(options.limits);
  const opened = await openServerSession(target, {
    // Declared as the inspection declared them, so the server shows the same surface.
    ...(prepared.server.hostRendersApps ? { hostRendersApps: true } : {}),
    limits,
    keepOpen: true,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!opened.ok) return { ok: false, refused: false, error: scrubValues(opened.error, values) };
  const { session } = opened;
  let raw: Record<string, unknown>;
  try {
    const refusal = liveRefusal(session.snapshot, request);
    if (refusal) return { ok: false, refused: true, error: { code: "refused", message: refusal } };
    raw = await session.client.request(
      uri === null
        ? { method: "tools/call", params: { name: request.tool, arguments: request.arguments } }
        : { method: "resources/read", params: { uri } },
      PassthroughSchema,
      { timeout: limits.requestTimeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
    );
  } catch (error) {
    const failure = session.failure() ?? {
      code: "protocol_error" as const,
      message: `the call failed: ${error instanceof Error ? error.message : String(error)}`,
    };
    return { ok: false, refused: false, error: scrubValues(failure, values) };
  } finally {
    await session.close();
  }
  // What the server echoes of a secret it was given is shown as `[secret NAME]`, never the value.
  const result = scrubValues(raw, values);
  const text = relayedTexts(method, result);
  const toolNames = [
    ...new Set([
      ...session.snapshot.tools.map((t) => t.name),
      ...review.agents.flatMap((a) => a.tools.map((t) => t.tool)),
    ]),
  ].slice(0, MAX_TOOL_NAMES);
  const verdict = detectDetailed(text, { tools: toolNames });
  const sourceNames = allowed.assessment.sourceIds.map(
    (id) => review.sources.find((s) => s.id === id)?.name ?? id,
  );
  const reasons: Reason[] = verdict.reasons
    .slice(0, 8)
    .map((r) => ({ signal: r.signal, detail: r.detail.slice(0, 300) }));
  const sample: SampleResult = {
    item: request.item,
    tool: request.tool,
    ...(uri !== null ? { uri } : {}),
    server: server.name,
    sources: sourceNames,
    isError: result.isError === true,
    flagged: verdict.flagged,
    score: verdict.score,
    reasons,
    excerpt: verdict.excerpt,
    preview:
      revealHidden(text.slice(0, SAMPLE_PREVIEW_CHARS)) +
      (text.length > SAMPLE_PREVIEW_CHARS ? "…" : ""),
    chars: text.length,
    truncated: verdict.truncated,
    returnedText: readSampledText(method, result),
  };
  // A result with no text (an image, an empty list) was not scanned: it is not counted.
  if (text)
    await addDetectionCounts(db, record.id, "sample", [
      { source: server.name, agent: "", scanned: 1, flagged: verdict.flagged ? 1 : 0 },
    ]);
  // Running a tool acts on a real system: every run is in the audit log, with what it returned.
  await auditOwnerAction(db, {
    kind: "source.sampled",
    reviewId: record.id,
    serverId: server.id,
    summary: `Sampled ${request.item === "tool" ? request.tool : itemLabel(request.item, request.tool)} on ${server.name}: ${text ? (verdict.flagged ? `flagged (score ${verdict.score.toFixed(2)})` : "not flagged") : "no text returned"}`,
    detail: {
      server: server.name,
      item: request.item,
      tool: request.tool,
      // A fixed resource's URI is the review's own; a template's expansion holds the values.
      ...(request.item === "resource" ? { uri: request.tool } : {}),
      // The argument names only: a value the reviewer typed may be a customer's id or worse.
      argumentNames: Object.keys(request.arguments).slice(0, 50),
      sources: sourceNames,
      flagged: verdict.flagged,
      score: verdict.score,
      chars: text.length,
      returnedText: sample.returnedText.kind,
    },
  });
  if (verdict.flagged)
    await auditOwnerAction(db, {
      kind: "content.flagged",
      reviewId: record.id,
      serverId: server.id,
      summary: `Detector flagged a sample of ${request.item === "tool" ? request.tool : itemLabel(request.item, request.tool)} from ${server.name} (score ${verdict.score.toFixed(2)}): ${reasons
        .slice(0, 3)
        .map((r) => `${r.signal}: ${r.detail}`)
        .join("; ")}`,
      detail: {
        origin: "sample",
        server: server.name,
        method,
        tool: request.tool,
        sources: sourceNames,
        score: verdict.score,
        reasons: reasons.map((r) => `${r.signal}: ${r.detail}`),
        excerpt: verdict.excerpt,
      },
    });
  // After the log: a run that happened is logged even if keeping its result fails. An error's text
  // ("no ticket T-9") says nothing of what the item returns when it works, so it is not kept.
  if (!sample.isError) await recordSample(db, record.id, request, server.id, sample.returnedText);
  return { ok: true, result: sample };
}
