/**
 * Role inference from what a server says about a tool, signal by signal, each weighed and each
 * shown as a reason:
 * - the leading verb of the name (strong), read through ./name in every naming style;
 * - for OpenAPI-style names, the HTTP method and the path (`API-post-search` reads: a POST to a
 *   query endpoint; `jira_post` is any POST: a write);
 * - the input schema: a content field beside a write, a free address beside a fetch, recipients
 *   beside a send, a visibility field on a write;
 * - the description, as weak evidence, read only when the name has no known verb: a word in a
 *   sentence never outweighs the name's verb;
 * - the annotations, which are claims: one agreeing with the name raises confidence, one
 *   contradicting it is a conflict in which the safer reading wins (no sink role is ever dropped
 *   for a claim), and an absent hint lowers confidence without making a read a sink on its own.
 * What the sources say (mapped sources, their confidentiality) is added by ./suggest.
 */
import type { ToolRole } from "@/lib/review/schema";
import {
  annotationCombination,
  effectiveAnnotationsOf,
  type EffectiveAnnotations,
} from "@/lib/tools/annotations";
import {
  OPERATION_FIELDS,
  SESSION_OBJECTS,
  SESSION_VERBS,
  CODE_WORDS,
  CONTENT_FIELDS,
  EXEC_VERBS,
  INTERACTION_VERBS,
  NET_FETCH_VERBS,
  OUTPUT_WORDS,
  PATH_WORDS,
  WEB_OBJECTS,
  DEPLOY_NOUNS,
  HTTP_METHODS,
  MODIFY_VERBS,
  OUTBOUND_NOUNS,
  QUERY_NOUNS,
  RECIPIENT_FIELDS,
  SECRET_NOUNS,
  SEND_VERBS,
  URL_FIELDS,
  RETURN_WORDS,
  TEXT_OBJECTS,
  INFRA_OBJECTS,
  NAME_LIST_OBJECTS,
  PUBLIC_OBJECTS,
  PRIVATE_KINDS,
  VISIBILITY_FIELDS,
  type VerbClass,
} from "./lexicon";
import {
  DIRECTION_LEADS,
  LIST_COMPOUNDS,
  leadingDescriptionVerb,
  nameWords,
  readName,
  type NameReading,
} from "./name";
import { REACH_WORDS, reachCues, reachFindings, type ReachCues } from "./reach";
import { AGENT_NOUNS, CONJUNCTIONS, NAME_PREFIXES, NOUN_LIKE, VERB_CLASS } from "./lexicon";

export type InferInput = {
  name: string;
  description?: string;
  /** The index of the tool's annotation combination (see `annotationCombination`). */
  annotationCombination: number;
  inputSchema?: unknown;
  /** What the tool returns, as a JSON Schema object, where the server lists it. */
  outputSchema?: unknown;
  /** The words of the server's name, dropped from the front of the tool's. */
  serverWords?: readonly string[];
};

export type Conflict = {
  hint: "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";
  claimed: boolean;
  nameReading: string;
  message: string;
};

/** A role being inferred: its reasons and its confidence, the strongest signal's. */
export type Draft = { reasons: string[]; confidence: number };

export type Inference = {
  roles: Map<ToolRole, Draft>;
  annotations: EffectiveAnnotations;
  verb: string | null;
  conflicts: Conflict[];
  /** 0..1: how sure the inference is that the tool is not a sink; null when it suggests one. */
  notSinkConfidence: number | null;
  /** Reasons behind what is *not* suggested (a read with no annotations is not a write). */
  notes: string[];
};

/** The reason of a read that names nothing known to carry outside text: a guess, the weakest one. */
const RETURNS_WHAT_IT_FINDS = "it returns what it finds";
const onlyGuessed = (draft: Draft | undefined) =>
  draft !== undefined && draft.reasons.every((r) => r.endsWith(RETURNS_WHAT_IT_FINDS));

/** The combination of a tool that declares no annotation (an offered operation read on its own). */
const UNANNOTATED = annotationCombination(undefined);

const SINK_ROLES: readonly ToolRole[] = ["writes", "deploys_or_destroys", "network_or_shares"];

/** Confidence levels, named so the weighing reads as prose. */
const STRONG = 0.95;
const NAME = 0.85;
const NAME_OBJECT = 0.75;
const SCHEMA = 0.8;
const CONFLICTED = 0.6;
const DESCRIPTION = 0.55;
const WEAK = 0.5;
const SPEC_DEFAULT_ONLY = 0.3;

const CLASS_ROLE: Record<Exclude<VerbClass, "read" | "compute">, ToolRole> = {
  write: "writes",
  destroy: "deploys_or_destroys",
  network: "network_or_shares",
};

const CLASS_SAYS: Record<VerbClass, string> = {
  read: "reads",
  compute: "computes on its inputs",
  write: "writes",
  destroy: "deletes, deploys or runs something",
  network: "sends or shares outside the session",
};

/** A verb's reading with where it came from, e.g. `the name's verb "delete" deletes…`. */
type Reading = {
  verbClass: VerbClass;
  says: string;
  confidence: number;
  fromName: boolean;
  verb: string;
  session?: boolean;
};

type Field = {
  key: string;
  words: string[];
  freeText: boolean;
  /**
   * The field's description. infer.ts reads it only through `cues`, which the shared inference's key
   * holds whole; reach.ts reads it through its own cues, also held whole (`reachCues`).
   */
  description: string;
  /** What the rules read from the description (see `fieldCues`). */
  cues: FieldCues;
  /** An enum field's choices include a public or shared audience (`boardKind: public | private | share`). */
  offersPublic: boolean;
  /** The field takes an object with fields of its own (`deleted: { state }`), not a value or a switch. */
  record: boolean;
  /** A record that declares none of its fields (`content: { type: "object" }`): it can hold anything. */
  opaque: boolean;
  /** The field's enum choices, or its list items' (`expand: ["comments", "transitions"]`), at most 100. */
  choices: string[];
};

/** What the rules read from a field's description; the shared inference's key holds it whole. */
type FieldCues = ReturnType<typeof fieldCues>;
function fieldCues(description: string) {
  return {
    savesTo: SAVES_TO.test(description),
    grantsAccess: GRANTS_ACCESS.test(description),
    sharedContent: SHARED_CONTENT.test(description),
    fetchedAddress: FETCHED_ADDRESS.test(description),
    inlineContent: INLINE_CONTENT.test(description),
    returnedInline: RETURNED_INLINE.test(description),
    localUpload: LOCAL_UPLOAD.test(description),
    archives: ARCHIVES.test(description),
    schemes: (description.match(SCHEMES) ?? []).length >= 2,
    codeUnit: CODE_UNIT.test(description),
    dropSwitch: DROP_SWITCH.test(description),
    confirmsDestruction: CONFIRMS_DESTRUCTION.test(description),
    presentsText: presentedText(description),
    filtersByDescription: FILTERS_BY_DESCRIPTION.test(description),
  };
}

/**
 * Issue 32, eleventh round, recall (not independent): a filter that matches on the listed objects'
 * description ("entries whose description contains 'cloud'", `NOT description.empty`) says a
 * free-form description comes back with them.
 */
const FILTERS_BY_DESCRIPTION =
  /\bwhose descriptions? contains?\b|\bnon-empty\b[\w ]{0,30}\bdescriptions?\b|\bdescription\.empty\b|\bdescription\s*:\s*['"]/i;

/**
 * Issue 32, tenth round: an input that sets how a text object in the response is presented
 * ("Present diffs in the unified diff format") says that text comes back.
 */
const PRESENTS =
  /^\s*(?:present|format|render|show|display)s?\s+(?:the\s+)?([a-z]+)\s+(?:in|as)\b/i;
function presentedText(description: string): string | undefined {
  const word = description.match(PRESENTS)?.[1]?.toLowerCase();
  return word !== undefined && TEXT_OBJECTS.has(word) && !ANY_RESPONSE.has(word) ? word : undefined;
}
/** Words for whatever a response holds ("Format results as JSON"): they name no text object. */
const ANY_RESPONSE = new Set([
  "result",
  "results",
  "output",
  "text",
  "content",
  "contents",
  "html",
  "markdown",
  "bytes",
  "report",
  "summary",
]);

/** Enum choices that publish or share what is written (`public`, `share`, `SHAREABLE`). */
const PUBLIC_CHOICES = new Set(["public", "share", "shareable", "anyone"]);

/**
 * The input schema's fields: the top level and one level into object fields (`params.outputDir`)
 * and into the items of list fields (`events[].attendees`), at most 200 each; `freeText` when a field takes a string (or strings) of any shape.
 */
function schemaFields(schema: unknown, depth = 0): Field[] {
  if (!schema || typeof schema !== "object") return [];
  const properties = (schema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== "object") return [];
  const out: Field[] = [];
  for (const [key, value] of Object.entries(properties as Record<string, unknown>).slice(0, 200)) {
    const v = (value && typeof value === "object" ? value : {}) as {
      type?: unknown;
      enum?: unknown;
      items?: { type?: unknown; enum?: unknown };
      description?: unknown;
      readOnly?: unknown;
    };
    // JSON Schema's `readOnly: true` marks a field the service sets (`created_at`, `deleted_at` in a
    // record schema reused as the input): the caller cannot send it, so it says nothing about the call.
    if (v.readOnly === true) continue;
    const types: unknown[] = Array.isArray(v.type) ? v.type : [v.type];
    const itemTypes: unknown[] = Array.isArray(v.items?.type) ? v.items.type : [v.items?.type];
    const stringy =
      types.includes("string") ||
      types.includes(undefined) ||
      (types.includes("array") && (itemTypes.includes("string") || itemTypes.includes(undefined)));
    const description = typeof v.description === "string" ? v.description.slice(0, 500) : "";
    out.push({
      key,
      words: nameWords(key),
      freeText: stringy && !Array.isArray(v.enum),
      description,
      cues: fieldCues(description),
      offersPublic:
        Array.isArray(v.enum) &&
        v.enum
          .slice(0, 100)
          .some((c) => typeof c === "string" && PUBLIC_CHOICES.has(c.toLowerCase())),
      record: types.includes("object") && !types.includes("boolean"),
      opaque:
        types.includes("object") &&
        !types.includes("boolean") &&
        !(value as { properties?: unknown } | null)?.properties,
      choices: [v.enum, v.items?.enum]
        .flatMap((e): unknown[] => (Array.isArray(e) ? (e as unknown[]).slice(0, 100) : []))
        .filter((c): c is string => typeof c === "string"),
    });
    if (depth === 0 && types.includes("object")) out.push(...schemaFields(value, 1));
    // The fields of each item of a list input (`events[].attendees`, `cards[].description`).
    else if (depth === 0 && types.includes("array")) out.push(...schemaFields(v.items, 1));
  }
  return out;
}

/** An operation an input offers; `branch` when it is the `const` of one branch of a union of inputs. */
type OfferedOperation = { field: string; value: string; branch: boolean };

/**
 * The operations an input offers to choose from: the enum values of a field that picks an operation
 * (`action`, `operation`, `actions[].type`), or the `const` of each branch of a union of inputs, down
 * to four levels of nesting, at most 500.
 */
function offeredOperations(schema: unknown): OfferedOperation[] {
  const out: OfferedOperation[] = [];
  const enumsOf = (node: unknown, field: string, depth: number) => {
    if (!node || typeof node !== "object" || depth > 3 || out.length >= 500) return;
    const n = node as {
      enum?: unknown;
      const?: unknown;
      items?: unknown;
      properties?: unknown;
      anyOf?: unknown;
      oneOf?: unknown;
    };
    if (Array.isArray(n.enum))
      for (const v of n.enum.slice(0, 100))
        if (typeof v === "string") out.push({ field, value: v, branch: false });
    // One branch of a discriminated union (`{ operation: { const: "get-deploy" }, params }`).
    if (typeof n.const === "string") out.push({ field, value: n.const, branch: true });
    enumsOf(n.items, field, depth + 1);
    for (const alt of [n.anyOf, n.oneOf])
      if (Array.isArray(alt)) for (const a of alt.slice(0, 20)) enumsOf(a, field, depth + 1);
    if (n.properties && typeof n.properties === "object")
      for (const v of Object.values(n.properties as Record<string, unknown>).slice(0, 50))
        enumsOf(v, field, depth + 1);
  };
  const walk = (node: unknown, depth: number) => {
    if (!node || typeof node !== "object" || depth > 4) return;
    // The branches of a union of inputs, each with its own operation field.
    const { anyOf, oneOf } = node as { anyOf?: unknown; oneOf?: unknown };
    for (const alt of [anyOf, oneOf])
      if (Array.isArray(alt)) for (const a of alt.slice(0, 20)) walk(a, depth + 1);
    const properties = (node as { properties?: unknown }).properties;
    if (!properties || typeof properties !== "object") return;
    for (const [key, value] of Object.entries(properties as Record<string, unknown>).slice(
      0,
      200,
    )) {
      if (nameWords(key).some((w) => OPERATION_FIELDS.has(w))) enumsOf(value, key, depth);
      else if (value && typeof value === "object") walk(value, depth + 1);
    }
  };
  walk(schema, 0);
  return out;
}

/** A field naming where the tool saves its output: `outputDir`, `local_path`, or a file field its description says is saved to. */
const SAVES_TO =
  /\b(save[sd]?|saving|write[s]?|writing|written|store[sd]?|download(?:s|ed)?)\b[^.]{0,60}\b(to|into|in|as)\b/i;
function outputField(fields: readonly Field[]): Field | undefined {
  return fields.find(
    (f) =>
      f.freeText &&
      f.words.some((w) => PATH_WORDS.has(w)) &&
      (f.words.some((w) => OUTPUT_WORDS.has(w)) || f.cues.savesTo),
  );
}

const fieldIn = (fields: readonly Field[], set: ReadonlySet<string>, freeText = false) =>
  fields.find(
    (f) =>
      (!freeText || f.freeText) &&
      f.words.some((w) => set.has(w)) &&
      !(f.words.length > 1 && f.words.at(-1) === "id"),
  );

/**
 * The reading of a POST (`API-post-search`, `jira_post`, `post_message`): a query endpoint reads, a
 * message endpoint sends, any other POST writes.
 */
function postReading(objects: readonly string[], generated: boolean): Reading {
  const query = objects.find((w) => QUERY_NOUNS.has(w));
  if (query)
    return {
      verbClass: "read",
      says: `"post" is an HTTP POST to a query endpoint ("${query}"), which reads`,
      confidence: NAME,
      fromName: true,
      verb: "post",
    };
  const outbound = objects.find((w) => OUTBOUND_NOUNS.has(w));
  if (outbound)
    return {
      verbClass: "network",
      says: `"post" posts a ${outbound}, which leaves the session`,
      confidence: NAME,
      fromName: true,
      verb: "post",
    };
  return {
    verbClass: "write",
    says:
      generated || objects.length === 0 ? `"post" is an HTTP POST, which writes` : `"post" writes`,
    confidence: NAME,
    fromName: true,
    verb: "post",
  };
}

/** Words that do not name what a tool acts on (`wait_for_pipeline`, `issues_by_label`). */
const FILLER = new Set([
  "by",
  "for",
  "with",
  "to",
  "from",
  "in",
  "of",
  "on",
  "all",
  "my",
  "the",
  "a",
  "an",
  "as",
  "at",
  "into",
  "info",
  "details",
  "detail",
  "detailed",
  "data",
  "list",
  "id",
  "ids",
]);

/** The name's head noun: the last object after the verb (`list_issue_labels`: "labels"), or the last object. */
function headNoun(name: {
  words: string[];
  verbs: { index: number }[];
  objects: string[];
}): string | undefined {
  const verbAt = new Set(name.verbs.map((v) => v.index));
  const start = name.verbs.length > 0 ? name.verbs[0]!.index + 1 : 0;
  // What follows "by" is the key the object is found by, not the object (`get_tasks_by_filter`
  // returns tasks, `get_cards_by_list_id` cards).
  // So does what follows "for" or "to" after an object (`search_users_for_mentions` returns users,
  // `give_feedback_to_desktop_commander` gives feedback): the purpose or the recipient, not the object.
  const keyAt = name.words.findIndex(
    (w, i) => i >= start && (w === "by" || (i > start && (w === "for" || w === "to"))),
  );
  const by = keyAt;
  // A qualifier after the verb (`workflows-get-default`, `iterations-get-active`) names which
  // one, not what: the object is then the word before the verb.
  const pick = (from: number, to = name.words.length) =>
    name.words
      .filter(
        (w, i) => i >= from && i < to && !verbAt.has(i) && !FILLER.has(w) && !QUALIFIERS.has(w),
      )
      .at(-1);
  // `search_by_recipient`: with nothing between the verb and "by", the name names no object (the
  // recipient is the key, not what comes back), and the read is taken as it is described.
  if (by === start) return pick(0, by);
  return (by > start ? pick(start, by) : undefined) ?? pick(start) ?? pick(0);
}

/** Words that say which object, not what it is (`get_default`, `get-current`, `list_active`). */
const QUALIFIERS = new Set(["current", "default", "active", "upcoming", "latest", "recent"]);

/** Last words that describe an object rather than return it (`get_file_info`, `get_collection_stats`). */
const METADATA_TAILS = new Set(["info", "metadata", "stats", "size"]);

/** The vendor's own fixed text, or the caller's own identity: no outside writer's text. */
const VENDOR_TEXT = new Set([
  "documentation",
  "docs",
  "self",
  "me",
  "whoami",
  "schema",
  "tools",
  "knowledge",
  "prompts",
  // Feedback to the vendor (`give_feedback`, `search_feedback`): what the caller tells the vendor.
  "feedback",
  "geocode",
  "directions",
  "elevation",
  "distance",
  // A clock and a fixed palette (`get-current-time`, `list-colors`).
  "time",
  "colors",
  "colours",
  // Issue 32, eleventh round: a tool's or a query language's help (`qql_help`, `vibe_help`): the
  // vendor's own fixed text.
  "help",
]);

/**
 * Last words of an output field whose string is an identifier, a name or a setting, never prose
 * someone wrote (`orgId`, `username`, `permissionLevel`, `created`); any other string may be.
 */
const IDENTIFIER_TAILS = new Set([
  "id",
  "ids",
  "name",
  "slug",
  "username",
  "login",
  "email",
  "url",
  "uri",
  "href",
  "status",
  "state",
  "type",
  "kind",
  "level",
  "role",
  "at",
  "date",
  "time",
  "created",
  "updated",
  "modified",
  "version",
  "region",
  "ip",
  "cidr",
  "block",
  "hash",
  "sha",
  "count",
  "size",
]);

/**
 * What an output schema says of the text a tool returns: `names` when every field it declares is a
 * number, a flag, a choice, or a string naming or identifying something (`{ bases: [{ id, name,
 * permissionLevel }] }`): names and settings, no prose anyone wrote; `open` when some field holds
 * anything (`fields: {}`, an untyped `data`) or prose (`content`, `comment`); `undefined` when
 * there is no output schema. At most 500 fields, 6 levels deep.
 */
export function outputText(schema: unknown): "names" | "open" | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  let seen = 0;
  const open = (node: unknown, key: string, depth: number): boolean => {
    if (++seen > 500 || depth > 6) return true;
    if (!node || typeof node !== "object") return true;
    const n = node as Record<string, unknown>;
    if (Array.isArray(n.enum) || n.const !== undefined) return false;
    for (const alt of [n.anyOf, n.oneOf])
      if (Array.isArray(alt)) return alt.slice(0, 20).some((a) => open(a, key, depth + 1));
    const types: unknown[] = Array.isArray(n.type) ? n.type : [n.type];
    if (types.includes("array")) return open(n.items, key, depth + 1);
    if (types.includes("object") || n.properties !== undefined) {
      // A map of anything (`fields: { additionalProperties: {} }`) holds whatever was stored.
      const extra = n.additionalProperties;
      if (extra !== undefined && extra !== false && (typeof extra !== "object" || extra === null))
        return true;
      if (extra && typeof extra === "object" && open(extra, key, depth + 1)) return true;
      const props = n.properties;
      // `{ type: "object" }` alone holds anything; `{ additionalProperties: false }` alone, nothing.
      if (!props || typeof props !== "object") return extra !== false;
      return Object.entries(props as Record<string, unknown>)
        .slice(0, 200)
        .some(([k, v]) => open(v, k, depth + 1));
    }
    if (types.includes("string")) {
      if (typeof n.format === "string") return false;
      return !IDENTIFIER_TAILS.has(nameWords(key).at(-1) ?? "");
    }
    // Numbers, flags and nulls carry no text; a field of no declared type carries anything.
    return types.every((t) => t === undefined);
  };
  return open(schema, "", 0) ? "open" : "names";
}

/** Words that make a record a DNS record (`domain-record-get`, `list_dns_records`). */
const DNS_QUALIFIERS = new Set(["domain", "dns"]);
/** Rollouts of a service (issue 32, twelfth round): read by these heads, they are its deploy history. */
const ROLLOUT_HEADS = new Set(["deployment", "deployments", "environment", "environments"]);
/** What a domain's DNS settings are read as: its records, and saved snapshots of them. */
const DNS_HEADS = new Set(["record", "records", "snapshot", "snapshots"]);

/**
 * What a description says an infrastructure object holds, beyond its own settings: code, file
 * contents, stored values, logs and output, messages, or records people write. A log drain is
 * where logs are sent, a setting ("log-drain credentials are masked"), not logs.
 */
const HELD_TEXT =
  /\b(?:content|contents|source|script|code|values?|files?|logs?(?![-\s]drains?)|output|messages?|issues|events|comments|body|bodies|descriptions?)\b/i;

/**
 * What a description says the object holds, leaving out what it says is masked or redacted
 * ("Credentials (webhook secrets, compose bodies) are masked by default"): masked text is not returned.
 */
function holdsText(description: string | undefined): boolean {
  // The opening says what the tool returns: a title and its paragraph ("Get video assets\n\n
  // Retrieves a list of…"), up to any heading. What follows is usage notes (a query syntax that
  // filters "by filename", examples), which name fields to filter by, not held text.
  const opening = (description ?? "")
    .trim()
    .split(/\n\s*#/)[0]!
    .split(/\n\s*\n/)
    .slice(0, 2)
    .join("\n\n");
  const sentences = opening.slice(0, 2000).split(/(?<=[.;!?])\s+/);
  return sentences.some((s) => !MASKED.test(s) && HELD_TEXT.test(s));
}
const MASKED = /\b(?:masked|redacted|obfuscated)\b/i;

/** Output fields that are what people wrote (`documents`, `messages`), unlike a result wrapper (`content`). */
const RETURNED_TEXT = new Set([
  "documents",
  "messages",
  "comments",
  "posts",
  "replies",
  "emails",
  "issues",
  "notes",
  "pages",
]);

/**
 * The first top-level output field named for what people write (`documents`, `messages`) whose value
 * holds anything: a list of items of no declared shape, or prose. A list of ids and names does not.
 */
export function outputTextField(schema: unknown): string | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const properties = (schema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== "object") return undefined;
  for (const [key, value] of Object.entries(properties as Record<string, unknown>).slice(0, 200)) {
    const head = nameWords(key).at(-1);
    if (!head || !RETURNED_TEXT.has(head)) continue;
    if (outputText({ type: "object", properties: { [key]: value } }) === "open") return key;
  }
  return undefined;
}

/** An input described as local files that the call uploads ("Local files to upload & embed"). */
const LOCAL_UPLOAD =
  /\blocal (?:files?|paths?)\b[^.;]{0,40}\bupload|\bupload[^.;]{0,40}\blocal (?:files?|paths?)\b/i;

/** An input that carries a file's bytes inline rather than naming a local file. */
const INLINE_CONTENT = /\bbase-?64\b/i;

/**
 * A status the tool reports; it is only a state unless the description says results come with it,
 * or names files (`git status` "…including staged, unstaged, and untracked files"), or says the
 * statuses are status updates, which people write (a project's status updates are posts).
 */
const STATUS_WORDS = new Set([
  "status",
  // Issue 32, twelfth round (not independent): how far a job has got (`get_bulk_operation_progress`).
  "progress",
]);
const STATUS_WITH_RESULTS =
  /\b(?:results?|outputs?|content|data|logs?|messages?|pages?|documents?|files)\b|\bstatus\s+updates?\b/i;
/** "Get all status updates for a project": statuses that people post, not a list of states. */
const STATUS_POSTS = /\bstatus\s+updates?\b/i;

/**
 * Pictures and archives (`list-images`, `generate-image`, `generate-archive`): what comes back is
 * bytes or a download link, not text anyone wrote.
 */
const PICTURE_OBJECTS = new Set([
  "image",
  "images",
  "picture",
  "pictures",
  "photo",
  "photos",
  "archive",
  "archives",
]);
/**
 * "Extract all unique service names from logs", "Returns API key names, IDs, and creation dates",
 * "returns … board IDs and tasks board IDs": the description says what comes back is names or ids
 * (with states, dates), not prose. Not where the same
 * sentence names text people write ("Returns team names, descriptions, and IDs"), nor a list the
 * caller passes ("Get full worklog details for a list of worklog IDs": issue 32, twelfth round).
 */
const RETURNS_NAMES =
  /\b(?<!\b(?:by|for|from|of|with)\s(?:a\s|the\s)?)(?:returns?|extracts?|lists?|gets?|retrieves?)\b(?:\s+[\w-]+){0,3}?\s+(?:names|ids|identifiers)\b[^.;]*/i;
const PROSE_WORDS =
  /\b(?:descriptions?|content|contents|body|bodies|messages?|comments?|notes?|text|titles?|summar(?:y|ies)|bios?|excerpts?|posts?)\b/i;
const returnsNamesOnly = (text: string) => {
  const m = text.match(RETURNS_NAMES);
  return m !== null && !PROSE_WORDS.test(m[0]);
};
/**
 * Issue 32, twelfth round: "Returns: For each log: id, created_at, endpoint, method,
 * response_status, user_agent", "returning a summary including UID, name, and type", "Returns
 * profile information including name, email, job title, and department": the description lists
 * the fields that come back, and every one is an id, a name, a kind, a state, a date, an address
 * or a figure: what the account set, no prose. Not where any field is prose or of no known shape
 * ("title", "description", "payload", "details", "data"), which the list would then bring back.
 */
const RETURNS_FIELDS = /\b(?:returns?|returning)\b:?([^.;\n]*)/gi;
/** After these, what follows is the field list ("with details like userid, email, role etc"). */
const FIELD_LIST_LEAD = /\b(?:including|like|with|each [\w-]+:)\s*|:\s*/gi;
const NAME_FIELD_WORDS = new Set(
  (
    "id ids uid uids userid key keys slug slugs name names username usernames login logins " +
    "type types kind kinds email emails role roles status statuses state states created_at " +
    "updated_at created updated date dates time times timestamp timestamps endpoint endpoints " +
    "method methods response_status status_code http_status_code user_agent department " +
    "departments team teams url urls size sizes count counts region regions version versions"
  ).split(" "),
);
/** Files and attachments: their names and paths count as outside text (labelling rules), ids or not. */
const FILE_TEXT = new Set(["file", "files", "attachment", "attachments", "document", "documents"]);
function returnsFieldsOnly(text: string): boolean {
  for (const m of text.replace(/[*`]/g, "").matchAll(RETURNS_FIELDS)) {
    const said = m[1]!;
    const lead = [...said.matchAll(FIELD_LIST_LEAD)].at(-1);
    const list = (lead ? said.slice(lead.index + lead[0].length) : said)
      .replace(/\s+etc\.?$/i, "")
      .trim();
    const fields = list
      .split(/\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+/)
      .map((f) => f.trim().toLowerCase())
      .filter(Boolean);
    if (fields.length < 3) continue;
    return fields.every((f) => {
      const words = f.split(/\s+/);
      // A job title is a directory field; any other title is what someone wrote.
      if (f === "job title" || f === "job titles") return true;
      return words.length <= 3 && words.every((w) => NAME_FIELD_WORDS.has(w));
    });
  }
  return false;
}
/**
 * Issue 32, twelfth round: "(read-only, no auth)", "without credentials, results come from the public
 * RSS feed": a read the description says needs no authentication reaches only what anyone can read.
 * "no Authorization header" (a download link handed out by an authenticated call) is not this.
 */
const UNAUTHENTICATED =
  /\bno auth(?:entication)?\b|\bwithout (?:auth(?:entication)?|credentials|an? api key|logging in|login)\b|\bno (?:api key|login|credentials) (?:is )?(?:needed|required)\b|\bauthentication (?:is )?not required\b|\bdoes not require (?:auth(?:entication)?|an api key|credentials|a login)\b/i;
/**
 * Issue 32, eleventh round: "Get store settings and configuration.": a description that opens by
 * reading an object's settings or configuration says what comes back is how it is set up, not
 * prose. Not where the same sentence names text people write.
 */
const READS_SETTINGS =
  /^(?:gets?|lists?|retrieves?|returns?|shows?|fetch(?:es)?|reads?|views?)\b(?:\s+[\w'-]+){0,3}?\s+(?:settings|configurations?|config)\b[^.;]*/i;
const readsSettingsOnly = (text: string) => {
  const m = text.trim().match(READS_SETTINGS);
  return m !== null && !PROSE_WORDS.test(m[0]);
};
/**
 * "Returns both live and historic log URLs": addresses where the text can be fetched, not the text;
 * reading them is another call (as a download to a file returns its path).
 */
const LINKS_TO_TEXT =
  /\breturns?\b[^.;]{0,40}\b(?:logs?|files?|attachments?|artifacts?|reports?)\s+(?:urls?|links?)\b/i;
/**
 * Issue 32, tenth round: "Manage Jira issue links": the text object whose links a tool with no
 * such object in its name manages (links between records are those records).
 */
const LINKED_TEXT = /\b([a-z]+)\s+links\b/gi;
function linkedText(text: string): string | undefined {
  for (const m of leadSentences(text).matchAll(LINKED_TEXT)) {
    const word = m[1]!.toLowerCase();
    if (TEXT_OBJECTS.has(word)) return word;
  }
  return undefined;
}
/** Object nouns that say nothing of what the object is (`list_objects`, `get_item`). */
const GENERIC_HEADS = new Set(["object", "objects", "item", "items", "resource", "resources"]);
/**
 * The noun a description puts after a generic one in its lead sentences, when that noun names
 * something an account configures ("Durable Object instances" → instances); undefined otherwise.
 */
function compoundHead(text: string): string | undefined {
  const words = nameWords(leadSentences(text));
  for (let i = 0; i + 1 < words.length; i++)
    if (
      GENERIC_HEADS.has(words[i]!) &&
      (INFRA_OBJECTS.has(words[i + 1]!) || NAME_LIST_OBJECTS.has(words[i + 1]!)) &&
      // "by resourceType plus resourceId": a resource type says which kind is asked for, not what
      // comes back (issue 32, eleventh round, where types became names).
      !TYPE_WORDS.has(words[i + 1]!)
    )
      return words[i + 1];
  return undefined;
}
/**
 * "…the label state of an email without fetching its body": the description says the text itself
 * does not come back, only what is known about it.
 */
const WITHOUT_TEXT =
  /\b(?:without|not|never)\s+(?:fetching|returning|downloading|reading|including)\s+(?:its|the|their|any)?\s*(?:body|bodies|content|contents|text)\b/i;
/**
 * The sentences that say what a tool does: the first of its title and of its first paragraph
 * ("Get crawl status\n\nRetrieve the current status and available results…"), before usage notes
 * ("…before trusting query results"), joined as one sentence each.
 */
const leadSentences = (text: string) =>
  text
    .trim()
    .split(/\n\s*#/)[0]!
    .split(/\n\s*\n/)
    .slice(0, 2)
    .map((p) => (p.trim().split(/[.!?\n](?:\s|$)/)[0] ?? "").slice(0, 300))
    .join(". ");
/**
 * "Create, list, get, update, or remove event definitions": the objects are definitions (a name and
 * a schema the account configures), not occurrences that carry what people wrote.
 */
const DEFINITIONS_OF = /\b(\w+)\s+definitions\b/i;
const definitionsOf = (text: string) => text.match(DEFINITIONS_OF)?.[1]?.toLowerCase();
/** "…from the current page", "…from an email": the text object a computation works from. */
const FROM_OBJECT =
  /\bfrom\s+(?:the|a|an|this|its|each|one)?\s*(?:current|specified|given|active|open)?\s*(\w+)/i;
const fromText = (text: string) => {
  for (const sentence of leadSentences(text).split(". ")) {
    const word = sentence.match(FROM_OBJECT)?.[1]?.toLowerCase();
    if (word !== undefined && TEXT_OBJECTS.has(word)) return word;
  }
  return undefined;
};
/** An allowlist the operator configures (`list_allowed_directories`, `get_whitelisted_ips`). */
const ALLOWED_WORDS = new Set(["allowed", "allowlisted", "whitelisted", "permitted"]);
/** A model's making of new content from the caller's prompt (`ai_text_generation`, `get-generation-task`). */
const GENERATION_WORDS = new Set(["generation", "generations"]);
/** What a generation returns: new text or content, or the job that makes it. */
const GENERATED_HEADS = new Set(["text", "content", "task", "tasks", "job", "jobs"]);
/** What a media library holds (`list-videos`, `search-assets`) when the description says assets. */
const MEDIA_HEADS = new Set(["asset", "assets", "video", "videos", "file", "files", "resources"]);
/** "video assets", "raw assets", "your asset library": a media library's uploads. */
const MEDIA_LIBRARY = /\b(?:(?:asset|media)\s+library|(?:video|image|audio|raw|media)\s+assets)\b/i;
/** "documentation from official docs": the vendor's own fixed text. */
const OFFICIAL_DOCS =
  /\b(?:get|gets|returns?|retrieves?|fetch(?:es)?|documentation)\b[^.;]{0,60}\bofficial\s+(?:docs|documentation)\b/i;
/** Tags and labels: names an admin or member applies to records, unless they are a repository's refs. */
const TAG_WORDS = new Set(["tag", "tags"]);
/**
 * Tags that are a repository's refs ("List repository tags", "Tags are used to mark specific
 * points in history"): contributors name them, so they count as text others write.
 */
const GIT_REFS = /\b(?:repositor(?:y|ies)|repos?|commits?|refs?|releases?|signed|git|history)\b/i;
/**
 * A download whose description says the content also comes back ("images returned as base64",
 * "remote mode returns inline base64"): the caller-named file is not the only place it goes.
 */
const RETURNED_INLINE =
  /\breturn(?:s|ed)?\b[^.;]{0,40}\b(?:inline|base-?64)\b|\b(?:inline|base-?64)\b[^.;]{0,20}\breturned\b/i;
/** "Manage issue status transitions": a tracker's workflow of states, not an automation. */
const STATUS_TRANSITIONS = /\bstatus(?:es)?\s+transitions?\b/i;
/**
 * Measured values (`measures_component`, `get_metrics`): numbers a service computes over an object
 * (coverage, duplication, latency), not text anyone wrote, whatever the object measured is.
 */
const FIGURE_WORDS = new Set([
  "measure",
  "measures",
  "metric",
  "metrics",
  // A page's waterfall (`get_rum_page_waterfall`): each resource's timings, a chart of numbers.
  "waterfall",
  "waterfalls",
  // Issue 32, eleventh round: stock levels (`list_inventory` "Shows stock quantities"): counts.
  "inventory",
  "inventories",
  "ranking",
  "rankings",
  // Issue 32, eleventh round (precision, not independent): a metric's time series
  // (`list_time_series` "metric data over a specific time period"): numbers by time.
  "series",
  "rating",
  "ratings",
  "score",
  "scores",
  // Issue 32, twelfth round: `performance_history` "historical performance data and trends",
  // `get_rum_page_performance`: timings, sizes and hit rates measured over time.
  "performance",
]);
/** Events of a chart (`get_milestone_burndown_events`): figures by date, not what people wrote. */
const CHART_WORDS = new Set(["burndown", "burnup"]);
/** Labels and states of a project (GitLab, Plane): each comes with a description members write. */
const DESCRIBED_NAMES = new Set(["label", "labels", "state", "states", "type", "types"]);
/** Record types (issue 32, eleventh round): a data model's words, named by what they are types of. */
const TYPE_WORDS = new Set(["type", "types"]);
/**
 * "Returns team names, descriptions, and IDs": a listing whose description says descriptions come
 * back returns the prose their owners wrote, not names alone.
 */
const RETURNS_DESCRIPTIONS = /\b(?:returns?|with|including|includes)\b[^.;]{0,60}\bdescriptions\b/i;

/**
 * Issue 32, eleventh round, recall (not independent): what revisions are of, where each revision is a
 * saved copy of prose (a page's, a post's), not a file's change record.
 */
const REVISION_WORDS = new Set(["revision", "revisions"]);
/** Issue 32, eleventh round (precision, not independent): a label's values (`list_label_values`). */
const VALUE_WORDS = new Set(["value", "values"]);
const LABEL_WORDS = new Set(["label", "labels"]);
const REVISED_PROSE = new Set([
  "page",
  "pages",
  "post",
  "posts",
  "article",
  "articles",
  "wiki",
  "wikis",
]);
/** "…recurring stack traces in your application": errors the application threw, with their messages. */
const STACK_TRACES = /\bstack ?traces?\b/i;
/** "Track search engine result page positions", "SERP": a search engine's results for a query. */
const SEARCH_ENGINE_RESULTS = /\bsearch[- ]engine results?\b|\bSERPs?\b/i;

/**
 * Issue 32, thirteenth round (not independent): "Works offline without API calls." A tool that says
 * it computes locally (a buffer around a polygon, the distance between two points) reads nothing
 * and changes nothing: its answer is computed from the caller's own inputs.
 */
const OFFLINE =
  /\bworks? offline\b|\b(?:without|no|makes no) (?:an? )?(?:api|network|external) (?:calls?|requests?)\b|\bcomputed locally\b/i;
/**
 * Issue 32, thirteenth round (not independent): "Search the web for current information": what a
 * web search returns is the public web, not records from inside the account.
 */
const SEARCHES_WEB =
  /\bsearch(?:es|ing)? (?:the )?(?:web|internet)\b|\bweb search(?:es)?\b|\binternet search(?:es)?\b/i;
/**
 * Issue 32, thirteenth round (not independent): "Search the Apify Store", "Browse the npm
 * registry": a vendor's public store, marketplace or registry is what anyone can read.
 */
const PUBLIC_CATALOGUE =
  /\b(?:search|browse|list|find|discover)(?:es|s)?\s+(?:the\s+)?(?:[\w-]+\s+)?(?:store|marketplace|registry|catalog|catalogue)\b/i;

/** Objects that are a person's account: the caller's own when the description says so. */
const ACCOUNT_OBJECTS = new Set(["user", "users", "account", "accounts", "profile"]);
/** "the current user", "the authenticated user", "the current HubSpot access token": the caller. */
const CALLER_OWN =
  /\b(?:current|authenticated|logged[- ]in|signed[- ]in)\s+(?:\w+\s+)?(?:user|account|access token)\b/i;

/**
 * What a description adds to a read's name: whether a status comes with results, whether the
 * account read is the caller's own. Part of the shared inference's key (see `inferRolesShared`).
 */
type DescriptionCues = ReturnType<typeof descriptionCues>;
function descriptionCues(description: string | undefined) {
  const text = (description ?? "").slice(0, 2000);
  const lead = leadingDescriptionVerb(text);
  return {
    statusWithResults: STATUS_WITH_RESULTS.test(leadSentences(text)),
    callerOwn: CALLER_OWN.test(text),
    sentOnly: SENT_MAIL.test(text) && !RECEIVED_MAIL.test(text),
    leadsWithRead: lead !== null && VERB_CLASS.get(lead) === "read",
    statusPosts: STATUS_POSTS.test(text),
    profileText: PROFILE_TEXT.test(text),
    vault: VAULT.test(text),
    returnsOutput: text.match(RETURNS_OUTPUT)?.[1]?.toLowerCase(),
    gitRefs: GIT_REFS.test(text),
    described: text.trim().length > 0,
    returnsInline: RETURNED_INLINE.test(text),
    transitions: STATUS_TRANSITIONS.test(text),
    descriptions: RETURNS_DESCRIPTIONS.test(text),
    mediaLibrary: MEDIA_LIBRARY.test(text),
    officialDocs: OFFICIAL_DOCS.test(text),
    namesOnly: returnsNamesOnly(text),
    fieldsOnly: returnsFieldsOnly(text),
    unauthenticated: UNAUTHENTICATED.test(text),
    settingsOnly: readsSettingsOnly(text),
    linksOnly: LINKS_TO_TEXT.test(text),
    compoundHead: compoundHead(text),
    linkedText: linkedText(text),
    contentOfOwn: contentOfOwn(text),
    withoutText: WITHOUT_TEXT.test(text),
    fromText: fromText(text),
    definitionsOf: definitionsOf(text),
    holdsText: holdsText(text),
    stackTraces: STACK_TRACES.test(text),
    searchEngineResults: SEARCH_ENGINE_RESULTS.test(text),
    offline: OFFLINE.test(text),
    searchesWeb: SEARCHES_WEB.test(leadSentences(text)),
    publicCatalogue: PUBLIC_CATALOGUE.test(leadSentences(text)),
    // For a name with no known verb: the verb the description opens with, and the first word that
    // says what comes back ("returns", "shows").
    leadVerb: lead,
    returnWord: (description ?? "")
      .toLowerCase()
      .split(/[^a-z]+/)
      .slice(0, 400)
      .find((w) => RETURN_WORDS.has(w)),
  };
}

/** The eighth round's description cues (issue 32); `inferRolesShared`'s key holds them whole. */
type SinkCues = ReturnType<typeof sinkCues>;
function sinkCues(description: string | undefined) {
  const text = (description ?? "").slice(0, 2000);
  const lead = leadingDescriptionVerb(text);
  return {
    activatesTools: ACTIVATES_TOOLS.test(text),
    removes: lead !== null && REMOVING_LEADS.has(lead),
    uploads: lead === "upload",
    exposes: EXPOSES.test(text),
    removingMode: REMOVING_MODE.test(text),
    startsJob: lead === "trigger" || lead === "start",
    signalsProcess: SIGNALS_PROCESS.test(text),
    marksState: MARKS_STATE.test(text),
  };
}

/**
 * A field, up to four levels into object inputs (`application.spec.source.repoURL`), that names a
 * source repository by URL or name (not by id): what a deployable made from it runs.
 */
function sourceRepositoryField(schema: unknown, depth = 0): string | undefined {
  if (!schema || typeof schema !== "object" || depth > 3) return undefined;
  const properties = (schema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== "object") return undefined;
  for (const [key, value] of Object.entries(properties as Record<string, unknown>).slice(0, 200)) {
    const v = (value && typeof value === "object" ? value : {}) as { type?: unknown };
    const words = nameWords(key);
    if (
      (v.type === "string" || v.type === undefined) &&
      words.some((w) => REPOSITORY_WORDS.has(w)) &&
      !words.some((w) => w === "id" || w === "ids")
    )
      return key;
    const nested = sourceRepositoryField(value, depth + 1);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * A description that says what comes back is a program's output, a snapshot or a file's content
 * ("…and return newly available output", "Always returns a repository snapshot").
 */
const RETURNS_OUTPUT =
  /\b(?:returns?|returning|displays?|shows?)\b[^.;]{0,60}?\b(output|snapshot|file contents?)\b/i;

/** A password vault ("items from your vault"): what it keeps are secrets the account stored. */
const VAULT = /\bvaults?\b/i;
const VAULT_ITEMS = new Set([
  "item",
  "items",
  "entry",
  "entries",
  "login",
  "logins",
  "secret",
  "secrets",
]);
/**
 * People the account reaches (`search_users`, `List all users`): a directory of names, handles and
 * addresses. Their own prose comes back only where the description says so (a bio, a profile, the
 * user's details or posts).
 */
const PEOPLE_OBJECTS = new Set([
  "user",
  "users",
  "people",
  "person",
  "persons",
  // Issue 32, twelfth round (not independent): who watches or voted for a record (`get_watchers`).
  "watcher",
  "watchers",
  "voter",
  "voters",
]);
const PROFILE_TEXT = /\b(?:bios?|profiles?|details|about|posts?|status(?:es)? text|job titles?)\b/i;

/**
 * Inputs that ask for more in a read's response (`expand`, `include`, `opt_fields`, `embed`), and
 * the text people write that such a choice can bring back (`expand: ["comments", "recent_issues"]`).
 */
const EXPANSION_FIELDS = new Set(["expand", "include", "includes", "embed", "opt", "fields"]);
/** The people-written text an expansion input can ask for, or undefined (`include_comments`, `expand: [issues]`). */
function expandedText(f: Field): string | undefined {
  if (!f.words.some((w) => EXPANSION_FIELDS.has(w))) return undefined;
  // A switch (`include_comments: boolean`) names the text in its own name.
  if (!f.freeText && !f.record && f.choices.length === 0)
    return f.words.find((w) => EXPANDED_TEXT.has(w));
  for (const choice of f.choices) {
    const word = nameWords(choice).find((w) => EXPANDED_TEXT.has(w));
    if (word) return word;
  }
  return undefined;
}
const EXPANDED_TEXT = new Set([
  "issue",
  "issues",
  "comment",
  "comments",
  "description",
  "descriptions",
  "note",
  "notes",
  "message",
  "messages",
  "body",
  "post",
  "posts",
  "reply",
  "replies",
  // Issue 32, tenth round: logs echo what the code and its users produced, and CI jobs carry the
  // names the repository's CI file gives them (the corpus README counts both): `include_logs`.
  "log",
  "logs",
  "job",
  "jobs",
]);

/** What an account writes to send out to its audience: reading one returns the account's own text. */
const OWN_OUTBOUND = new Set([
  "broadcast",
  "broadcasts",
  "newsletter",
  "newsletters",
  "campaign",
  "campaigns",
  // What the account sends out to be read (`list_send`, a Bitwarden Send; an email send): its own.
  "send",
  "sends",
]);
/** "the TipTap JSON content of a broadcast": the body of what the account writes to send out. */
const CONTENT_OF = /\b(?:content|contents|body|html)\s+of\s+(?:a|an|the|one)?\s*(\w+)/i;
const contentOfOwn = (text: string) => {
  const word = text.match(CONTENT_OF)?.[1]?.toLowerCase();
  return word !== undefined && OWN_OUTBOUND.has(word) ? word : undefined;
};
/** The generic names of a body of text (`get-tiptap-json-content`). */
const BODY_HEADS = new Set(["content", "contents", "body", "html"]);

/** Mail objects: what the account sent is its own text; what it received is anyone's. */
const MAIL_OBJECTS = new Set(["email", "emails", "mail", "attachment", "attachments"]);
/** "recently sent emails", "a specific sent transactional email": mail the account sent. */
const SENT_MAIL = /\bsent\s+(?:[a-z]+\s+)?(?:e-?mails?|mail)\b/i;
const RECEIVED_MAIL = /\b(?:received|receiving|inbox|incoming|inbound)\b/i;

/** The first kind of private data a name's objects name (see `PRIVATE_KINDS`). */
const kindOf = (objects: readonly string[]) =>
  PRIVATE_KINDS.find((k) => objects.some((w) => k.words.has(w)));

/** Output fields that are private whatever the tool's name says (`password`, `email`, `apiKey`). */
const OUTPUT_PRIVATE_WORDS = new Set([
  "password",
  "passwords",
  "secret",
  "secrets",
  "token",
  "tokens",
  "apikey",
  "credential",
  "credentials",
  "email",
  "emails",
  "phone",
  "address",
  "ssn",
  "birthdate",
  "salary",
  "totp",
  "iban",
]);

/** An output field that is private whatever the name says: `password`, `email`, `api_key`. */
const privateField = (f: { words: string[] }) =>
  f.words.some((w) => OUTPUT_PRIVATE_WORDS.has(w)) || secretObject(f.words) !== undefined;

/** What a page interaction acts on (`browser_click`, `playwright_iframe_fill`, `browser_file_upload`). */
const PAGE_OBJECTS = new Set([
  "page",
  "element",
  "elements",
  "dialog",
  "form",
  "option",
  "options",
  "key",
  "keyboard",
  "mouse",
  "file",
  "files",
  "iframe",
  "frame",
  "tab",
  "window",
  "browser",
  "input",
  "field",
  "button",
  "checkbox",
  "text",
  "and",
  "switch",
]);
/**
 * A field description that hands out access ("…group IDs with access to this collection", "Group IDs
 * allowed to run this query", "Profile names to grant field access to": eighth round, issue 32).
 */
const GRANTS_ACCESS =
  /\b(?:with|has|grants?|gives?)\s+(?:read-only\s+)?access\b|\b(?:grants?|gives?)\s+[a-z-]+\s+access\s+to\b|\ballowed\s+to\s+(?:run|use|see|view|read|access|edit|open)\b/i;
/** URL schemes a field's description names ("HTTP(S), SSH (ssh://…), git://, or file://"). */
const SCHEMES = /\b(?:https?|ssh|git|ftp|sftp|file):\/\/|\bHTTPS?\(S\)|\bSSH\b/gi;
/** Records whose comment threads are a tracker's, not a chat's (`pull_request_thread`, `issue_thread`). */
const TRACKER_THREAD_OWNERS = new Set([
  "pull",
  "merge",
  "issue",
  "issues",
  "ticket",
  "tickets",
  "commit",
  "commits",
]);
/** What a push delivers to people's devices (`push_text_message`, `push_notification`). */
const PUSHED_TO_PEOPLE = new Set(["message", "messages", "notification", "notifications"]);
/** An address field described as what the service fetches ("URL of the file to attach", "…to fetch and upload"). */
const FETCHED_ADDRESS =
  /\b(?:to|and)\s+(?:attach|fetch|upload|import|download|load)\b|\bto be (?:added|embedded|attached|imported|uploaded)\b/i;
/** A content field described as there to be shared ("Text content to share"). */
const SHARED_CONTENT = /\bto share\b/i;
/** Inputs that switch the caller's subscription to something (`watch_card(subscribed)`): setting one changes it. */
const SUBSCRIPTION_FIELDS = new Set(["subscribed", "watching", "watched", "starred", "following"]);
/** Operations that retrieve what a multi-operation tool manages (not `read`, which is also a mark: `mark_email(read)`). */
const BARE_RETRIEVALS = new Set(["list", "get", "retrieve", "search", "find", "fetch"]);
/** Operations that show an object's content, not its record (`operation: read | view`). */
const CONTENT_READS = new Set(["read", "view", "cat", "open", "download", "receive"]);
/** Verbs that retrieve records: a subscription field beside one filters what they list. */
const LISTING_VERBS = new Set([
  "list",
  "get",
  "search",
  "find",
  "query",
  "fetch",
  "read",
  "retrieve",
]);
/** Verbs that start a program; with a command or script the caller writes, they run it. */
const START_VERBS = new Set(["start", "launch", "spawn"]);
const PROGRAM_WORDS = new Set(["command", "commands", "cmd", "script", "shell", "program", "code"]);
/** Reads that answer whether something holds or how many (`verify_domain`, `test_notification`, `count`). */
const VERDICT_VERBS = new Set(["verify", "test", "count"]);
/** The server's own session handles: what a read of them returns is its own state. */
const OWN_STATE_OBJECTS = new Set(["session", "sessions", "connection", "connections", "searches"]);
/** Input words that say where a chat post goes (`channel_id`, `threadId`, `forumChannelId`). */
const CHAT_FIELD_WORDS = new Set(["channel", "thread", "forum", "chat"]);
/** What a chat post is; making a channel or a category is no message. */
const CHAT_MADE = new Set(["post", "posts", "message", "messages", "reply", "thread", "forum"]);
/** Input fields that name people who are then invited (`attendees`). */
const INVITEE_FIELDS = new Set([
  "attendee",
  "attendees",
  "invitee",
  "invitees",
  "participants",
  "guests",
]);
/** Answers to an invitation, which go to its organiser (`accept-calendar-event`, `decline_meeting`). */
const RESPONSE_VERBS = new Set(["accept", "decline", "tentatively", "cancel", "respond", "rsvp"]);
const INVITATION_OBJECTS = new Set([
  "event",
  "events",
  "meeting",
  "meetings",
  "invitation",
  "invite",
]);

/** Network verbs that make a raw request rather than leave a message (`curl`, `http`). */
const RAW_REQUEST_VERBS = new Set(["curl", "http", "wget", "call", "dial", "ping"]);

/** Objects that say who can read something (`create_permission`, `update_org_member`). */
const ACCESS_OBJECTS = new Set([
  "permission",
  "permissions",
  "member",
  "members",
  "membership",
  "memberships",
  "collaborator",
  "collaborators",
  "access",
  "acl",
  "acls",
  "sharing",
]);
/** Write verbs that only narrow access. */
const NARROWING_VERBS = new Set([
  "deny",
  "unassign",
  "lock",
  "disable",
  "reject",
  "dismiss",
  "block",
]);

/** Words beside a visibility word that make the field no audience: a display list, an id, a time, a credential. */
const NOT_AUDIENCE = new Set(["list", "menu", "id", "ids", "timeout", "key", "keys"]);

/** Verbs that make something new (a message that then leaves, a webhook that then fires). */
const MAKE_VERBS = new Set([
  "create",
  "add",
  "new",
  "make",
  "post",
  "write",
  "comment",
  "submit",
  "register",
  "schedule",
  "set",
  "update",
  "edit",
  "send",
  "reply",
  "forward",
  "publish",
  "share",
  "invite",
]);
/** Make verbs that change what exists rather than make it. */
const CHANGE_VERBS = new Set(["update", "edit"]);

/** The kinds of link made to be handed out. */
const SHARE_LINK_KINDS = new Set([
  "share",
  "sharing",
  "shared",
  "payment",
  "invite",
  "invitation",
  "public",
  "download",
  "preview",
  "shareable",
]);
/** Fields naming what runs: a manifest, chart, image, or code files. */
const WORKLOAD_FIELDS = new Set([
  "manifest",
  "manifests",
  "chart",
  "image",
  "dockerfile",
  "files",
  "code",
  "source",
]);
/** Workload fields that run only when the verb deploys them (`push_files` commits files; `deploy_function(files)` runs them). */
const CODE_FILE_FIELDS = new Set(["files", "code", "source"]);
/** Objects whose making or changing runs something or is final (`create_pipeline`, `create_refund`). */
const RUN_NOUNS = new Set([
  "pipeline",
  "pipelines",
  "refund",
  "refunds",
  "migration",
  "migrations",
  "dispute",
  "disputes",
  "workflow",
  "workflows",
]);
/** What a merge lands in a target. */
const MERGE_TARGETS = new Set(["request", "requests", "pr", "prs", "branch", "branches"]);
/** A field description that says the switch archives or trashes the record ("close (archive) the list"). */
const ARCHIVES = /\b(?:archive[sd]?|trash(?:e[sd])?)\b/i;
/** Fields that move a record to the trash or archive it (`in_trash`, `archived`). */
const TRASH_FIELDS = new Set(["trash", "trashed", "archived", "deleted"]);

// Eighth round (issue 32): deploys, sharing and session writes the earlier vocabulary missed.
/**
 * A description saying the call switches on tools the session did not list (`discover_tools`:
 * "…activate additional tool categories", "switch on tools that are hidden by default"): what the
 * agent can do widens, which is a write (the corpus README's rule for `writes`).
 */
const ACTIVATES_TOOLS =
  /\b(?:activat(?:e|es|ing)|enabl(?:e|es|ing)|switch(?:es|ing)? on|turn(?:s|ing)? on|unlock(?:s|ing)?)\b[^.;]{0,40}\btool(?:s|sets?|\s+categor(?:y|ies)|\s+groups?)\b/i;
/** Description verbs that say the call takes something away ("Remove current user as story owner", "Disconnects related entries"). */
const REMOVING_LEADS = new Set(["remove", "disconnect", "unlink", "detach"]);
/** A field described as the code of a unit a service stores and then runs itself ("Full body of the Apex class", "source of the stored procedure"). */
const CODE_UNIT =
  /\b(?:body|source|code)\b[^.;]{0,25}\b(?:class|trigger|procedure|function|lambda|module|script)\b/i;
/** Field words for the code of such a unit (`body`, `source`, `code`). */
const CODE_BODY_WORDS = new Set(["body", "source", "code"]);
/** Objects that are a running deployment of some source: what they run comes from their repository (`create_application`, `service_create_from_repo`). */
const RUNNABLE_OBJECTS = new Set([
  "application",
  "applications",
  "app",
  "apps",
  "service",
  "services",
  "stack",
  "stacks",
]);
/** Field words naming a source repository. */
const REPOSITORY_WORDS = new Set(["repo", "repository", "repos", "repositories"]);
/** A status choice that merges a pull request (Azure DevOps' `completed`, `merged`). */
const MERGE_CHOICES = new Set(["merged", "completed"]);
/** A description that lists a mode, action or operation that removes ("**Mode 2 - Remove Entry:**"). */
const REMOVING_MODE = /\b(?:mode|action|operation)\b[^.\n]{0,12}?[-:\u2013]\s*(?:remove|delete)\b/i;
/** A description saying the call signals a command or process to stop ("its command is signalled on the host"). */
const SIGNALS_PROCESS =
  /\b(?:command|process|job)\b[^.;]{0,30}\bsignall?ed\b|\bsignal(?:s|l?ed)?\b[^.;]{0,30}\b(?:command|process|job)\b|\bSIG(?:TERM|KILL|INT)\b/i;
/** A description that opens by marking something read or seen ("Mark dialog messages as read"): kept read state. */
const MARKS_STATE = /^\s*marks?\b[^.;\n]{0,40}\bas\s+(?:read|unread|seen|unseen)\b/i;
/**
 * A switch described as deleting when it is on ("If true, drops the target collection if it exists");
 * not "to remove the parent", which unlinks.
 */
const DROP_SWITCH =
  /\b(?:if|when|set to)\s+true\b[^.;]{0,20}\b(?:drops?|deletes?|purges?|destroys?|overwrites?)\b/i;
/**
 * Issue 32, thirteenth round (not independent): an input that confirms the call ("Confirmation for
 * destructive operation", "Type the app name to confirm this irreversible action"): the server asks
 * for it because the call destroys something.
 */
const CONFIRMS_DESTRUCTION =
  /\bconfirm(?:ation|s|ing)?\b[^.;]{0,40}\b(?:destructive|irreversible|cannot be undone|permanent(?:ly)?)\b/i;
/** A description saying the call exposes something to outside callers ("Exposing TCP services", "expose the port publicly"). */
const EXPOSES =
  /\bexpos(?:e|es|ing)\b[^.;\n]{0,30}\b(?:services?|ports?|publicly|externally|to the (?:internet|public))\b/i;
/** Words that say an address is where events go. */
const CALLBACK_WORDS = new Set([
  "callback",
  "notification",
  "notify",
  "webhook",
  "webhooks",
  "hook",
  "hooks",
  "subscription",
  "subscriptions",
  "endpoint",
  "delivery",
]);
/** Field words that name a sender or the record itself, not a recipient. */
const NOT_RECIPIENT = new Set([
  "sender",
  "from",
  "author",
  "owner",
  "customer",
  "user",
  "contact",
  "member",
  "billing",
  "reply",
]);

/** Verbs that mint or rotate a credential, which the call then returns. */
const MINT_VERBS = new Set([
  "create",
  "rotate",
  "regenerate",
  "generate",
  "reset",
  "new",
  "issue",
  "add",
]);
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "signing",
  "ssh",
  "deploy",
  "private",
  "secret",
  "trigger",
]);

/** A name's object that is a credential: a secret noun, or a key or token qualified as one (`api_key`, `pipeline_trigger`). */
function secretObject(objects: readonly string[]): string | undefined {
  const secret = objects.find((w) => SECRET_NOUNS.has(w));
  if (secret) return secret;
  const keyed = objects.findIndex((w) => w === "key" || w === "keys" || w === "trigger");
  if (keyed >= 0 && (objects[keyed] === "trigger" || objects.some((w) => KEY_QUALIFIERS.has(w))))
    return objects.slice(Math.max(0, keyed - 1), keyed + 1).join(" ");
  return undefined;
}

/**
 * `git_log`, `git_diff`: a name that is one word besides the server's, a text object that also reads
 * as a verb ("log" writes, "diff" compares), whose description opens with a read ("View commit
 * history…"), names what the tool returns: the word is the object and the description's verb reads.
 */
function loneTextNoun(name: NameReading, leadsWithRead: boolean): NameReading {
  if (!leadsWithRead || name.words.length !== 1 || name.verbs.length !== 1) return name;
  const word = name.words[0]!;
  if (!TEXT_OBJECTS.has(word) || name.verbs[0]!.verb !== word) return name;
  return { ...name, verbs: [], objects: [word] };
}

/** Refs whose protection rules are settings, not the names contributors choose. */
const PROTECTED_REFS = new Set(["branch", "branches", "tag", "tags"]);

/** Page actions that act on no content of the page: loading another address, resizing the window. */
const PAGE_MOVES = new Set(["navigate", "resize"]);

/** Fields that choose what a multi-purpose tool does (`mode: list | create | delete`), beside `action`. */
const MODE_FIELDS = new Set([...OPERATION_FIELDS, "mode", "modes"]);
/** Choices that list or show what the tool manages (`mode: list`, `action: get`). */
const LISTING_CHOICES = new Set(["list", "show", "get", "ls"]);

/**
 * The first top-level field whose choices include a bare listing (`git_branch(mode: list | create |
 * delete)`): the tool then also returns what it manages. Part of the shared inference's key.
 */
function listingChoice(schema: unknown): { key: string; value: string } | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const properties = (schema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== "object") return undefined;
  for (const [key, value] of Object.entries(properties as Record<string, unknown>).slice(0, 200)) {
    if (!nameWords(key).some((w) => MODE_FIELDS.has(w))) continue;
    const choices = (value as { enum?: unknown } | null)?.enum;
    if (!Array.isArray(choices)) continue;
    const listing = choices
      .slice(0, 100)
      .find((c): c is string => typeof c === "string" && LISTING_CHOICES.has(c.toLowerCase()));
    if (listing) return { key, value: listing };
  }
  return undefined;
}

/**
 * `git_branch(mode: list | create | delete | rename)`: a top-level `mode` whose choices include a
 * bare listing is a choice of operations, as an `action` is; each choice is offered.
 */
function modeOperations(schema: unknown): OfferedOperation[] {
  const listing = listingChoice(schema);
  if (!listing || nameWords(listing.key).some((w) => OPERATION_FIELDS.has(w))) return [];
  const choices = (
    (schema as { properties: Record<string, { enum?: unknown[] }> }).properties[listing.key]
      ?.enum ?? []
  ).slice(0, 100);
  return choices
    .filter((c): c is string => typeof c === "string")
    .map((value) => ({ field: listing.key, value, branch: false }));
}

/** Words of an input that pages through what a read returns (`post_limit`, `start_post_number`). */
const PAGING_WORDS = new Set([
  "limit",
  "max",
  "number",
  "start",
  "offset",
  "page",
  "pages",
  "count",
  "per",
]);
/** Items people write that a read can page through (`post_limit`), unlike `max_results` or `max_bytes`. */
const PAGED_TEXT = new Set([
  "post",
  "posts",
  "reply",
  "replies",
  "comment",
  "comments",
  "message",
  "messages",
  "note",
  "notes",
  "story",
  "stories",
  "review",
  "reviews",
  "issue",
  "issues",
  "ticket",
  "tickets",
  "thread",
  "threads",
]);

/**
 * What the rules read from a tool's input fields and description. It is read once per tool:
 * `inferRolesShared` keys its memo by it and hands the same reading to the rules.
 */
type ToolCues = {
  fields: Field[];
  /** The description's cues (`descriptionCues`). */
  cues: DescriptionCues;
  /** The eighth round's description cues (`sinkCues`). */
  sink: SinkCues;
  /** What lib/roles/reach.ts reads from the description, the fields and the schema (`reachCues`). */
  reach: ReachCues;
};
function toolCues(input: Pick<InferInput, "description" | "inputSchema">): ToolCues {
  const fields = schemaFields(input.inputSchema);
  return {
    fields,
    cues: descriptionCues(input.description),
    sink: sinkCues(input.description),
    reach: reachCues(input.description, fields, input.inputSchema),
  };
}

export function inferRoles(input: InferInput): Inference {
  return inferFrom(input, toolCues(input));
}

/** `inferRoles` on what was read of the tool already (`toolCues(input)`). */
function inferFrom(input: InferInput, { fields, cues, sink, reach }: ToolCues): Inference {
  const annotations = effectiveAnnotationsOf(input.annotationCombination);
  const roles = new Map<ToolRole, Draft>();
  const conflicts: Conflict[] = [];
  const notes: string[] = [];
  const add = (role: ToolRole, reason: string, confidence: number) => {
    const draft = roles.get(role);
    if (!draft) roles.set(role, { reasons: [reason], confidence });
    else {
      if (!draft.reasons.includes(reason)) draft.reasons.push(reason);
      draft.confidence = Math.max(draft.confidence, confidence);
    }
  };
  const cap = (role: ToolRole, confidence: number) => {
    const draft = roles.get(role);
    if (draft) draft.confidence = Math.min(draft.confidence, confidence);
  };
  // A note that withheld a role no longer holds once a later rule suggests it ("returns version:
  // names and settings…, so returns_untrusted_text is not suggested").
  const unsayWithheld = (role: ToolRole) => {
    const withheld = `so ${role} is not suggested`;
    for (let i = notes.length - 1; i >= 0; i--)
      if (notes[i]!.endsWith(withheld)) notes.splice(i, 1);
  };
  const raise = (role: ToolRole, reason: string, confidence: number) => {
    const draft = roles.get(role);
    if (!draft) return;
    if (!draft.reasons.includes(reason)) draft.reasons.push(reason);
    draft.confidence = Math.max(draft.confidence, confidence);
  };

  const idWords = new Set(
    fields.flatMap((f) =>
      f.words.length > 1 && (f.words.at(-1) === "id" || f.words.at(-1) === "ids")
        ? [f.words.at(-2)!]
        : [],
    ),
  );
  const name = loneTextNoun(readName(input.name, input.serverWords, idWords), cues.leadsWithRead);

  // The verbs: the name's, else the description's opening one (weak).
  const readings: Reading[] = [];
  for (const v of name.verbs) {
    // `jira_post`: a namespace and a bare method is an HTTP call, as `API-post-…` is.
    const bareMethod = v.index === name.words.length - 1 && name.words.length <= 2;
    const methodCall = name.generated || bareMethod;
    if (v.verb === "post") readings.push(postReading(bareMethod ? [] : name.objects, methodCall));
    else if (methodCall && HTTP_METHODS.has(v.verb) && (v.verb === "head" || v.verb === "options"))
      readings.push({
        verbClass: "read",
        says: `"${v.verb}" is an HTTP ${v.verb.toUpperCase()}, which reads`,
        confidence: NAME,
        fromName: true,
        verb: v.verb,
      });
    // Issue 32, tenth round: `start_search`: starting a search runs nothing of the caller's; it is
    // that search, which returns what it finds. Only a search: other reads a job can be started for
    // (`start_export`, `start_monitor`, `start_query` of a warehouse) can write or run.
    else if (START_VERBS.has(v.verb) && name.objects.length === 1 && name.objects[0] === "search")
      readings.push({
        verbClass: "read",
        says: `"${v.verb}" begins a search, which ${CLASS_SAYS.read}`,
        confidence: NAME_OBJECT,
        fromName: true,
        verb: "search",
      });
    else
      readings.push({
        verbClass: v.verbClass,
        says: `"${v.verb}" ${CLASS_SAYS[v.verbClass]}`,
        confidence: NAME,
        fromName: true,
        verb: v.verb,
      });
  }
  if (readings.length === 0 && cues.offline)
    readings.push({
      verbClass: "compute",
      says: `the description says it works offline, without calls to a service: it ${CLASS_SAYS.compute} (the name has no known verb)`,
      confidence: DESCRIPTION,
      fromName: false,
      verb: "compute",
    });
  if (readings.length === 0) {
    const verb = cues.leadVerb;
    const verbClass = verb ? VERB_CLASS.get(verb) : undefined;
    if (verb && verbClass)
      readings.push({
        verbClass,
        says: `the description opens with "${verb}", which ${CLASS_SAYS[verbClass]} (the name has no known verb)`,
        confidence: DESCRIPTION,
        fromName: false,
        verb,
      });
  }
  // Ending the server's own session state (`browser_close`, `stop_port_forward`, `reconnect`) is no sink.
  const leadWord = name.verbs[0]?.verb ?? (name.words.length === 1 ? name.words[0]! : null);
  const sessionObjects = name.objects.filter((w) => !name.prefix.includes(w));
  // `disconnect_all`: "all" names no object. `connect_all` "Connect to both IMAP and SMTP servers",
  // with no address input: the server opens its own configured connections, which keep nothing.
  const namedObjects = sessionObjects.filter((w) => !FILLER.has(w));
  const ownConnection =
    leadWord === "connect" &&
    namedObjects.length === 0 &&
    !fields.some((f) => f.words.some((w) => URL_FIELDS.has(w) || w === "host"));
  if (
    leadWord &&
    (SESSION_VERBS.has(leadWord) || ownConnection) &&
    (namedObjects.length === 0 || sessionObjects.some((w) => SESSION_OBJECTS.has(w)))
  ) {
    readings.length = 0;
    readings.push({
      verbClass: "compute",
      says: `"${leadWord}" ends state the server holds for the session${sessionObjects.some((w) => SESSION_OBJECTS.has(w)) ? ` (the ${sessionObjects.filter((w) => SESSION_OBJECTS.has(w)).join(" ")})` : ""}, which changes nothing outside it`,
      confidence: NAME_OBJECT,
      fromName: true,
      verb: leadWord,
      session: true,
    });
  }
  const nameReading =
    readings.map((r) => (r.fromName ? `the name's verb ${r.says}` : r.says)).join("; ") ||
    "the name has no known verb";
  const lead = readings[0];

  // What a read returns, by the name's head noun (the last object after the verb:
  // `list_issue_labels` returns labels, `get_issue_comments` comments).
  // `do_list_objects` "List Durable Object instances": where the name's object is a generic word
  // (object, item, resource) and the description uses it as the first part of a compound noun, the
  // compound's last noun is what the object is (English compounds put the head last).
  const named = headNoun(name);
  const head =
    named !== undefined && GENERIC_HEADS.has(named) && cues.compoundHead
      ? cues.compoundHead
      : named;
  // The name's word before its head (`list_protected_branches`: "protected"), which qualifies it;
  // undefined when the head is first or comes from the description.
  const beforeHead = head === undefined ? undefined : name.words[name.words.lastIndexOf(head) - 1];
  // Links between records are those records (`list_issue_links` returns the linked issues).
  const linksOf =
    head === "link" || head === "links"
      ? (name.objects.find((w) => TEXT_OBJECTS.has(w)) ?? cues.linkedText)
      : undefined;
  // `get_file_info`, `get_collection_stats`: a description of the object (size, dates, state), not its text.
  const tail = name.words.at(-1);
  const aboutOnly =
    tail !== undefined &&
    METADATA_TAILS.has(tail) &&
    (!head || TEXT_OBJECTS.has(head) || head === tail);
  // `list_protected_branches`: a protection rule (patterns and access levels) set by maintainers,
  // not the branch names contributors choose.
  const protectedRef = head !== undefined && PROTECTED_REFS.has(head) && beforeHead === "protected";
  // Issue 32, eleventh round (precision, not independent): `list_loki_label_values`: the values a
  // metric or log label takes are names its series were labelled with by whoever configured them.
  const labelValues =
    head !== undefined && VALUE_WORDS.has(head) && LABEL_WORDS.has(beforeHead ?? "");
  // `list-tags` "tags currently applied to assets", `get-workflow-tags`: labels on records, named by
  // whoever administers them. A repository's tags are refs contributors name ("List repository tags").
  // With no description nothing says which kind, and the repository's refs are kept (the wider reading).
  const labelTag = head !== undefined && TAG_WORDS.has(head) && cues.described && !cues.gitRefs;
  // `get_milestone_burndown_events`: a chart's points by date, not the milestone's text.
  const chartEvents = (head === "events" || head === "event") && CHART_WORDS.has(beforeHead ?? "");
  // `list_allowed_directories`: what the operator allows the server to reach, a setting it chose,
  // not what is in those places.
  const allowedOnly = head !== undefined && ALLOWED_WORDS.has(beforeHead ?? "");
  // `domain-record-list`, `get_dns_records`: a name's address records, set by the account.
  // Issue 32, twelfth round: and the saved copies of a zone's records (`getDNSSnapshot`
  // "historical DNS configurations"), the account's own settings as they were.
  const dnsRecord =
    head !== undefined && DNS_HEADS.has(head) && DNS_QUALIFIERS.has(beforeHead ?? "");
  const textObject =
    aboutOnly || protectedRef || labelValues || chartEvents || allowedOnly || dnsRecord
      ? undefined
      : head && TEXT_OBJECTS.has(head) && !labelTag
        ? head
        : linksOf
          ? linksOf
          : head && (NAME_LIST_OBJECTS.has(head) || VENDOR_TEXT.has(head))
            ? undefined
            : name.objects.find((w) => TEXT_OBJECTS.has(w) && !(labelTag && TAG_WORDS.has(w)));
  // `list-images`, `generate-archive`: bytes or a download link come back, not anyone's text.
  const pictureOnly = head !== undefined && PICTURE_OBJECTS.has(head) && !textObject;
  const ownDraft = name.objects.find((w) => w === "draft" || w === "drafts");
  // A text object an input names by id (`email_id`): what a computation over it reads.
  const idText = [...idWords].find((w) => TEXT_OBJECTS.has(w));
  // `get_watcher_status`, `check_template_status`: a state, unless results come with it
  // (`check_crawl_status` "…and available results").
  const stateOnly = head !== undefined && STATUS_WORDS.has(head) && !cues.statusWithResults;
  // `read_topic(post_limit, start_post_number)`: an input that pages through a text object says
  // the read returns that text, whatever the head noun names.
  const pagedText = fields
    .find((f) => f.words.some((w) => PAGING_WORDS.has(w)) && f.words.some((w) => PAGED_TEXT.has(w)))
    ?.words.find((w) => PAGED_TEXT.has(w));
  // `get_total_worklogs`: the sum of the object's figures, not the text of each one.
  const totalOf = head !== undefined && beforeHead === "total" ? head : undefined;
  // `measures_component`, `measures_history`, `get_metrics_for_host`: measured values of the object
  // (numbers, over time for a history), not text anyone wrote about it. Not where the head is a
  // text object of its own (`get_issue_metrics` is metrics; `list_metric_comments` is comments).
  const figures = name.objects.find((w) => FIGURE_WORDS.has(w));
  const figuresOf =
    figures && (!head || head === "history" || !TEXT_OBJECTS.has(head)) ? figures : undefined;
  // `list-videos` "Retrieves a list of video assets", `visual-search-assets` "images in your asset
  // library": a media library's assets are files the account uploaded to deliver by URL (names,
  // formats, sizes, tags), not text people wrote to it. A platform's videos (titles and
  // descriptions by their uploaders) are not described as assets.
  const mediaAssets =
    head !== undefined && MEDIA_HEADS.has(head) && cues.mediaLibrary && !pagedText
      ? head
      : undefined;
  const namesOnly = aboutOnly
    ? tail
    : protectedRef
      ? `protected ${head}`
      : labelValues
        ? "label values"
        : allowedOnly
          ? "an allowlist" // not the head word itself: any word reads alike in the shared inference
          : head &&
              !textObject &&
              !pagedText &&
              !(head === "statuses" && cues.statusPosts) &&
              (NAME_LIST_OBJECTS.has(head) || VENDOR_TEXT.has(head) || stateOnly || labelTag)
            ? head
            : undefined;
  // A project's labels and states (`list_labels(project_id)`) come with descriptions its members
  // write, as does a listing whose description says descriptions come back ("Returns team names,
  // descriptions, and IDs"); a board's or a mailbox's labels are names alone.
  const describedNames =
    namesOnly && !aboutOnly && !protectedRef
      ? cues.descriptions && !PUBLIC_OBJECTS.has(namesOnly)
        ? "the description says descriptions come back with them"
        : fields.some((f) => f.cues.filtersByDescription) && !PUBLIC_OBJECTS.has(namesOnly)
          ? "an input filters them by their description, so a free-form description comes with each"
          : namesOnly === "statuses" &&
              name.words[name.words.lastIndexOf("statuses") - 1] === "commit"
            ? "a commit's statuses carry the CI jobs' names and descriptions, which the repository's CI file sets"
            : DESCRIBED_NAMES.has(namesOnly) &&
                // `list_issue_types(project_id)`: a project's types of a text object come with the
                // descriptions and templates its members write, as its labels do.
                (name.objects.length === 1 ||
                  (TYPE_WORDS.has(namesOnly) &&
                    name.objects.length === 2 &&
                    TEXT_OBJECTS.has(name.objects[0]!))) &&
                fields.some((f) => f.words.includes("project"))
              ? `a project's ${namesOnly} (input names the project) come with descriptions its members write`
              : undefined
      : undefined;
  // `list_firewalls`, `get_deployment`: infrastructure the account configures, read by its names.
  // Issue 32, twelfth round: a service's deployments and environments (`ListDeployment(ServiceSid)`,
  // `deployment_list(serviceId)`) are rollouts of infrastructure the account configures: ids,
  // states and dates. A project's or repository's (GitLab's `list_environments(project_id)`) come
  // from its CI file, with refs and job names contributors chose, which count.
  const serviceRollout =
    head !== undefined &&
    ROLLOUT_HEADS.has(head) &&
    fields.some((f) => f.words.includes("service"));
  // A description that names what the object holds ("Get a Worker's script content", "Retrieves
  // file contents for an Edge Function", "Get a value") reads that, not the object's settings.
  const infraOnly =
    head &&
    !namesOnly &&
    !textObject &&
    !pagedText &&
    // A zone's "contents" are its records: settings still (`getDNSSnapshot` "with contents of DNS
    // zone records").
    ((INFRA_OBJECTS.has(head) && !cues.holdsText) || dnsRecord || serviceRollout)
      ? head
      : undefined;
  // `get_user` "Get current user information": the caller's own account, written by the caller.
  const callerAccount =
    !textObject && cues.callerOwn ? name.objects.find((w) => ACCOUNT_OBJECTS.has(w)) : undefined;
  // `search_users`, "List all users": a directory of names and addresses, unless the description
  // says profiles, bios or details come back (`get_user_details`, "…with id, username, bio").
  // `list`, `get` "items from your vault": credentials and notes the account keeps for itself.
  const vaultItems =
    cues.vault && !textObject && !pagedText && (!head || VAULT_ITEMS.has(head))
      ? (head ?? "items")
      : undefined;
  const peopleOnly =
    head && !textObject && !pagedText && PEOPLE_OBJECTS.has(head) && !cues.profileText
      ? head
      : undefined;
  // `click`, `drop`, `upload` act on a live page only when nothing else is named
  // (`browser_drop`, `puppeteer_click(selector)`), not `drop_collection` or `upload_attachment`.
  // An upload given the bytes inline (base64) or an address for the service to fetch goes to the
  // service, not into a page's file input (`upload_file(image_data, url)`).
  const toService = fields.some(
    (f) =>
      f.cues.inlineContent ||
      (f.freeText && f.words.some((w) => URL_FIELDS.has(w)) && f.cues.fetchedAddress),
  );
  const onPage =
    sessionObjects.every((w) => PAGE_OBJECTS.has(w) || FILLER.has(w)) &&
    !(toService && name.verbs.some((v) => v.verb === "upload"));
  const bySelector = fields.find((f) => f.words.includes("selector"));
  // Issue 32, tenth round: waiting on a page the name names (`browser_wait_for`: for text to appear,
  // a time to pass) is one step of the same loop as a click: it reports what the page then shows.
  // A bare `wait` names no page.
  const pageAction = (verb: string) =>
    INTERACTION_VERBS.has(verb) ||
    (verb === "wait" && sessionObjects.some((w) => PAGE_OBJECTS.has(w)));
  // The server's own session state (`list_sessions`, `list-connections`, `list_searches`): its
  // handles and counters, neither outside text nor the account's records.
  const ownState = head !== undefined && OWN_STATE_OBJECTS.has(head);
  // `ai_text_generation` "Generate text using an AI model", `get-generation-task`: what a vendor's
  // model makes from the caller's own prompt, and the job that makes it, carry no text that someone
  // else wrote. Not a generation over a text object the inputs name (`generate_summary(issue_id)`)
  // or over an address (a page the model reads).
  const generated =
    (name.words.some((w) => GENERATION_WORDS.has(w)) ||
      readings.some((r) => r.verb === "generate")) &&
    (!textObject || GENERATED_HEADS.has(textObject)) &&
    (!idText || GENERATED_HEADS.has(idText)) &&
    !fields.some((f) => f.freeText && f.words.some((w) => URL_FIELDS.has(w)));
  for (const r of readings) {
    const why = r.fromName ? `the name's verb ${r.says}` : r.says;
    if (r.verbClass === "read" && VERDICT_VERBS.has(r.verb) && !textObject) {
      notes.push(
        `"${r.verb}" returns a verdict on what it is given (valid, reachable, verified), not records or outside text`,
      );
    } else if (r.verbClass === "read" && r.verb === "count" && !pagedText) {
      // Issue 32, eleventh round: `count_issues` returns how many match, not the issues' text.
      notes.push(
        `"count" returns how many ${textObject ?? head ?? "records"} match (a figure), not their text, so returns_untrusted_text is not suggested`,
      );
    } else if ((r.verbClass === "read" || r.verbClass === "compute") && generated) {
      notes.push(
        `it returns what a model generates from the caller's own inputs (or the generation job), not text that someone else wrote, so returns_untrusted_text is not suggested`,
      );
    } else if (r.verbClass === "read" && ownState) {
      notes.push(
        `returns the server's own ${head} (handles and status it keeps for the session), so neither returns_untrusted_text nor reads_private_data is suggested`,
      );
    } else if (r.verbClass === "read") {
      if (ownDraft && !namesOnly)
        notes.push(
          `returns ${ownDraft === "drafts" ? "drafts" : "a draft"}: text the caller wrote, so returns_untrusted_text is not suggested`,
        );
      else if (!textObject && head && OWN_OUTBOUND.has(head))
        notes.push(
          `returns ${head}: what the account writes to send to its audience, so returns_untrusted_text is not suggested`,
        );
      else if (head && BODY_HEADS.has(head) && cues.contentOfOwn)
        notes.push(
          `returns the content of a ${cues.contentOfOwn} (the description says so): what the account writes to send to its audience, so returns_untrusted_text is not suggested`,
        );
      else if (textObject && MAIL_OBJECTS.has(textObject) && cues.sentOnly)
        notes.push(
          `returns ${textObject} the account sent (the description says sent, not received): written by the account, so returns_untrusted_text is not suggested`,
        );
      else if (callerAccount)
        notes.push(
          `returns the caller's own ${callerAccount} (the description says the current one): written by the caller, so returns_untrusted_text is not suggested`,
        );
      else if (chartEvents)
        notes.push(
          `returns ${beforeHead} ${head}: a chart's figures by date, not text people wrote, so returns_untrusted_text is not suggested`,
        );
      else if (pictureOnly)
        notes.push(
          `returns ${head}: bytes or a download link, not text people wrote, so returns_untrusted_text is not suggested`,
        );
      else if (cues.namesOnly && !textObject && !pagedText)
        notes.push(
          `the description says it returns names or ids (with states or dates), no prose: names chosen inside the account, not text from outside writers, so returns_untrusted_text is not suggested`,
        );
      else if (cues.fieldsOnly && !pagedText && !(textObject && FILE_TEXT.has(textObject)))
        notes.push(
          `the description lists the fields that come back, and each is an id, a name, a kind, a state, a date, an address or a figure: no prose from outside writers, so returns_untrusted_text is not suggested`,
        );
      else if (cues.settingsOnly && !textObject && !pagedText)
        notes.push(
          `the description says it reads settings or configuration: how the object is set up, chosen by whoever administers it, not text from outside writers, so returns_untrusted_text is not suggested`,
        );
      else if (cues.officialDocs && !textObject)
        notes.push(
          `the description says it returns the vendor's official documentation: the vendor's own fixed text, so returns_untrusted_text is not suggested`,
        );
      else if (mediaAssets)
        notes.push(
          `returns ${mediaAssets} of a media library (the description calls them assets): files the account uploaded, delivered by URL, not text people wrote, so returns_untrusted_text is not suggested`,
        );
      else if (describedNames)
        add(
          "returns_untrusted_text",
          `${why}: it returns ${namesOnly}, and ${describedNames}: text that people other than the deploying user can write`,
          r.confidence - 0.1,
        );
      else if (namesOnly)
        notes.push(
          `returns ${namesOnly}: names and settings chosen by whoever administers the service, not text from outside writers, so returns_untrusted_text is not suggested`,
        );
      else if (figuresOf && !pagedText)
        notes.push(
          `returns ${figuresOf}: measured values (numbers), not text people wrote, so returns_untrusted_text is not suggested`,
        );
      else if (totalOf && !pagedText)
        notes.push(
          `returns a total (a figure), not the text of what it sums, so returns_untrusted_text is not suggested`,
        );
      else if (vaultItems)
        notes.push(
          `returns ${vaultItems} kept in a vault (the description says so): logins, keys and notes the account stored, not text from outside writers, so returns_untrusted_text is not suggested`,
        );
      else if (peopleOnly)
        notes.push(
          `returns ${peopleOnly}: a directory of names, handles and addresses (the description names no profile, bio or details), not text from outside writers, so returns_untrusted_text is not suggested`,
        );
      else if (infraOnly)
        notes.push(
          `returns ${infraOnly}: infrastructure the account configures (names, addresses, sizes and states it chose), not text from outside writers, so returns_untrusted_text is not suggested`,
        );
      else if (
        textObject &&
        head &&
        cues.definitionsOf !== undefined &&
        (cues.definitionsOf === head || `${cues.definitionsOf}s` === head)
      )
        notes.push(
          `returns ${cues.definitionsOf} definitions (the description says so): names and schemas the account configures, not text people wrote, so returns_untrusted_text is not suggested`,
        );
      else if (textObject && cues.withoutText)
        notes.push(
          `the description says the ${textObject}'s text is not fetched: what comes back is its state, not what someone wrote, so returns_untrusted_text is not suggested`,
        );
      else if (textObject && cues.linksOnly)
        notes.push(
          `the description says it returns links to the ${textObject}, not their text (fetching it is another call), so returns_untrusted_text is not suggested`,
        );
      else if (textObject)
        add(
          "returns_untrusted_text",
          `${why}: it returns ${textObject}, text that people other than the deploying user can write`,
          r.confidence,
        );
      else if (pagedText)
        add(
          "returns_untrusted_text",
          `${why}, and an input pages through the ${pagedText} it returns: text that people other than the deploying user can write`,
          r.confidence - 0.1,
        );
      else add("returns_untrusted_text", `${why}: ${RETURNS_WHAT_IT_FINDS}`, r.confidence - 0.1);
    } else if (r.session) continue;
    // `draft_email` makes a draft; `send_draft` sends one.
    else if (r.verbClass === "network" && ownDraft && NOUN_LIKE.has(r.verb))
      notes.push(`${why}, but it makes a draft: nothing is sent until someone sends it`);
    else if (r.verbClass === "compute") {
      // A computation over the caller's own input (`echo`, `ping`, `generate`) returns no one
      // else's text; over a text object (`extract_calendar`, `analyze_email`) it quotes it.
      if (pictureOnly)
        notes.push(
          `${why} and returns ${head}: bytes or a download link, not text people wrote, so returns_untrusted_text is not suggested`,
        );
      // `extract_contacts`, `maps_geocode`: what it computes is names and addresses, settings, or the
      // vendor's own data (whatever address the caller gives it). Names and settings are not from a
      // page it fetches or reads (`extract_links(url)`, "…from the current page"): a site's links
      // and text are the site's.
      else if (
        !textObject &&
        !idText &&
        head &&
        (VENDOR_TEXT.has(head) ||
          ((NAME_LIST_OBJECTS.has(head) || INFRA_OBJECTS.has(head)) &&
            !cues.fromText &&
            !fields.some((f) => f.freeText && f.words.some((w) => URL_FIELDS.has(w)))))
      )
        notes.push(
          `${why} and returns ${head}: names, settings or the vendor's own data, not text people wrote, so returns_untrusted_text is not suggested`,
        );
      else if (
        textObject ||
        kindOf(name.objects) ||
        fields.some((f) => f.freeText && f.words.some((w) => URL_FIELDS.has(w)))
      )
        add(
          "returns_untrusted_text",
          `${why} and returns the result, about ${textObject ?? "records"} others can write`,
          Math.min(r.confidence, WEAK + 0.05),
        );
      // `stagehand_extract` "Extract structured data or text from the current page": over a text
      // object the description says it works from, it quotes that text.
      else if (cues.fromText)
        add(
          "returns_untrusted_text",
          `${why} from the ${cues.fromText} (the description says so), and returns what it finds in it: text others can write`,
          Math.min(r.confidence, WEAK + 0.05),
        );
      // `extract_calendar(email_id)`: over a text object the inputs name by id, it quotes that text.
      else if (idText)
        add(
          "returns_untrusted_text",
          `${why} over the ${idText} named by its id, and returns what it finds in it: text others can write`,
          Math.min(r.confidence, WEAK + 0.05),
        );
    } else add(CLASS_ROLE[r.verbClass], why, r.confidence);
    // Deleting, deploying or running changes state: a destroy is a write too.
    if (r.verbClass === "destroy") add("writes", why, r.confidence);
    // A message sent or published is kept by whoever receives it: a send is a write too.
    if (r.verbClass === "network" && !RAW_REQUEST_VERBS.has(r.verb))
      add("writes", `${why}: what it sends is kept by its recipients`, r.confidence);
    // An action addressed by a CSS selector (`click(selector)`) needs no snapshot of the page to
    // aim at, so nothing says it returns one: such tools report only that it was done. An action
    // aimed at a reference from the page's snapshot is one step of a loop that returns it.
    if (pageAction(r.verb) && onPage && bySelector)
      notes.push(
        `"${r.verb}" acts on a live page by the selector in input "${bySelector.key}": such tools report that it was done, not the page, so returns_untrusted_text is not suggested for it`,
      );
    else if (pageAction(r.verb) && onPage) {
      add(
        "returns_untrusted_text",
        `"${r.verb}" acts on a live page or app, and such tools report what it then shows`,
        WEAK,
      );
      // What the page then shows is read like any page of the agent's browser (`browser_snapshot`);
      // loading another address or resizing the window acts on no content of the page.
      if (!PAGE_MOVES.has(r.verb))
        add(
          "reads_private_data",
          `"${r.verb}" reports what the page then shows: whatever the browser's session can see, as a read of the page does`,
          WEAK,
        );
    }
  }
  const classes = new Set(readings.map((r) => r.verbClass));
  const writesOrDestroys = classes.has("write") || classes.has("destroy");

  // A tool that runs code or any operation (`execute_sql`, `browser_evaluate(function)`,
  // `execute_sentry_tool`), or a bare HTTP method over any path (`jira_post(path)`), can do what
  // everything it reaches does.
  const verbsNow = new Set(readings.map((r) => r.verb));
  const codeObject =
    name.objects.find((w) => CODE_WORDS.has(w)) ??
    fields.find((f) => f.freeText && f.words.some((w) => CODE_WORDS.has(w)))?.key;
  const anyPath = fields.find(
    (f) =>
      f.freeText && f.words.length === 1 && (f.words[0] === "path" || f.words[0] === "endpoint"),
  );
  const bareMethod =
    name.verbs.length === 1 &&
    name.words.length <= 2 &&
    name.verbs[0]!.index === name.words.length - 1 &&
    HTTP_METHODS.has(name.verbs[0]!.verb);
  // `start_process(command)`, `launch(script)`: starting a program the caller writes runs it.
  const startsCode =
    [...verbsNow].some((v) => START_VERBS.has(v)) &&
    fields.some((f) => f.freeText && f.words.some((w) => PROGRAM_WORDS.has(w)));
  if (([...verbsNow].some((v) => EXEC_VERBS.has(v)) || startsCode) && codeObject) {
    // SQL runs inside the database: it reaches the network only through whatever extensions the
    // database has, which is the database's setting, not the statement's.
    const sqlOnly = codeObject === "sql" || codeObject === "query";
    const why = `runs ${codeObject === "tool" || codeObject === "operation" ? "any operation it is named" : `arbitrary ${codeObject}`}: it can read, write, destroy${sqlOnly ? "" : " and reach the network"}`;
    for (const role of [
      "returns_untrusted_text",
      "reads_private_data",
      "writes",
      "deploys_or_destroys",
      ...(sqlOnly ? [] : (["network_or_shares"] as const)),
    ] as const)
      add(role, why, SCHEMA);
    if (sqlOnly)
      notes.push(
        `it runs ${codeObject} inside the database, which sends nothing elsewhere by itself, so network_or_shares is not suggested for running it`,
      );
  } else if (bareMethod && anyPath) {
    const method = name.verbs[0]!.verb;
    const why = `an HTTP ${method.toUpperCase()} on any path of the API (input "${anyPath.key}") does whatever the endpoints it reaches do`;
    const reach: Record<string, readonly ToolRole[]> = {
      post: ["returns_untrusted_text", "writes", "deploys_or_destroys", "network_or_shares"],
      // A PUT replaces any resource, sharing and permission settings included.
      put: ["writes", "deploys_or_destroys", "network_or_shares"],
      delete: ["writes", "deploys_or_destroys"],
    };
    for (const role of reach[method] ?? []) add(role, why, NAME_OBJECT);
  }

  // The operations an input offers: the tool performs whichever is chosen.
  let namedOperations = 0;
  const offered = [...offeredOperations(input.inputSchema), ...modeOperations(input.inputSchema)];
  for (const { field, value, branch } of offered) {
    const words = nameWords(value);
    const verb = words.find((w) => VERB_CLASS.has(w));
    // The branch of a union is a command: one that leads with a verb does it (`deploy-site`), even
    // a verb that is as often a noun (`deploy`); in an enum it may be a kind (`build_failed`).
    if (!verb || (NOUN_LIKE.has(verb) && words.length > 1 && !(branch && words[0] === verb)))
      continue;
    const why = `input "${field}" offers the operation "${value}"`;
    if (EXEC_VERBS.has(verb) && words.some((w) => CODE_WORDS.has(w))) {
      for (const role of [
        "returns_untrusted_text",
        "writes",
        "deploys_or_destroys",
        "network_or_shares",
      ] as const)
        add(role, `${why}, which runs arbitrary code`, SCHEMA);
      continue;
    }
    const verbClass = VERB_CLASS.get(verb)!;
    if (verbClass === "write") add("writes", why, SCHEMA);
    else if (verbClass === "destroy") {
      add("writes", why, SCHEMA);
      add("deploys_or_destroys", why, SCHEMA);
    } else if (verbClass === "network") add("network_or_shares", why, SCHEMA);
    else if (HTTP_METHODS.has(verb) && verb !== "get" && verb !== "head" && verb !== "options")
      add("writes", why, SCHEMA);
    // `manage_workspace(operation: list | read | write)`, `manage_media(operation: view | delete)`:
    // reading or viewing what the tool manages returns its content (a file's, an attachment's).
    // Not a read state beside its opposite (`action: read | unread`) or a flag a rule sets
    // (`messageActionFlag: read | reply | forward`).
    const readState =
      nameWords(field).includes("flag") ||
      offered.some((o) => o.field === field && o.value.toLowerCase() === `un${verb}`);
    if (words.length === 1 && CONTENT_READS.has(verb) && !readState) {
      add(
        "returns_untrusted_text",
        `${why}, which returns the content of what the tool manages: text whoever wrote it controls`,
        NAME_OBJECT - 0.05,
      );
      add(
        "reads_private_data",
        `${why}, which returns the content of what the tool manages`,
        NAME_OBJECT - 0.05,
      );
      continue;
    }
    // A bare retrieval (`action: list | get | add | remove`) returns the records the tool manages.
    if (words.length === 1 && BARE_RETRIEVALS.has(verb)) {
      add(
        "reads_private_data",
        `${why}, which returns the records the tool manages from inside the account`,
        NAME_OBJECT - 0.05,
      );
      continue;
    }
    // An operation that names its object, read as a tool name of its own (`get-submissions`
    // returns submissions, `update-visitor-access-controls` changes access): what it returns and
    // where it reaches. A bare verb (`read`, `list`) is a mode of the tool's own object.
    if (words.length < 2) continue;
    const operation = inferRoles({
      name: value,
      annotationCombination: UNANNOTATED,
      serverWords: input.serverWords,
    });
    namedOperations++;
    for (const [role, draft] of operation.roles)
      if (
        (role === "returns_untrusted_text" && !onlyGuessed(draft)) ||
        role === "reads_private_data" ||
        role === "network_or_shares"
      )
        add(role, `${why}: ${draft.reasons[0]}`, Math.min(draft.confidence, SCHEMA));
  }
  // The operations say what the tool returns better than a guess from its own name does.
  if (namedOperations > 0 && onlyGuessed(roles.get("returns_untrusted_text"))) {
    roles.delete("returns_untrusted_text");
    notes.push(
      "its operations name what it reads, and none returns text known to come from outside writers, so returns_untrusted_text is not suggested",
    );
  }
  // `jira_search(action: issues | projects | users)`: a read whose operation input offers a text
  // object by its bare noun returns that text when it is chosen.
  const textChoice = classes.has("read")
    ? offered.find((o) => {
        const words = nameWords(o.value);
        return words.length === 1 && TEXT_OBJECTS.has(words[0]!);
      })
    : undefined;
  if (textChoice && !roles.has("returns_untrusted_text")) {
    add(
      "returns_untrusted_text",
      `input "${textChoice.field}" offers "${textChoice.value}": the read then returns ${textChoice.value}, text that people other than the deploying user can write`,
      SCHEMA - 0.1,
    );
    unsayWithheld("returns_untrusted_text");
  }
  // `git_branch(mode: list | create | delete)`, `manage_agent(action: list | get | …)`: a tool whose
  // mode or action offers a bare listing also returns what it manages, read as `list_<its object>`
  // (what that returns, outside writers' text or records from inside the account, is the tool's).
  const listing = listingChoice(input.inputSchema);
  const managed = name.words.filter((w) => !FILLER.has(w)).at(-1);
  if (listing && managed && !classes.has("read")) {
    // The same description, and no input fields.
    const listed = inferFrom(
      {
        name: `list_${managed}`,
        description: input.description,
        annotationCombination: UNANNOTATED,
        serverWords: input.serverWords,
      },
      { fields: [], cues, sink, reach: reachCues(input.description, [], undefined) },
    );
    for (const role of ["returns_untrusted_text", "reads_private_data"] as const) {
      const draft = listed.roles.get(role);
      // Only what the listing is known to return: the guess "it returns what it finds" stays off.
      if (draft && !(role === "returns_untrusted_text" && onlyGuessed(draft)))
        add(
          role,
          `input "${listing.key}" offers "${listing.value}", which lists what the tool manages: ${draft.reasons[0]}`,
          Math.min(draft.confidence, SCHEMA) - 0.05,
        );
    }
  }

  // `manage_jira_board(operation: get | list, expand: [sprints, issues])`,
  // `get_pull_request(include_comments)`: a read whose response can be asked to carry the text people
  // write returns it, whatever the tool's own object is (the corpus README counts every documented use).
  // A computation's too (`validate_ci_lint(include_jobs: "Include jobs in the lint response")`:
  // issue 32, tenth round).
  const expansion = fields
    .map((f) => ({ f, text: expandedText(f) }))
    .find((x) => x.text !== undefined);
  if (
    expansion &&
    (classes.has("read") || classes.has("compute") || listing || roles.has("reads_private_data")) &&
    !roles.has("returns_untrusted_text")
  ) {
    add(
      "returns_untrusted_text",
      `input "${expansion.f.key}" can ask for ${expansion.text} in the response: text that people other than the deploying user write`,
      SCHEMA - 0.1,
    );
    unsayWithheld("returns_untrusted_text");
  }

  // `get_merge_request_version(unidiff: "Present diffs in the unified diff format")`: a read with an
  // input that sets how a text object in its response is presented returns that text.
  const presented = fields.find((f) => f.cues.presentsText !== undefined);
  if (
    presented &&
    (classes.has("read") || listing || roles.has("reads_private_data")) &&
    !roles.has("returns_untrusted_text")
  ) {
    add(
      "returns_untrusted_text",
      `input "${presented.key}" sets how the ${presented.cues.presentsText} in the response are presented, so they come back: text that people other than the deploying user write`,
      SCHEMA - 0.1,
    );
    unsayWithheld("returns_untrusted_text");
  }

  // Issue 32, eleventh round, recall rules (written from the held-out-11 servers' misses, so not
  // independent: tests/corpus/README.md). `get_page_revisions`, `get_post_revisions`: a page's or a
  // post's revisions are saved copies of its text, each by its author. A file's revision list is
  // who changed it and when (`get_file_revisions` keeps the names reading).
  const revisedHead = head !== undefined && REVISION_WORDS.has(head) ? beforeHead : undefined;
  const revisedProse =
    revisedHead !== undefined && REVISED_PROSE.has(revisedHead) ? revisedHead : undefined;
  if (classes.has("read") && revisedProse && !roles.has("returns_untrusted_text")) {
    add(
      "returns_untrusted_text",
      `it returns a ${revisedProse}'s revisions: saved copies of its text, written by its authors, who need not be the deploying user`,
      NAME_OBJECT,
    );
    unsayWithheld("returns_untrusted_text");
  }
  // `retrieve_page_property`, `get_dashboard_property(uid, jsonPath)`: one property of a record the
  // name names is part of that record, whatever its members wrote there. Not a property of names
  // and settings (`get_contact_property`: a custom attribute's definition) nor a bare
  // `get_property` (a property definition of an object type).
  const propertyOwner = head === "property" ? beforeHead : undefined;
  const recordProperty =
    propertyOwner !== undefined &&
    name.objects.includes(propertyOwner) &&
    !NAME_LIST_OBJECTS.has(propertyOwner) &&
    !INFRA_OBJECTS.has(propertyOwner) &&
    !PEOPLE_OBJECTS.has(propertyOwner) &&
    !TYPE_WORDS.has(propertyOwner) &&
    !VENDOR_TEXT.has(propertyOwner);
  if (classes.has("read") && recordProperty && !roles.has("returns_untrusted_text")) {
    add(
      "returns_untrusted_text",
      "it returns one property of a record the name names: part of that record, whatever its members wrote there",
      NAME_OBJECT - 0.1,
    );
    unsayWithheld("returns_untrusted_text");
  }
  // "Find and analyze recurring stack traces": what the application threw, with the messages its
  // code and its users' input produced (the labelling rules count error events and logs), whatever
  // figures come with them.
  if (classes.has("read") && cues.stackTraces && !roles.has("returns_untrusted_text")) {
    add(
      "returns_untrusted_text",
      "the description says it reads stack traces: exception messages that the application's code and its users' input produced",
      DESCRIPTION,
    );
    unsayWithheld("returns_untrusted_text");
  }
  // "Track search engine result page positions": a search engine's results are other sites' titles,
  // addresses and snippets (the labelling rules count search results), whatever the verb does.
  if (cues.searchEngineResults && !roles.has("returns_untrusted_text")) {
    add(
      "returns_untrusted_text",
      "the description says it reads a search engine's results: other sites' titles, addresses and snippets",
      DESCRIPTION,
    );
    unsayWithheld("returns_untrusted_text");
  }

  // "…send input to a process and return newly available output", "returns the file content":
  // the description names what comes back, whatever the name's verb is.
  if (cues.returnsOutput && !roles.has("returns_untrusted_text"))
    add(
      "returns_untrusted_text",
      `the description says it returns ${cues.returnsOutput}: text that whatever produced it controls`,
      DESCRIPTION,
    );

  // What the verbs act on.
  // A message or webhook that is made leaves the session; deleting, drafting or relabelling one
  // sends nothing (`delete_email`, `modify_email`, `draft_email`).
  // Changing one that exists (`update_email` reschedules, `edit_webhook` renames) sends nothing
  // new; where it goes is then read from its inputs (a `url`, recipients). What is made must be
  // the message itself, not something added to it (`add_mail_attachment`).
  const outbound = name.objects.find((w) => OUTBOUND_NOUNS.has(w));
  const makes = [...verbsNow].some((v) => MAKE_VERBS.has(v));
  const makesNew = [...verbsNow].some((v) => MAKE_VERBS.has(v) && !CHANGE_VERBS.has(v));
  const drafted = name.objects.some((w) => w === "draft" || w === "drafts");
  if (outbound && makesNew && !drafted && (!head || OUTBOUND_NOUNS.has(head)))
    add("network_or_shares", `the name's object "${outbound}" leaves the session`, NAME_OBJECT);
  // A link made to be handed out (`create_share_link`, `create_payment_link`) widens the audience.
  const linkAt = name.objects.findIndex((w) => w === "link" || w === "links");
  const linkKind = linkAt > 0 ? name.objects[linkAt - 1] : undefined;
  if (linkKind && SHARE_LINK_KINDS.has(linkKind) && writesOrDestroys)
    add(
      "network_or_shares",
      `it makes a ${linkKind} link: whoever holds the link can reach what it points at`,
      NAME_OBJECT,
    );
  // Granting or changing access widens who reads (the corpus README: "changing an access setting").
  const access = name.objects.find((w) => ACCESS_OBJECTS.has(w));
  if (
    access &&
    classes.has("write") &&
    !classes.has("destroy") &&
    ![...verbsNow].some((v) => NARROWING_VERBS.has(v))
  )
    add(
      "network_or_shares",
      `it grants or changes ${access}: who can read may widen`,
      NAME_OBJECT - 0.05,
    );
  if (verbsNow.has("fork"))
    add(
      "network_or_shares",
      `"fork" copies it into another namespace, whose visibility the caller chooses`,
      NAME_OBJECT,
    );
  // Uploading a local file by path sends it to the site or service (`upload_file(filePath)`,
  // `file_upload(paths)`); so does dropping files onto a live page (`browser_drop(paths)`).
  const localPath = fields.find(
    (f) =>
      f.freeText &&
      f.words.some((w) => PATH_WORDS.has(w) || PATH_WORDS.has(w.replace(/s$/, ""))) &&
      !f.words.includes("id") &&
      // A path on the far side (`remotePath`) names where the upload lands, not a local file.
      !f.words.includes("remote"),
  );
  // A file passed inline (`file: "Raw base64-encoded file content"`) is the caller's data, not a
  // local file read by its path.
  const inline = fields.some((f) => f.cues.inlineContent);
  if (localPath && !inline && (verbsNow.has("upload") || (verbsNow.has("drop") && onPage)))
    add(
      "network_or_shares",
      `it uploads the local file named in input "${localPath.key}", so local data leaves the machine`,
      SCHEMA,
    );
  // `create_pull_request(attachments: "Local files to upload & embed")`: an input described as
  // local files to upload sends them, whatever the tool's verb.
  const uploadsLocal = fields.find((f) => f.cues.localUpload);
  if (uploadsLocal && !inline && writesOrDestroys && !roles.has("network_or_shares"))
    add(
      "network_or_shares",
      `input "${uploadsLocal.key}" takes local files to upload, so local data leaves the machine`,
      SCHEMA,
    );
  // Workloads, charts and functions the caller supplies run with network access.
  const workload = fields.find(
    (f) => f.freeText && WORKLOAD_FIELDS.has(f.words.at(-1)!) && f.words.length <= 2,
  );
  const deploysCode = [...verbsNow].some((v) => v === "deploy" || v === "redeploy");
  if (
    workload &&
    (deploysCode || !CODE_FILE_FIELDS.has(workload.words.at(-1)!)) &&
    (classes.has("destroy") || classes.has("write")) &&
    !verbsNow.has("delete") &&
    !verbsNow.has("remove")
  ) {
    const why = `input "${workload.key}" supplies what it deploys and runs (a manifest, chart, image or code)`;
    add("writes", why, NAME_OBJECT - 0.05);
    add("deploys_or_destroys", why, NAME_OBJECT - 0.05);
    add("network_or_shares", `${why}, which can reach the network`, NAME_OBJECT - 0.05);
  }
  // A subscription or webhook to a caller-named address sends events there.
  const callback = fields.find(
    (f) =>
      f.freeText &&
      f.words.some((w) => URL_FIELDS.has(w) || w === "callback") &&
      (f.words.some((w) => CALLBACK_WORDS.has(w)) ||
        name.objects.some((w) => CALLBACK_WORDS.has(w))),
  );
  if (callback && writesOrDestroys && !verbsNow.has("delete") && !verbsNow.has("remove"))
    add(
      "network_or_shares",
      `input "${callback.key}" is an address that events or data are then sent to`,
      SCHEMA,
    );
  // A notification address on any call (`generate_image(request.notification_url)`): the service
  // calls it when the work is done, whatever the verb (issue 32, network round).
  else if (
    callback &&
    callback.words.some((w) => w === "notification" || w === "notify" || w === "callback") &&
    !verbsNow.has("delete") &&
    !verbsNow.has("remove")
  ) {
    add(
      "network_or_shares",
      `input "${callback.key}" is an address the service notifies when the work is done: any host the caller names`,
      SCHEMA,
    );
    // Work the service finishes on its own and then reports is a job it keeps, with its result.
    add(
      "writes",
      `input "${callback.key}" is notified when the work is done: the service runs it as a job and keeps its result`,
      SCHEMA - 0.1,
    );
  }
  // Running or scheduling pipelines, merging into a target, refunds and migrations: one call that
  // runs something or is not undone (the corpus README's rules for deploys_or_destroys).
  const runs = name.objects.find((w) => RUN_NOUNS.has(w));
  // "Manage issue status transitions": a workflow of an item's statuses moves it between states;
  // nothing runs.
  const statusWorkflow = runs === "workflow" && cues.transitions;
  if (statusWorkflow)
    notes.push(
      `the description speaks of status transitions: this workflow moves an item between states, which runs nothing, so deploys_or_destroys is not suggested for it`,
    );
  if (
    runs &&
    !statusWorkflow &&
    classes.has("write") &&
    head &&
    (RUN_NOUNS.has(head) || head.startsWith("schedule"))
  )
    add(
      "deploys_or_destroys",
      `it makes or changes a ${runs}, which runs something or cannot be undone`,
      NAME_OBJECT,
    );
  // A pipeline run from a configuration the caller writes (`run_pipeline(configContent)`) runs
  // that code with the project's secrets and network access.
  const callerConfig = fields.find(
    (f) =>
      f.freeText &&
      f.words.some((w) => w === "config" || w === "configuration" || w === "yaml") &&
      f.words.some((w) => w === "content" || w === "yaml" || w === "contents"),
  );
  if (runs && callerConfig && classes.has("destroy"))
    add(
      "network_or_shares",
      `input "${callerConfig.key}" is a configuration the caller writes, which the ${runs} runs with network access`,
      SCHEMA - 0.05,
    );
  if (verbsNow.has("merge") && name.objects.some((w) => MERGE_TARGETS.has(w)))
    add(
      "deploys_or_destroys",
      `"merge" lands changes in their target, which usually deploys and is not undone by one call`,
      NAME_OBJECT,
    );
  // A switch (`archived: true`), not a record's description of its own deletion (`deleted: { state }`).
  // A switch described as archiving (`closed`: "Whether to close (archive) the list") is one too,
  // on a record that exists: on one being made (`create_filter(archive)`) it is what the new
  // record will do, not an archive of it.
  const trash = fields.find(
    (f) =>
      !f.record &&
      // On a record being made (`create_issue(archived_at)`), a trash field is the state it starts in.
      ((!makesNew && f.words.some((w) => TRASH_FIELDS.has(w))) ||
        // A switch named only "delete" (`git_push(delete)`), not a permission (`deleteAnyCollection`).
        (f.words.length === 1 && f.words[0] === "delete" && !f.freeText) ||
        (!makesNew && !f.freeText && f.cues.archives)),
  );
  if (trash && classes.has("write"))
    add(
      "deploys_or_destroys",
      `input "${trash.key}" can delete it, move it to the trash or archive it`,
      SCHEMA - 0.05,
    );
  // Deployed code runs with network access and serves whoever reaches it (the corpus README:
  // "deploying an Edge Function"); recording a deployment (`create_deployment`) deploys nothing.
  // Only code the caller hands over is the caller's reach: a deploy by id or tag of what is already
  // configured (`deploy(tag_or_uuid)`) runs the project's own code (issue 32, fifth round).
  const deploysNow = [...verbsNow].find((v) => v === "deploy" || v === "redeploy");
  const handsCode =
    fields.length === 0 ||
    fields.some(
      (f) =>
        f.freeText &&
        !f.words.includes("id") &&
        !f.words.includes("uuid") &&
        !f.words.includes("sid") &&
        !f.words.includes("tag"),
    ) ||
    // A wrapper whose fields are declared (`params: { serviceId, clearCache }`) is read through:
    // its fields are listed beside it (issue 32, network round).
    fields.some((f) => f.opaque);
  if (deploysNow && !handsCode)
    notes.push(
      `"${deploysNow}" runs code already configured for what its ids name; no input hands over code, so network_or_shares is not suggested for the deploy itself`,
    );
  if (deploysNow && handsCode)
    add(
      "network_or_shares",
      `"${deploysNow}" puts code where it runs with network access and serves whoever can reach it`,
      NAME_OBJECT,
    );
  // Mail forwarding to a caller-named address (`create_filter(action.forward)`).
  const forwardTo = fields.find(
    (f) => f.freeText && (f.words[0] === "forward" || f.words[0] === "forwarding"),
  );
  if (forwardTo && writesOrDestroys && !verbsNow.has("delete") && !verbsNow.has("remove"))
    add(
      "network_or_shares",
      `input "${forwardTo.key}" forwards what arrives to the address the caller names`,
      SCHEMA,
    );
  // Connecting to a caller-named host (`connect(connectionString)`) reaches any server.
  const hostField = fields.find(
    (f) =>
      f.freeText &&
      (f.words.includes("host") ||
        f.words.includes("hostname") ||
        (f.words.includes("connection") && f.words.includes("string"))),
  );
  if (hostField && verbsNow.has("connect"))
    add(
      "network_or_shares",
      `input "${hostField.key}" names the host it connects to: any server the caller chooses`,
      SCHEMA,
    );
  const deploy = name.objects.find((w) => DEPLOY_NOUNS.has(w));
  if (deploy && writesOrDestroys)
    add("deploys_or_destroys", `the name's object "${deploy}" is a deploy`, NAME_OBJECT);
  const saves = outputField(fields);
  if (saves) add("writes", `input "${saves.key}" saves its output to a file`, SCHEMA - 0.1);
  // A download to a caller-named file returns its path, not its content.
  // Unless the description says the content also comes back inline (`download_attachment`,
  // "images returned as base64").
  const downloadsToFile = saves !== undefined && verbsNow.has("download") && !cues.returnsInline;
  if (
    saves !== undefined &&
    verbsNow.has("download") &&
    cues.returnsInline &&
    roles.has("returns_untrusted_text")
  )
    notes.push(
      `it can save to the file named in input "${saves.key}", but the description says the content also comes back inline, so returns_untrusted_text stays`,
    );
  // `save_attachment(returnBase64: "Whether to also return base64-encoded content in the response")`:
  // an input that asks for a text object's content back inline makes the response carry it.
  const inlineField = fields.find((f) => f.cues.returnedInline);
  const inlineText = textObject ?? name.objects.find((w) => TEXT_OBJECTS.has(w));
  if (inlineField && inlineText && !roles.has("returns_untrusted_text"))
    add(
      "returns_untrusted_text",
      `input "${inlineField.key}" asks for the ${inlineText}'s content back in the response: text whoever wrote it controls`,
      SCHEMA - 0.1,
    );
  if (downloadsToFile && roles.delete("returns_untrusted_text"))
    notes.push(
      `it downloads to the file named in input "${saves.key}" and returns the path, not the content`,
    );
  const secret = name.objects.find((w) => SECRET_NOUNS.has(w));
  if (secret && !writesOrDestroys && !classes.has("network"))
    add(
      "reads_private_data",
      `it returns credentials or secrets (the name's object "${secret}")`,
      NAME_OBJECT,
    );
  // A write that mints or rotates a credential returns it (`create-api-key`, `rotate_secret`).
  const minted = secretObject(name.objects);
  if (minted && [...verbsNow].some((v) => MINT_VERBS.has(v)))
    add(
      "reads_private_data",
      `it creates or rotates a credential ("${minted}") and returns it`,
      NAME_OBJECT,
    );

  // Eighth round (issue 32): rules written from the 79 corpus servers' misses (`sink`).
  const stopsNothing = verbsNow.has("delete") || verbsNow.has("remove");
  // `discover_tools` "activate additional tool categories": the session gains tools (deletes
  // among them) that it did not list, which widens what the agent can do (a write, whatever a
  // readOnlyHint claims).
  if (sink.activatesTools)
    add(
      "writes",
      "the description says it switches on tools the session did not list: what the agent can do widens",
      DESCRIPTION,
    );
  // A write the description opens by calling a removal ("Remove current user as story owner",
  // "Disconnects related entries"): every remove is deploys_or_destroys, however small.
  if (
    sink.removes &&
    classes.has("write") &&
    !classes.has("destroy") &&
    readings[0]?.session !== true
  )
    add(
      "deploys_or_destroys",
      `the description opens with "${cues.leadVerb}": it takes something away, and every remove is a destroy`,
      DESCRIPTION,
    );
  // `write_apex(body: "Full body of the Apex class")`: a class, trigger or procedure the service
  // stores is code it then runs, with its network access (as deploying a function).
  const codeBody = fields.find(
    (f) =>
      f.freeText &&
      f.words.length <= 2 &&
      f.words.some((w) => CODE_BODY_WORDS.has(w)) &&
      f.cues.codeUnit,
  );
  if (codeBody && classes.has("write") && !stopsNothing) {
    const why = `input "${codeBody.key}" is the code of a unit the service stores and runs`;
    add("deploys_or_destroys", why, SCHEMA - 0.05);
    add("network_or_shares", `${why}, which can reach the network`, SCHEMA - 0.05);
  }
  // An application or service made from a repository the caller names
  // (`create_application(spec.source.repoURL)`, `service_create_from_repo(repo)`) builds and runs
  // whatever that repository holds (as a Helm chart from any repository).
  const runnable = name.objects.find((w) => RUNNABLE_OBJECTS.has(w));
  const repository = runnable ? sourceRepositoryField(input.inputSchema) : undefined;
  // Only a call that makes or changes it: managing an integration (`github_apps(action, repo)`)
  // names a repository to list its branches.
  if (runnable && repository && makes && !stopsNothing) {
    const why = `it makes or changes the ${runnable} from the repository in input "${repository}": it builds and runs that code`;
    add("deploys_or_destroys", why, SCHEMA - 0.05);
    add("network_or_shares", `${why}, which can reach the network`, SCHEMA - 0.05);
  }
  // Syncing an application or service to its source deploys what the source now holds.
  if (runnable && verbsNow.has("sync"))
    add(
      "deploys_or_destroys",
      `"sync" brings the ${runnable} to what its source holds: a deploy`,
      NAME_OBJECT - 0.05,
    );
  // A status choice that merges (`update_pull_request(status: completed)`) lands the changes in
  // their target, as "merge" does; one that archives (`status: archived`) is the archive flag.
  if (classes.has("write") && !makesNew) {
    const merging = name.objects.some((w) => MERGE_TARGETS.has(w))
      ? fields.find((f) => !f.freeText && f.choices.some((c) => MERGE_CHOICES.has(c.toLowerCase())))
      : undefined;
    const archiving = fields.find(
      (f) => !f.freeText && f.choices.some((c) => TRASH_FIELDS.has(c.toLowerCase())),
    );
    if (merging)
      add(
        "deploys_or_destroys",
        `input "${merging.key}" offers a status that merges it into its target, which usually deploys and is not undone by one call`,
        SCHEMA - 0.05,
      );
    if (archiving)
      add(
        "deploys_or_destroys",
        `input "${archiving.key}" offers a status that archives or deletes it`,
        SCHEMA - 0.05,
      );
  }
  // A local file read by its path and uploaded, where the upload is the description's opening verb
  // or an operation the input offers (`create_work_item_attachment(filePath)` "Upload a file…",
  // `attachments(action: upload, filePath)`). A path beside a base64 alternative is still a path.
  const uploadPath = fields.find(
    (f) =>
      f.freeText &&
      // A path, not a name the upload is given (`fileName`).
      f.words.some((w) => w === "path" || w === "paths" || w === "filepath") &&
      !f.words.includes("id") &&
      !f.words.includes("remote") &&
      !f.cues.inlineContent,
  );
  const uploads =
    sink.uploads ||
    verbsNow.has("upload") ||
    offered.some((o) => nameWords(o.value).includes("upload"));
  if (uploadPath && uploads && writesOrDestroys && !roles.has("network_or_shares"))
    add(
      "network_or_shares",
      `it uploads the local file named in input "${uploadPath.key}", so local data leaves the machine`,
      SCHEMA - 0.05,
    );
  // "**Mode 2 - Remove Entry:**": a tool whose description lists a removing mode removes in that
  // mode, whatever its name's verb (and whatever a readOnlyHint claims).
  if (sink.removingMode && classes.has("write") && !classes.has("destroy"))
    add(
      "deploys_or_destroys",
      "the description lists a mode or action that removes, and every remove is a destroy",
      DESCRIPTION,
    );
  // `rename_collection(dropTarget: "If true, drops the target collection if it exists")`: a switch
  // described as deleting when on.
  const dropSwitch = fields.find((f) => !f.freeText && f.cues.dropSwitch);
  if (dropSwitch && writesOrDestroys)
    add(
      "deploys_or_destroys",
      `input "${dropSwitch.key}" is a switch that deletes or overwrites something when on`,
      SCHEMA - 0.05,
    );
  const confirmation = fields.find((f) => f.cues.confirmsDestruction);
  if (confirmation) {
    const why = `input "${confirmation.key}" confirms a destructive operation: the server asks for it because the call destroys something`;
    add("writes", why, SCHEMA - 0.05);
    add("deploys_or_destroys", why, SCHEMA - 0.05);
  }
  // `verify_domain` "Trigger domain verification…": a check the description says it starts runs
  // as a process the service keeps (a status, an ownership transfer), so it is a write, not a
  // verdict returned on the spot.
  const verdictNamed =
    readings.length > 0 && readings.every((r) => r.fromName && VERDICT_VERBS.has(r.verb));
  if (verdictNamed && sink.startsJob)
    add(
      "writes",
      `the description opens with "${cues.leadVerb}": it starts a process whose state the service keeps`,
      DESCRIPTION,
    );
  // Closing a session whose command the description says is signalled stops a process on the
  // host: not just the server's own state.
  if (readings[0]?.session === true && sink.signalsProcess) {
    const why =
      "the description says closing it signals a command or process to stop: a process on the host is stopped";
    add("writes", why, DESCRIPTION);
    add("deploys_or_destroys", why, DESCRIPTION);
  }
  // "Mark dialog messages as read": read state is kept, and senders see it (read receipts).
  if (sink.marksState && !writesOrDestroys)
    add(
      "writes",
      "the description says it marks things read or seen: state the service keeps, which others can see",
      DESCRIPTION,
    );
  // `update_asset(access_control)`, `acl`: an input that sets who may access the record is an
  // access setting, which can open it wider (the corpus README's "changing an access setting").
  const accessSetting = fields.find(
    (f) =>
      f.words.some((w) => w === "acl" || w === "acls") ||
      (f.words.includes("access") &&
        f.words.some((w) => w === "control" || w === "controls" || w === "mode")),
  );
  if (
    accessSetting &&
    classes.has("write") &&
    !classes.has("destroy") &&
    ![...verbsNow].some((v) => NARROWING_VERBS.has(v))
  )
    add(
      "network_or_shares",
      `input "${accessSetting.key}" sets who may access it: who can read may widen`,
      SCHEMA - 0.05,
    );
  // "Exposing TCP services": a proxy, port or domain that opens a service to outside callers
  // widens who can reach it.
  if (sink.exposes && classes.has("write") && !classes.has("destroy"))
    add(
      "network_or_shares",
      "the description says it exposes a service or port to outside callers: who can reach it widens",
      DESCRIPTION,
    );

  // The input schema.
  const verbs = verbsNow;
  const fetchLike =
    readings.length === 0 ||
    [...verbs].some((v) => NET_FETCH_VERBS.has(v)) ||
    name.objects.some((w) => WEB_OBJECTS.has(w)) ||
    classes.has("network");
  const url = fieldIn(fields, URL_FIELDS, true);
  // An HTTP verb with a free address (`http_post(url)`) is a request to any host.
  const httpVerb = [...verbs].find((v) => HTTP_METHODS.has(v) && v !== "head" && v !== "options");
  if (url && httpVerb && (writesOrDestroys || name.objects.length === 0))
    add(
      "network_or_shares",
      `an HTTP ${httpVerb.toUpperCase()} to the free address in input "${url.key}" sends data to any host`,
      SCHEMA,
    );
  // What such a request returns is the response of whatever server the address names. A callback
  // address (`notification_url`) is where the service reports later: its server's answer never
  // comes back to the caller.
  if (
    url &&
    httpVerb &&
    (writesOrDestroys || name.objects.length === 0) &&
    !url.words.some((w) => CALLBACK_WORDS.has(w))
  )
    add(
      "returns_untrusted_text",
      `an HTTP ${httpVerb.toUpperCase()} to the free address in input "${url.key}" returns that server's response, written by whoever runs it`,
      NAME_OBJECT - 0.05,
    );
  // A switch that makes a path an address (`read_file(path, isUrl)`): the read can fetch any URL.
  const urlSwitch = fields.find(
    (f) => !f.freeText && f.words.some((w) => w === "url" || w === "uri"),
  );
  if (urlSwitch && localPath && classes.has("read") && !writesOrDestroys)
    add(
      "network_or_shares",
      `input "${urlSwitch.key}" turns input "${localPath.key}" into an address: the read can fetch any URL, which can carry data out`,
      SCHEMA - 0.05,
    );
  // A write that attaches or imports what a caller-named address serves (`attach_file_to_card(fileUrl)`):
  // the service fetches any URL, and an address can carry data out (or name a local file).
  const fetched = fields.find(
    (f) => f.freeText && f.words.some((w) => URL_FIELDS.has(w)) && f.cues.fetchedAddress,
  );
  if (fetched && classes.has("write") && !classes.has("destroy"))
    add(
      "network_or_shares",
      `input "${fetched.key}" is an address the tool fetches what it attaches or imports from: a request to any host`,
      SCHEMA - 0.05,
    );
  // Issue 32, twelfth round: `push_text_message(userId, message)`: a push of a message or a
  // notification delivers it to a person's device: a message to people, as a send is.
  const pushed = name.objects.find((w) => PUSHED_TO_PEOPLE.has(w));
  if (verbsNow.has("push") && pushed)
    add(
      "network_or_shares",
      `"push" delivers the ${pushed} to its recipients: a message to people`,
      NAME_OBJECT - 0.05,
    );
  // `git_push(remote)`: pushing sends the commits to the named remote, whose address can be any host.
  const remote = fields.find((f) => f.words.includes("remote") && f.freeText);
  if (verbsNow.has("push") && remote)
    add(
      "network_or_shares",
      `"push" sends commits to the remote named in input "${remote.key}", whose address can be any host`,
      NAME_OBJECT - 0.05,
    );
  // `git_clone(url)`, `git_remote(url)`: an address described as taking any of several schemes
  // ("HTTP(S), SSH (ssh://…), git://") names a host anywhere; a write that clones from it or keeps it
  // for later pushes reaches that host.
  const anyHost = fields.find(
    (f) => f.freeText && f.words.some((w) => URL_FIELDS.has(w)) && f.cues.schemes,
  );
  if (anyHost && classes.has("write"))
    add(
      "network_or_shares",
      `input "${anyHost.key}" takes an address on any host (it names several schemes): what the tool clones from or pushes to can be anywhere`,
      SCHEMA - 0.05,
    );
  if (url && fetchLike && !writesOrDestroys)
    add(
      "network_or_shares",
      `input "${url.key}" is a free address: the request itself can carry data out`,
      SCHEMA,
    );
  // Recipients, not senders (`senderEmail`) or the record's own address (`create_customer(email)`).
  const recipients = fields.find(
    (f) =>
      f.words.some((w) => RECIPIENT_FIELDS.has(w)) &&
      !f.words.some((w) => NOT_RECIPIENT.has(w)) &&
      !(f.words.length > 1 && f.words.at(-1) === "id"),
  );
  const sends =
    [...verbs].some((v) => SEND_VERBS.has(v) && !MAKE_VERBS.has(v)) ||
    (makes && outbound !== undefined);
  if (recipients && sends && !drafted)
    add("network_or_shares", `input "${recipients.key}" names recipients`, SCHEMA);
  // A post or reply into a chat channel or thread is a message to its members (`reply_to_thread`,
  // `create_forum_post(forumChannelId, content)`); a tracker comment is not (no channel).
  const chatField = fields.find((f) => f.words.some((w) => CHAT_FIELD_WORDS.has(w)));
  const chatContent = fieldIn(fields, CONTENT_FIELDS, true);
  // Issue 32, twelfth round: a pull request's or an issue's comment thread
  // (`repo_pull_request_thread_write(threadId, content)`) is a tracker's comments, not a chat.
  const trackerThread = name.objects.some((w) => TRACKER_THREAD_OWNERS.has(w));
  if (
    chatField &&
    chatContent &&
    makes &&
    !drafted &&
    !trackerThread &&
    (verbsNow.has("reply") || verbsNow.has("post") || (head !== undefined && CHAT_MADE.has(head)))
  )
    add(
      "network_or_shares",
      `it posts "${chatContent.key}" into the chat channel or thread in input "${chatField.key}": a message to its members`,
      SCHEMA,
    );
  // An input that hands out access (`groups: [{ id, readOnly }]` "with access to this collection"),
  // or content the schema says is there to share, widens who reads.
  if (classes.has("write") && !classes.has("destroy")) {
    const grant = fields.find((f) => f.cues.grantsAccess);
    const shared = fields.find((f) => f.freeText && f.cues.sharedContent);
    if (grant)
      add(
        "network_or_shares",
        `input "${grant.key}" gives people or groups access: who can read may widen`,
        SCHEMA - 0.05,
      );
    else if (shared)
      add("network_or_shares", `input "${shared.key}" is content to share`, SCHEMA - 0.05);
  }
  // Invitations go to the people they name; answering one goes to its organiser.
  const invitees = fields.find((f) => f.words.some((w) => INVITEE_FIELDS.has(w)));
  if (invitees && makes)
    add(
      "network_or_shares",
      `input "${invitees.key}" names people, who are sent the invitation`,
      SCHEMA,
    );
  const answer = [...verbsNow].find((v) => RESPONSE_VERBS.has(v));
  if (answer && name.objects.some((w) => INVITATION_OBJECTS.has(w)))
    add(
      "network_or_shares",
      `"${answer}" answers an invitation: the response is sent to its organiser and attendees`,
      NAME_OBJECT,
    );
  const content = fieldIn(fields, CONTENT_FIELDS, true);
  if (content && classes.has("write"))
    raise("writes", `input "${content.key}" carries content to write`, NAME + 0.05);
  // `visibility`, `confidential`, not a display setting (`messageListVisibility`), a time
  // (`visibilityTimeout`, how long a queued message stays hidden) or a credential (`privateKey`).
  const visibility = fields.find(
    (f) =>
      f.words.some((w) => VISIBILITY_FIELDS.has(w)) &&
      f.words.length <= 2 &&
      !f.words.some((w) => NOT_AUDIENCE.has(w)),
  );
  // Making something confidential from the start narrows; changing it on an existing one can widen.
  const narrowsOnly =
    visibility?.words.includes("confidential") && ![...verbsNow].some((v) => MODIFY_VERBS.has(v));
  if (visibility && classes.has("write") && !narrowsOnly)
    add(
      "network_or_shares",
      `input "${visibility.key}" sets who can see it: what it writes can be published`,
      NAME_OBJECT - 0.05,
    );
  // An input whose choices include a public or shared audience (`boardKind: public | private | share`).
  const audience = fields.find((f) => f.offersPublic);
  if (audience && !visibility && classes.has("write") && !classes.has("destroy"))
    add(
      "network_or_shares",
      `input "${audience.key}" offers a public or shared audience: what it writes can be published`,
      NAME_OBJECT - 0.05,
    );

  // Private data: what a read returns from inside the account the server's credentials reach
  // (issue 32). The public web, a vendor's fixed lists and documentation are not private.
  const kind = kindOf(name.objects);
  // The clock (`get-current-time`) is nobody's data.
  const publicObject =
    name.objects.find((w) => PUBLIC_OBJECTS.has(w)) ??
    (head === "time" ? head : undefined) ??
    // Research (`tavily_research`, `keyword_research`) gathers what public sources say.
    (name.verbs[0]?.verb === "research" ? "research" : undefined) ??
    (url && fetchLike ? url.key : undefined);
  const verdictOnly =
    !textObject && readings.length > 0 && readings.every((r) => VERDICT_VERBS.has(r.verb));
  const onlyReads =
    !writesOrDestroys && !classes.has("network") && !downloadsToFile && !ownState && !verdictOnly;
  const readsSomething =
    onlyReads &&
    (classes.has("read") ||
      ((classes.has("compute") || readings.length === 0) &&
        (kind !== undefined || textObject !== undefined)) ||
      // A computation over a record the inputs name by id (`board_insights(boardId)`) reads it.
      (readings.some((r) => r.verbClass === "compute" && !r.session) && idWords.size > 0));
  // The output schema says what comes back: a `password` or `email` field is private whatever the name.
  const privateOut = schemaFields(input.outputSchema).find((f) => privateField(f));
  if (privateOut)
    add("reads_private_data", `its output schema returns "${privateOut.key}"`, SCHEMA);
  if (readsSomething && publicObject)
    notes.push(
      `reads ${publicObject === url?.key ? `the address in input "${publicObject}"` : `"${publicObject}"`}: public or the vendor's own data, so reads_private_data is not suggested`,
    );
  else if (readsSomething && cues.searchesWeb)
    notes.push(
      "the description says it searches the web: it returns the public web, so reads_private_data is not suggested",
    );
  else if (readsSomething && cues.publicCatalogue)
    notes.push(
      "the description says it reads a public store, marketplace or registry: what anyone can read, so reads_private_data is not suggested",
    );
  else if (readsSomething && cues.unauthenticated)
    notes.push(
      "the description says it needs no authentication: it reaches only what anyone can read, so reads_private_data is not suggested",
    );
  else if (readsSomething)
    add(
      "reads_private_data",
      kind
        ? `it returns ${kind.says}`
        : "it returns records from inside the account the server's credentials reach (private in a typical deployment)",
      kind ? NAME_OBJECT : NAME_OBJECT - 0.05,
    );
  if (readings.length === 0) {
    const returnWord = cues.returnWord;
    if (textObject)
      add(
        "returns_untrusted_text",
        `the name has no known verb, and its object "${textObject}" is text others can write`,
        WEAK,
      );
    else if (returnWord && !namesOnly)
      add(
        "returns_untrusted_text",
        `the name has no known verb; the description says "${returnWord}": assumed to return text`,
        WEAK,
      );
    else
      notes.push(
        "the name has no known verb and nothing says it returns text, so returns_untrusted_text is not suggested",
      );
  }

  // The output schema lists what comes back; when every field is an id, a name, a number or a
  // choice (`{ databases: [{ name, size }] }`), no one's prose is returned, whatever the name says.
  if (outputText(input.outputSchema) === "names" && roles.delete("returns_untrusted_text"))
    notes.push(
      "its output schema returns only ids, names, numbers and fixed choices, no text anyone wrote, so returns_untrusted_text is not suggested",
    );

  // `aggregate` → `{ documents: [ {} ] }`: an output field named for what people write that holds
  // anything (items of no declared shape, or prose) says the tool returns that text; not after a
  // write or send named by the name's verb, whose output echoes what it wrote.
  const returnedText = outputTextField(input.outputSchema);
  if (
    returnedText &&
    !roles.has("returns_untrusted_text") &&
    !readings.some((r) => r.fromName && (r.verbClass === "write" || r.verbClass === "network"))
  )
    add(
      "returns_untrusted_text",
      `its output schema returns "${returnedText}", which holds whatever was stored: text others can write`,
      SCHEMA - 0.05,
    );

  // `watch_card(subscribed)`: a switch of the caller's subscription, not a filter of a listing
  // (`list_projects(starred)`); the call changes the subscription and returns no records.
  const subscription = fields.find(
    (f) => !f.freeText && f.words.some((w) => SUBSCRIPTION_FIELDS.has(w)),
  );
  if (
    subscription &&
    !writesOrDestroys &&
    classes.has("read") &&
    readings.every((r) => !LISTING_VERBS.has(r.verb))
  ) {
    add(
      "writes",
      `input "${subscription.key}" switches a subscription on or off, which the service keeps`,
      SCHEMA - 0.1,
    );
    for (const role of ["returns_untrusted_text", "reads_private_data"] as const)
      if (roles.get(role)?.reasons.every((r) => !r.startsWith("its output schema")))
        roles.delete(role);
    notes.push(
      `input "${subscription.key}" makes it a subscription switch: it returns no records, so neither returns_untrusted_text nor reads_private_data is suggested`,
    );
  }

  // Where a write reaches and what it runs (network edges, code to build, schedules, SQL, queues):
  // lib/roles/reach.ts.
  for (const finding of reachFindings({
    objects: name.objects,
    head,
    verbs: verbsNow,
    writes: writesOrDestroys || roles.has("writes"),
    descriptionVerb:
      readings.length === 1 && !readings[0]!.fromName ? readings[0]!.verb : undefined,
    fields,
    cues: reach,
  })) {
    if (finding.kind === "add") {
      add(finding.role, finding.reason, finding.confidence);
      unsayWithheld(finding.role);
    } else {
      const draft = roles.get(finding.role);
      const unless = finding.unlessReason;
      const only = finding.onlyReason;
      const own = draft?.reasons.filter((r) => !/Hint/.test(r)) ?? [];
      if (
        draft &&
        !(unless && draft.reasons.some((r) => unless.test(r))) &&
        !(only && !own.every((r) => only.test(r)))
      ) {
        roles.delete(finding.role);
        notes.push(finding.note);
      }
    }
  }

  // The annotations, as claims weighed against the name.
  const { readOnlyHint, destructiveHint, openWorldHint } = annotations;
  const sinkRolesNow = () => SINK_ROLES.filter((r) => roles.has(r));
  const conflict = (hint: Conflict["hint"], claimed: boolean, kept: string) => {
    conflicts.push({
      hint,
      claimed,
      nameReading,
      message: `${hint}: ${claimed} is claimed, but ${nameReading}; the safer reading is kept (${kept})`,
    });
  };
  let notSink = lead
    ? lead.fromName
      ? lead.verbClass === "read"
        ? NAME
        : NAME_OBJECT
      : DESCRIPTION
    : WEAK;
  const readingSinks = sinkRolesNow();
  // Ending session state does modify, and destroy, something: the server's own. Claims saying so agree.
  const session = lead?.session === true;

  if (readOnlyHint.origin === "declared") {
    if (readOnlyHint.value && readingSinks.length > 0) {
      conflict("readOnlyHint", true, readingSinks.join(", "));
      for (const role of readingSinks) {
        raise(
          role,
          `readOnlyHint: true is claimed, which contradicts the name: the safer reading is kept`,
          0,
        );
        cap(role, CONFLICTED);
      }
    } else if (readOnlyHint.value) {
      notSink = lead ? STRONG : NAME_OBJECT - 0.05;
      raise("returns_untrusted_text", `readOnlyHint: true (declared)${lead ? " agrees" : ""}`, 0);
    } else if (readingSinks.length > 0) {
      for (const role of readingSinks)
        raise(
          role,
          "readOnlyHint: false (declared) agrees: the tool may modify its environment",
          STRONG,
        );
    } else if (session) {
      notes.push(`readOnlyHint: false (declared) agrees: ${nameReading}`);
    } else if (lead) {
      conflict("readOnlyHint", false, "writes");
      add(
        "writes",
        `readOnlyHint: false is claimed: the tool may modify its environment, which contradicts the name; the safer reading is kept`,
        CONFLICTED,
      );
    } else {
      add(
        "writes",
        "readOnlyHint: false (declared): the tool may modify its environment",
        CONFLICTED,
      );
    }
  } else if (readingSinks.length === 0) {
    if (lead) {
      notSink = Math.min(notSink, 0.7);
      notes.push(
        `readOnlyHint unannotated: the spec assumes the worst, but ${nameReading}, so no sink role is suggested`,
      );
    } else {
      add(
        "writes",
        "unannotated: the spec assumes the worst (readOnlyHint defaults to false), and the name has no known verb",
        SPEC_DEFAULT_ONLY,
      );
    }
  } else {
    for (const role of readingSinks)
      raise(role, "readOnlyHint unannotated: the spec assumes the worst, as the name does", 0);
  }

  const readOnlyClaimed = readOnlyHint.origin === "declared" && readOnlyHint.value;
  if (destructiveHint.origin === "declared") {
    if (destructiveHint.value && !classes.has("destroy")) {
      if (session) {
        notes.push(`destructiveHint: true (declared) agrees: ${nameReading}`);
      } else if (lead && !writesOrDestroys && !classes.has("network")) {
        conflict("destructiveHint", true, "deploys_or_destroys");
        add(
          "deploys_or_destroys",
          "destructiveHint: true is claimed, which contradicts the name; the safer reading is kept",
          CONFLICTED,
        );
      } else if (!lead && !readOnlyClaimed) {
        add(
          "deploys_or_destroys",
          "destructiveHint: true (declared): the tool may destroy",
          CONFLICTED,
        );
      } else if (roles.has("writes")) {
        raise(
          "writes",
          "destructiveHint: true (declared): its updates may overwrite or destroy",
          0,
        );
      }
    } else if (destructiveHint.value) {
      raise("deploys_or_destroys", "destructiveHint: true (declared) agrees", STRONG);
    } else if (classes.has("destroy") && name.verbs.some((v) => v.verbClass === "destroy")) {
      conflict("destructiveHint", false, "deploys_or_destroys");
      raise(
        "deploys_or_destroys",
        "destructiveHint: false is claimed, which contradicts the name; the safer reading is kept",
        0,
      );
      cap("deploys_or_destroys", CONFLICTED);
    }
  }
  if (openWorldHint.origin === "declared") {
    if (!openWorldHint.value && roles.has("network_or_shares")) {
      conflict("openWorldHint", false, "network_or_shares");
      raise(
        "network_or_shares",
        "openWorldHint: false is claimed, which contradicts the name or inputs; the safer reading is kept",
        0,
      );
      cap("network_or_shares", CONFLICTED);
    } else if (openWorldHint.value) {
      raise(
        "returns_untrusted_text",
        "openWorldHint: true (declared): it interacts with external entities",
        0,
      );
    }
  }
  if (
    readOnlyHint.origin === "spec_default" &&
    destructiveHint.origin === "spec_default" &&
    openWorldHint.origin === "spec_default" &&
    annotations.idempotentHint.origin === "spec_default"
  ) {
    notes.push("unannotated: the spec assumes the worst");
    for (const draft of roles.values())
      draft.confidence = Math.max(SPEC_DEFAULT_ONLY, draft.confidence - 0.05);
  }

  return {
    roles,
    annotations,
    verb: name.verbs[0]?.verb ?? null,
    conflicts,
    notSinkConfidence: SINK_ROLES.some((r) => roles.has(r)) ? null : notSink,
    notes,
  };
}

/**
 * The words that can change a reading. Any other word of a name reads like any other (`get_thing_7`
 * reads as `get_thing_8`), which is what lets one inference serve many tools.
 */
const SIGNIFICANT: ReadonlySet<string> = new Set([
  ...QUALIFIERS,
  ...PICTURE_OBJECTS,
  ...TAG_WORDS,
  ...CHART_WORDS,
  ...FIGURE_WORDS,
  ...GENERIC_HEADS,
  ...BODY_HEADS,
  ...ALLOWED_WORDS,
  ...GENERATION_WORDS,
  ...DESCRIBED_NAMES,
  "protected",
  "total",
  ...PEOPLE_OBJECTS,
  ...VAULT_ITEMS,
  ...CONTENT_READS,
  ...STATUS_WORDS,
  ...ACCOUNT_OBJECTS,
  ...MAIL_OBJECTS,
  ...OWN_OUTBOUND,
  ...LIST_COMPOUNDS,
  ...DIRECTION_LEADS,
  ...VERB_CLASS.keys(),
  ...AGENT_NOUNS.keys(),
  ...NOUN_LIKE,
  ...NAME_PREFIXES,
  ...CONJUNCTIONS,
  ...QUERY_NOUNS,
  ...OUTBOUND_NOUNS,
  ...DEPLOY_NOUNS,
  ...SECRET_NOUNS,
  ...CODE_WORDS,
  ...WEB_OBJECTS,
  ...HTTP_METHODS,
  ...SESSION_VERBS,
  ...SESSION_OBJECTS,
  ...TEXT_OBJECTS,
  ...NAME_LIST_OBJECTS,
  ...INFRA_OBJECTS,
  ...DNS_QUALIFIERS,
  "record",
  "records",
  ...PUBLIC_OBJECTS,
  ...PRIVATE_KINDS.flatMap((k) => [...k.words]),
  ...FILLER,
  ...KEY_QUALIFIERS,
  ...MINT_VERBS,
  ...VENDOR_TEXT,
  ...METADATA_TAILS,
  "draft",
  "drafts",
  ...SHARE_LINK_KINDS,
  "link",
  "links",
  "fork",
  "upload",
  ...CALLBACK_WORDS,
  ...RUN_NOUNS,
  ...MERGE_TARGETS,
  ...ACCESS_OBJECTS,
  ...NARROWING_VERBS,
  ...PAGE_OBJECTS,
  ...OWN_STATE_OBJECTS,
  ...VERDICT_VERBS,
  ...START_VERBS,
  ...CHAT_MADE,
  ...RESPONSE_VERBS,
  ...INVITATION_OBJECTS,
  ...REACH_WORDS,
  ...RUNNABLE_OBJECTS,
  ...REVISION_WORDS,
  ...VALUE_WORDS,
  ...LABEL_WORDS,
  ...REVISED_PROSE,
  // Issue 32, twelfth round.
  ...DNS_HEADS,
  ...ROLLOUT_HEADS,
  ...PUSHED_TO_PEOPLE,
  ...TRACKER_THREAD_OWNERS,
  ...FILE_TEXT,
]);
const ANY_WORD = "wrd";
const SERVER_WORD = "srvname";

/** Inferences already made in one analysis, by what they depend on (see `inferRolesShared`). */
export type InferenceMemo = Map<string, Inference>;

/**
 * `inferRoles`, shared through `memo` between tools that read alike: the same significant words in
 * the same places, the same annotations, the same input fields, and (only for a name with no known
 * verb, the one case it is read) the same description. The result is shared: do not mutate it.
 */
export function inferRolesShared(input: InferInput, memo: InferenceMemo): Inference {
  const server = input.serverWords ?? [];
  let skeleton = "";
  let hasVerb = false;
  for (const w of nameWords(input.name)) {
    if (VERB_CLASS.has(w) || AGENT_NOUNS.has(w)) hasVerb = true;
    skeleton += `${SIGNIFICANT.has(w) ? w : /^\d+$/.test(w) ? "0" : server.includes(w) ? SERVER_WORD : ANY_WORD} `;
  }
  const read = toolCues(input);
  const { fields } = read;
  // JSON of the parts, each in its own place, so that no text a server writes (a description, a
  // field's key, an enum choice) can make two tools' keys equal by containing what separates them.
  const privateOutputs: string[] = [];
  for (const f of schemaFields(input.outputSchema)) if (privateField(f)) privateOutputs.push(f.key);
  const listing = listingChoice(input.inputSchema);
  const operations =
    fields.length > 0
      ? [...offeredOperations(input.inputSchema), ...modeOperations(input.inputSchema)]
      : [];
  const key = JSON.stringify([
    input.annotationCombination,
    skeleton,
    hasVerb ? "" : (input.description ?? ""),
    fields.map((f) => [
      f.key,
      f.freeText,
      f.offersPublic,
      f.record,
      f.opaque,
      f.cues,
      expandedText(f) ?? "",
      // Its enum choices that trash or merge (the eighth round's schema cues, issue 32).
      f.choices.some((c) => TRASH_FIELDS.has(c.toLowerCase())),
      f.choices.some((c) => MERGE_CHOICES.has(c.toLowerCase())),
    ]),
    privateOutputs,
    outputText(input.outputSchema) ?? "",
    outputTextField(input.outputSchema) ?? "",
    // Every cue the rules read from the description, the fields and the schema, whole: a cue added
    // to `descriptionCues`, `sinkCues`, `fieldCues` or reach.ts's `reachCues` is in the key by
    // construction, so two tools that differ in it never share an inference.
    read.cues,
    read.sink,
    read.reach,
    listing ? [listing.key, listing.value] : null,
    // The eighth round's deep repository field (issue 32).
    sourceRepositoryField(input.inputSchema) ?? "",
    operations.map((o) => [o.field, o.value, o.branch]),
  ]);
  const known = memo.get(key);
  if (known) return known;
  const made = inferFrom({ ...input, name: skeleton, serverWords: [...server, SERVER_WORD] }, read);
  memo.set(key, made);
  return made;
}
