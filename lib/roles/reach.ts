/**
 * Where a write reaches and what it runs, read from general vocabulary and schema shape (issue 32,
 * fifth round): the network edges a tool opens (routes, DNS records, custom domains, peerings,
 * inbound and outbound rules), code it builds and deploys (a Git repository, a Dockerfile or an
 * image named anywhere in its input; a script's content; a build), schedules that run code (CRON),
 * SQL it executes, and messages that stay on the account's own queue. Each rule is a reason (or,
 * where it withholds a role, a note) on the suggestion; none names a tool or a server.
 */
import type { ToolRole } from "@/lib/review/schema";
import { nameWords } from "./name";

/** What `inferRoles` has read so far, as far as these rules need it. */
export type ReachInput = {
  /** The name's objects (the words after its verbs, prefixes and server words removed). */
  objects: readonly string[];
  /** The name's head noun, if any. */
  head: string | undefined;
  verbs: ReadonlySet<string>;
  /** A write or destroy verb was read. */
  writes: boolean;
  /** The only verb was read from the description (the name has none). */
  descriptionVerb: string | undefined;
  description: string | undefined;
  fields: readonly ReachField[];
  inputSchema: unknown;
};
export type ReachField = { key: string; words: string[]; freeText: boolean; description: string };

export type ReachFinding =
  | { kind: "add"; role: ToolRole; reason: string; confidence: number }
  | {
      kind: "withhold";
      role: ToolRole;
      note: string;
      /** Keep the role when one of its reasons matches this. */
      unlessReason?: RegExp;
      /** Withhold only when every reason (annotations aside) matches this. */
      onlyReason?: RegExp;
    };

/** Verbs that take something away or narrow it: none of them opens a path or deploys. */
const TAKING_VERBS = new Set([
  "delete",
  "remove",
  "unassign",
  "release",
  "detach",
  "disable",
  "revoke",
  "purge",
  "destroy",
  "drop",
  "deny",
  "block",
]);

/** Objects that are network edges: making or changing one points traffic somewhere or opens a path. */
const EDGE_OBJECTS = new Set(["route", "routes", "peering", "peerings", "dns"]);
/** Pairs of words naming an edge: a domain's records (DNS), a custom domain served by the account. */
const EDGE_PAIRS: readonly (readonly [string, ReadonlySet<string>])[] = [
  ["domain", new Set(["record", "records"])],
  ["custom", new Set(["domain", "domains", "hostname", "hostnames"])],
  // A database user is a login: making one lets whoever holds it connect.
  ["db", new Set(["user", "users"])],
  ["database", new Set(["user", "users"])],
];
/** What restricts who can connect: a firewall. */
const GUARD_OBJECTS = new Set(["firewall", "firewalls"]);
/** An address input described as where the tool goes (`url: "URL to navigate to in the new tab"`). */
const OPENED_ADDRESS = /\b(?:navigate|navigates|visit|visits)\b/i;
const ADDRESS_WORDS = new Set(["url", "uri", "href", "link"]);
/** Names that resolve to an address. */
const NAME_OBJECTS = new Set(["domain", "domains", "hostname", "hostnames"]);
/** Input words for rules that let traffic in or out (`InboundRules`, `OutboundDestination`, `ForwardingRules`). */
const PATH_RULE_WORDS = new Set(["inbound", "outbound", "ingress", "egress", "forwarding"]);

/** Input keys (at any depth) that name code to build: a Git clone address, a Dockerfile. */
const BUILD_SOURCE = (words: readonly string[]) =>
  words.includes("dockerfile") ||
  (words.includes("clone") && words.some((w) => w === "repo" || w === "repository" || w === "git"));

/** Inputs that carry a program's text (`script: "The Worker script content"`). */
const SCRIPT_WORDS = new Set(["script", "code"]);
const CARRIES_CONTENT = /\b(?:content|contents|source code|body)\b/i;

/** Objects that run when made: a build runs the project's build steps. */
const BUILD_OBJECTS = new Set(["build", "builds"]);
/** Inputs naming what a deployment puts live (`BuildSid`, `image`, `version_id`). */
const DEPLOYED_THINGS = new Set(["build", "image", "version", "artifact", "bundle"]);
const DEPLOYMENT_OBJECTS = new Set(["deployment", "deployments"]);

/** Schedules that run code on a clock. */
const SCHEDULE_WORDS = new Set(["cron"]);

/** SQL given as input runs with whatever the statement says, unless the input is read-only SQL. */
const WRITABLE_SQL = (description: string) =>
  /\bSQL\b/.test(description) && !/\bread-?only\b/i.test(description);
const QUERY_FIELD_WORDS = new Set(["query", "sql", "statement", "statements"]);

/** Queues: a message put on one is read by the account's own consumers. */
const QUEUE_OBJECTS = new Set(["queue", "queues"]);

/** What `publish` makes live inside the account for its own use, not for an audience. */
const OWN_LIVE_OBJECTS = new Set([
  "draft",
  "drafts",
  "template",
  "templates",
  "workflow",
  "workflows",
]);
/** What runs once it is live. */
const RUNS_WHEN_LIVE = new Set(["workflow", "workflows", "automation", "automations"]);
/** Records of a deployment made elsewhere carry its status. */
const STATUS_FIELD = (f: ReachField) => f.words.length === 1 && f.words[0] === "status";
/** Verbs that record or change a record, as opposed to approving or running it. */
const RECORDING_VERBS = new Set(["create", "update", "edit", "set", "record", "add"]);
/** Credentials: a `permission` input on one sets what the credential may do, not who sees it. */
const CREDENTIAL_OBJECTS = new Set(["key", "keys", "token", "tokens"]);
/** Input words naming a space's kind or privacy: `open` among their choices lets anyone in the account join. */
const KIND_WORDS = new Set(["kind", "privacy"]);

/** Bringing a running thing back (or holding it): it goes offline or online for everyone using it. */
const LIFECYCLE_VERBS = new Set(["restore", "resume", "pause", "suspend", "unpause"]);
const RUNNING_THINGS = new Set([
  "project",
  "projects",
  "cluster",
  "clusters",
  "server",
  "servers",
  "app",
  "apps",
  "instance",
  "instances",
  "database",
  "databases",
]);
/** Changes one call does not undo: a finalized invoice can no longer be edited; a rebase rewrites history. */
const FINAL_CHANGES: readonly (readonly [string, ReadonlySet<string>])[] = [
  ["finalize", new Set(["invoice", "invoices"])],
  ["rebase", new Set(["branch", "branches"])],
];

/** A description that opens with running a model computes a result: nothing is deployed or kept. */
const RUNS_A_MODEL = /^\s*run\s+(?:an?\s+)?(?:inference|prediction|predictions|model)\b/i;

/** The words these rules read, so that names sharing an inference keep them (`inferRolesShared`). */
export const REACH_WORDS: readonly string[] = [
  ...TAKING_VERBS,
  ...EDGE_OBJECTS,
  ...EDGE_PAIRS.flatMap(([a, b]) => [a, ...b]),
  ...BUILD_OBJECTS,
  ...DEPLOYMENT_OBJECTS,
  ...SCHEDULE_WORDS,
  ...QUEUE_OBJECTS,
  "publish",
  ...LIFECYCLE_VERBS,
  ...NAME_OBJECTS,
  ...GUARD_OBJECTS,
  "rule",
  "rules",
  "assign",
  ...RUNNING_THINGS,
  ...FINAL_CHANGES.flatMap(([v, o]) => [v, ...o]),
  ...OWN_LIVE_OBJECTS,
  ...RUNS_WHEN_LIVE,
  ...CREDENTIAL_OBJECTS,
];

/** Raw keys worth splitting into words: only these can name code to build or an outside audience. */
const DEEP_KEY_HINT = /dockerfile|clone|external/i;

/**
 * What keys at any depth of an input schema (through objects, list items and unions, at most 500
 * keys) say: code to build, an audience outside the organisation. Computed once per schema object
 * and kept, since the shared-inference key and the rules both ask.
 */
type DeepFlags = { buildSource: boolean; externalAudience: boolean };
const deepFlagsOf = new WeakMap<object, DeepFlags>();
function deepFlags(schema: unknown): DeepFlags {
  if (!schema || typeof schema !== "object") return { buildSource: false, externalAudience: false };
  const known = deepFlagsOf.get(schema);
  if (known) return known;
  const flags: DeepFlags = { buildSource: false, externalAudience: false };
  let seen = 0;
  const walk = (node: unknown, depth: number) => {
    if (seen >= 500 || depth > 8 || !node || typeof node !== "object") return;
    const n = node as Record<string, unknown>;
    const props = n.properties;
    if (props && typeof props === "object")
      for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
        if (++seen > 500) return;
        if (DEEP_KEY_HINT.test(key)) {
          const words = nameWords(key);
          if (BUILD_SOURCE(words)) flags.buildSource = true;
          if (EXTERNAL_AUDIENCE(words)) flags.externalAudience = true;
        }
        walk(value, depth + 1);
      }
    if (n.items) walk(n.items, depth + 1);
    for (const k of ["anyOf", "oneOf", "allOf"] as const)
      if (Array.isArray(n[k])) for (const b of (n[k] as unknown[]).slice(0, 50)) walk(b, depth + 1);
  };
  walk(schema, 0);
  deepFlagsOf.set(schema, flags);
  return flags;
}

/** Whether some key at any depth names code to build (`spec.services[].git.repo_clone_url`). */
export function namesBuildSource(schema: unknown): boolean {
  return deepFlags(schema).buildSource;
}

/** A top-level input naming a kind or privacy whose choices include `open` beside `closed`. */
function openKind(schema: unknown): string | undefined {
  const props = (schema as { properties?: Record<string, unknown> } | null)?.properties;
  if (!props || typeof props !== "object") return undefined;
  for (const [key, value] of Object.entries(props).slice(0, 200)) {
    const choices = (value as { enum?: unknown } | null)?.enum;
    if (!Array.isArray(choices)) continue;
    const lower = choices.slice(0, 100).map((c) => (typeof c === "string" ? c.toLowerCase() : ""));
    if (
      nameWords(key).some((w) => KIND_WORDS.has(w)) &&
      lower.includes("open") &&
      lower.includes("closed")
    )
      return key;
  }
  return undefined;
}

/** Some key at any depth names an audience outside the organisation (`automaticRepliesSetting.externalAudience`). */
const EXTERNAL_AUDIENCE = (words: readonly string[]) =>
  words.includes("external") &&
  words.some((w) => w === "audience" || w === "recipients" || w === "sharing");

/** Schema flags these rules read, for the shared-inference key. */
export function reachSchemaFlags(schema: unknown): string {
  const deep = deepFlags(schema);
  return `${deep.buildSource ? "g" : ""}${deep.externalAudience ? "x" : ""}${openKind(schema) ?? ""}`;
}

/** Field flags these rules read from descriptions, for the shared-inference key. */
export function reachFieldFlags(f: ReachField): string {
  return `${f.freeText && OPENED_ADDRESS.test(f.description) ? "n" : ""}${f.freeText && CARRIES_CONTENT.test(f.description) ? "c" : ""}${WRITABLE_SQL(f.description) ? "q" : ""}`;
}
/** Description flags these rules read, for the shared-inference key. */
export function reachDescriptionFlags(description: string | undefined): string {
  return RUNS_A_MODEL.test(description ?? "") ? "m" : "";
}

export function reachFindings(input: ReachInput): ReachFinding[] {
  const out: ReachFinding[] = [];
  const { objects, verbs, fields } = input;
  const takes = [...verbs].some((v) => TAKING_VERBS.has(v));
  const opens = input.writes && !takes;

  // Network edges: a route, a DNS record, a custom domain or a peering that is made or changed
  // sends a hostname's traffic (and its visitors' data) where the caller says, or joins networks.
  const edge =
    objects.find((w) => EDGE_OBJECTS.has(w)) ??
    EDGE_PAIRS.flatMap(([a, bs]) => {
      const i = objects.indexOf(a);
      return i >= 0 && i + 1 < objects.length && bs.has(objects[i + 1]!)
        ? [`${a} ${objects[i + 1]}`]
        : [];
    })[0];
  if (edge && opens)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason:
        edge.endsWith("user") || edge.endsWith("users")
          ? `it makes or changes a ${edge}: a login that lets whoever holds it connect`
          : `it makes or changes a ${edge}, which decides where traffic goes or which networks reach each other`,
      confidence: 0.7,
    });
  // A domain or hostname made with an IP address points that name at the address the caller gives.
  const named = objects.find((w) => NAME_OBJECTS.has(w));
  const address = fields.find((f) => f.freeText && f.words.includes("ip"));
  if (named && address && opens && !edge)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `it points the ${named} at the address in input "${address.key}": visitors go where the caller says`,
      confidence: 0.65,
    });
  // A firewall allows what it lists and blocks the rest: deleting one, or taking machines out of
  // it, lifts its restrictions on them (removing its rules narrows instead).
  const guard = objects.find((w) => GUARD_OBJECTS.has(w));
  if (guard && takes && !objects.some((w) => w === "rule" || w === "rules"))
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `it deletes a ${guard} or takes machines out of it, which lifts its restrictions: who can connect widens`,
      confidence: 0.65,
    });
  // An address the tool navigates to (a new browser tab at any URL) is a request to any host.
  const opened = fields.find(
    (f) =>
      f.freeText && f.words.some((w) => ADDRESS_WORDS.has(w)) && OPENED_ADDRESS.test(f.description),
  );
  if (opened)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `input "${opened.key}" is an address the tool navigates to: a request to any host, which can carry data out`,
      confidence: 0.7,
    });
  const pathRule = fields.find((f) => f.words.some((w) => PATH_RULE_WORDS.has(w)));
  if (pathRule && opens)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `input "${pathRule.key}" sets rules that let traffic in or out: who can connect, or where data can go, may widen`,
      confidence: 0.7,
    });

  // A setting, at any depth, that reaches an audience outside the organisation (automatic
  // replies to external senders, external sharing).
  if (opens && deepFlags(input.inputSchema).externalAudience)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason:
        "its input sets an audience outside the organisation (an external audience or recipients): what it writes reaches people outside",
      confidence: 0.65,
    });

  // A command or an init script the caller writes (`command`, `build_command`, `cloud_init_script`),
  // which the service's machines run with network access.
  const program = fields.find(
    (f) =>
      f.freeText &&
      f.words[0] !== "sub" &&
      (f.words.at(-1) === "command" ||
        f.words.at(-1) === "commands" ||
        (f.words.length >= 2 && f.words.at(-1) === "script")),
  );
  if (program && opens) {
    const reason = `input "${program.key}" is a command or script the caller writes, which the service's machines run with network access`;
    out.push({ kind: "add", role: "deploys_or_destroys", reason, confidence: 0.7 });
    out.push({ kind: "add", role: "network_or_shares", reason, confidence: 0.7 });
  }

  // Code to build and deploy: a Git repository or Dockerfile named anywhere in the input, or a
  // script's content put in place, runs with network access and serves whoever reaches it.
  if (opens && namesBuildSource(input.inputSchema)) {
    const reason =
      "its input names code to build (a Git repository or a Dockerfile), which it deploys to run with network access";
    out.push({ kind: "add", role: "deploys_or_destroys", reason, confidence: 0.7 });
    out.push({ kind: "add", role: "network_or_shares", reason, confidence: 0.7 });
  }
  const script = fields.find(
    (f) =>
      f.freeText &&
      f.words.some((w) => SCRIPT_WORDS.has(w)) &&
      f.words.length <= 2 &&
      CARRIES_CONTENT.test(f.description),
  );
  if (script && opens) {
    const reason = `input "${script.key}" carries a program's content, which the service then runs with network access`;
    out.push({ kind: "add", role: "deploys_or_destroys", reason, confidence: 0.7 });
    out.push({ kind: "add", role: "network_or_shares", reason, confidence: 0.7 });
  }

  // A build runs the project's build steps; a deployment of a named build puts it live.
  if (opens && input.head && BUILD_OBJECTS.has(input.head) && !verbs.has("build"))
    out.push({
      kind: "add",
      role: "deploys_or_destroys",
      reason: `making a ${input.head} runs its build steps (a job)`,
      confidence: 0.7,
    });
  const deployed = fields.find(
    (f) =>
      f.words.length >= 1 &&
      DEPLOYED_THINGS.has(f.words[0]!) &&
      (f.words.length === 1 || ["id", "sid", "ids", "sids"].includes(f.words.at(-1)!)),
  );
  if (opens && deployed && objects.some((w) => DEPLOYMENT_OBJECTS.has(w)))
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `it deploys what input "${deployed.key}" names, to run with network access and serve whoever reaches it`,
      confidence: 0.7,
    });

  // Pausing or restoring a project, cluster, server or app takes it offline or back for everyone.
  const lifecycle = [...verbs].find((v) => LIFECYCLE_VERBS.has(v));
  const running = objects.find((w) => RUNNING_THINGS.has(w));
  if (lifecycle && running)
    for (const role of ["writes", "deploys_or_destroys"] as const)
      out.push({
        kind: "add",
        role,
        reason: `"${lifecycle}" takes the ${running} offline or brings it back, for everyone who uses it`,
        confidence: 0.7,
      });
  // Finality in the product's own terms (the corpus README's "finalizing invoices").
  for (const [verb, finals] of FINAL_CHANGES) {
    const final = objects.find((w) => finals.has(w));
    // Not every such verb is a known one (`finalize_invoice` reads as a name without a verb).
    if ((verbs.has(verb) || objects[0] === verb) && final)
      for (const role of ["writes", "deploys_or_destroys"] as const)
        out.push({
          kind: "add",
          role,
          reason: `"${verb}" on a ${final} is not undone by one call (${verb === "rebase" ? "it rewrites its history" : "it can no longer be edited"})`,
          confidence: 0.7,
        });
  }

  // A CRON schedule runs the code it names on a clock.
  const cron =
    objects.find((w) => SCHEDULE_WORDS.has(w)) ??
    fields.find((f) => f.words.some((w) => SCHEDULE_WORDS.has(w)))?.key;
  if (cron && opens)
    out.push({
      kind: "add",
      role: "deploys_or_destroys",
      reason: `it sets a CRON schedule ("${cron}"), which runs code on a clock`,
      confidence: 0.7,
    });

  // SQL given as input runs as written: it can insert, update, delete and drop (not SQL the
  // input calls read-only, as a log query's).
  const sql = fields.find(
    (f) =>
      f.freeText && f.words.some((w) => QUERY_FIELD_WORDS.has(w)) && WRITABLE_SQL(f.description),
  );
  if (sql)
    for (const role of ["writes", "deploys_or_destroys"] as const)
      out.push({
        kind: "add",
        role,
        reason: `input "${sql.key}" takes SQL, which can insert, update, delete and drop`,
        confidence: 0.75,
      });

  // An open space (`workspaceKind: open | closed`) lets anyone in the account join and read it.
  const kindField = openKind(input.inputSchema);
  if (kindField && opens)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `input "${kindField}" can make it open rather than closed: anyone in the account can join and read it`,
      confidence: 0.7,
    });

  // `publish` of a draft, a template or a workflow makes it live inside the account, for the
  // account's own use: no audience is widened. A workflow or automation that goes live runs.
  const ownLive = objects.find((w) => OWN_LIVE_OBJECTS.has(w));
  if (verbs.has("publish") && ownLive) {
    out.push({
      kind: "withhold",
      role: "network_or_shares",
      note: `"publish" makes the ${ownLive} live inside the account, where the service's access rules still decide who reads it, so network_or_shares is not suggested`,
      unlessReason: /^input "/,
    });
    const runs = objects.find((w) => RUNS_WHEN_LIVE.has(w));
    if (runs)
      out.push({
        kind: "add",
        role: "deploys_or_destroys",
        reason: `"publish" puts the ${runs} live, where it runs on its triggers`,
        confidence: 0.7,
      });
  }

  // A deployment written with its status (`update_deployment(status)`) records one made elsewhere.
  const status = fields.find(STATUS_FIELD);
  if (
    status &&
    objects.some((w) => DEPLOYMENT_OBJECTS.has(w)) &&
    !deployed &&
    [...verbs].every((v) => RECORDING_VERBS.has(v))
  )
    out.push({
      kind: "withhold",
      role: "deploys_or_destroys",
      note: `input "${status.key}" records the status of a deployment made elsewhere; nothing is deployed by the call, so deploys_or_destroys is not suggested`,
      onlyReason: /is a deploy$/,
    });

  // Assigning a member to a record makes them responsible for it; it grants no access.
  if (verbs.has("assign") && objects.some((w) => w === "member" || w === "members"))
    out.push({
      kind: "withhold",
      role: "network_or_shares",
      note: `"assign" makes a member responsible for the record; it grants no access, so network_or_shares is not suggested`,
      onlyReason: /grants or changes/,
    });

  // A credential's `permission` sets what the key may do, not who can see anything.
  const credential = objects.find((w) => CREDENTIAL_OBJECTS.has(w));
  if (credential)
    out.push({
      kind: "withhold",
      role: "network_or_shares",
      note: `its access input sets what the ${credential} may do, not who can see what it writes, so network_or_shares is not suggested`,
      onlyReason: /sets who can see it/,
    });

  // A message put on the account's own queue is read by the account's own consumers.
  const queue = objects.find((w) => QUEUE_OBJECTS.has(w));
  if (queue)
    out.push({
      kind: "withhold",
      role: "network_or_shares",
      note: `it puts messages on a ${queue} of the account, read by the account's own consumers: nothing leaves the service, so network_or_shares is not suggested`,
      unlessReason: /^input "/,
    });

  // "Run inference on a model": the vendor's model computes a result; nothing runs that stays.
  if (input.descriptionVerb === "run" && RUNS_A_MODEL.test(input.description ?? ""))
    for (const role of ["writes", "deploys_or_destroys"] as const)
      out.push({
        kind: "withhold",
        role,
        note: `the description runs a model ("${(input.description ?? "").trim().split(/\s+/).slice(0, 4).join(" ")}…"): it computes a result and keeps nothing, so ${role} is not suggested`,
      });
  return out;
}
