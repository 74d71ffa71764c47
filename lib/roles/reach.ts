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
  fields: readonly ReachField[];
  /**
   * What the rules read from the descriptions, the fields' choices and the input schema
   * (`reachCues`): they see that text only through these cues.
   */
  cues: ReachCues;
};
/** A field as the rules see it: its key (and its words) and its shape, never its description. */
export type ReachField = {
  key: string;
  words: string[];
  freeText: boolean;
  /** A record that declares none of its fields. */
  opaque: boolean;
};
/** A field as `reachCues` reads it. */
export type ReachFieldSource = ReachField & {
  description: string;
  /** The string choices of an enum field (at most 100). */
  choices: readonly string[];
};

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

/**
 * Issue 32, network round. An agent the tool runs that browses: it goes to whatever sites its task
 * leads to (`"…the agent will navigate and interact with web pages"`).
 */
const BROWSING_AGENT = (d: string) =>
  /\b(?:agents?|autonomous|autonomously)\b/i.test(d) &&
  /\b(?:navigat\w*|browser|web ?pages?|websites?)\b/i.test(d);
const PAGE_INTERACTION = /\b(?:interact\w*|click\w*|form submissions?)\b/i;
const TASK_WORDS = new Set(["task", "prompt", "instruction", "instructions", "goal"]);
/**
 * A description that sets up a connection (`"Initialize connection to … instance"`), or says the
 * tool connects (issue 32, twelfth round: "connect Jira using Basic Auth (email + API token)"
 * beside a `baseUrl`: the credentials then go to whatever host the caller names).
 */
const MAKES_CONNECTION =
  /\b(?:initiali[sz]e|establish|open|set up|sets up)\s+(?:a\s+|the\s+)?connection\b|\bconnect(?:s|ing)?\b/i;
const CONNECTED_ADDRESS = new Set(["url", "uri", "host", "hostname", "endpoint"]);
/** A description naming custom domains: a hostname served by the account's service. */
const CUSTOM_DOMAIN = /\bcustom domains?\b/i;
/** "Send a signal" or keys to a process stays on the machine: no person or host receives it. */
const SENDS_TO_PROCESS = /^\s*send\s+(?:an?\s+)?(?:signal|signals|keys?|keystrokes?)\b/i;
/** Things that run steps the caller writes, each of which can call any address. */
const STEP_RUNNERS = new Set([
  "workflow",
  "workflows",
  "automation",
  "automations",
  "flow",
  "flows",
]);
const STEP_KEYS = new Set(["nodes", "steps", "actions", "content", "definition"]);
/** Approving or confirming a request for access, or a member who was invited, grants that access. */
const GRANTS_REQUEST =
  /^\s*(?:approve|confirm)\b[^.]*\b(?:(?:authori[sz]ation|access)\s+requests?|invited)\b/i;
/** Moving or transferring something to an organisation: its members can then read it. */
const MOVES_TO_ORGANISATION =
  /\b(?:move|moves|transfer|transfers)\b[^.]{0,60}\bto\s+(?:an?|the|another)\s+organi[sz]ation\b/i;
/** A password that guards who can open what it protects. */
const ACCESS_PASSWORD = /\baccess password\b/i;
/** An input naming the site every later call goes to ("Base URL of the … site"). */
const BASE_ADDRESS = /^\s*base url\b/i;
/** Content given as a URL (or a data URI) is fetched from wherever the URL points. */
const URL_OR_DATA_URI = /\burl\b[^.]*\bdata uri\b|\bdata uri\b[^.]*\burl\b/i;
const WEBHOOK = /\bwebhooks?\b/i;
/** An embeddable link or URL opens what it points at to whoever holds or embeds it. */
const EMBEDDABLE = /\bembeddable\b/i;
/** Putting a workflow or automation live (or taking it off) starts or stops what runs on its triggers. */
const LIVE_SWITCHES = new Set(["activate", "deactivate"]);
/** Signals that stop a process. */
const STOPPING_SIGNALS = new Set(["kill", "term", "sigkill", "sigterm"]);
/** A browser profile kept between sessions can be logged in to sites. */
const KEPT_PROFILE = /\b(?:persistent|saved|logged[- ]in)\b[^.]{0,40}\bprofiles?\b/i;
/** Verbs that start something, which then runs the command it is given. */
const STARTING_VERBS = new Set(["open", "start", "launch", "spawn"]);
/** Objects whose making gives a person a login. */
const LOGIN_OBJECTS = new Set(["user", "users"]);
const LOGIN_VERBS = new Set(["create", "add", "invite", "import"]);

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
  ...STEP_RUNNERS,
  ...LOGIN_OBJECTS,
  ...LOGIN_VERBS,
  ...STARTING_VERBS,
  ...LIVE_SWITCHES,
];

/** Raw keys worth splitting into words: only these can name code to build or an outside audience. */
const DEEP_KEY_HINT = /dockerfile|clone|external/i;

/**
 * What keys at any depth of an input schema (through objects, list items and unions, at most 500
 * keys) say: code to build, an audience outside the organisation (see `reachCues`). Kept per
 * schema object.
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

/**
 * An operation, one branch of a union of inputs at any depth, that takes an address to navigate to,
 * connect to or call (`action: { type: "connect", url: "The WebSocket URL to connect to" }`).
 */
const BRANCH_ADDRESS = /\b(?:navigat\w*|connect\w*|endpoint)\b/i;
/** An address described as where something is delivered later (a webhook, a callback). */
const CALLBACK_ADDRESS = /\b(?:web-?hooks?|callbacks?|notif\w*|deliver\w*)\b/i;
function branchAddress(schema: unknown): { key: string; callback: boolean } | undefined {
  let found: { key: string; callback: boolean } | undefined;
  let seen = 0;
  const walk = (node: unknown, depth: number, inBranch: boolean) => {
    if (found || seen >= 500 || depth > 6 || !node || typeof node !== "object") return;
    const n = node as Record<string, unknown>;
    const props = n.properties;
    if (props && typeof props === "object")
      for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
        if (++seen > 500 || found) return;
        const v = (value ?? {}) as { type?: unknown; description?: unknown };
        if (
          inBranch &&
          v.type === "string" &&
          typeof v.description === "string" &&
          nameWords(key).some((w) => CONNECTED_ADDRESS.has(w)) &&
          BRANCH_ADDRESS.test(v.description)
        )
          found = { key, callback: CALLBACK_ADDRESS.test(v.description) };
        walk(value, depth + 1, inBranch);
      }
    for (const k of ["anyOf", "oneOf"] as const)
      if (Array.isArray(n[k]))
        for (const b of (n[k] as unknown[]).slice(0, 50)) walk(b, depth + 1, true);
  };
  walk(schema, 0, false);
  return found;
}

/**
 * An input of steps the caller writes that declares none of their fields, at the top level or one
 * level into an object input (`workflow.nodes`).
 */
function opaqueSteps(schema: unknown, depth = 0): string | undefined {
  const props = (schema as { properties?: Record<string, unknown> } | null)?.properties;
  if (!props || typeof props !== "object") return undefined;
  for (const [key, value] of Object.entries(props).slice(0, 200)) {
    const v = (value ?? {}) as { type?: unknown; properties?: unknown; items?: unknown };
    if (depth === 0 && v.type === "object" && v.properties) {
      const inner = opaqueSteps(value, 1);
      if (inner) return `${key}.${inner}`;
    }
    if (!nameWords(key).some((w) => STEP_KEYS.has(w))) continue;
    const items = (v.items ?? {}) as { type?: unknown; properties?: unknown };
    if (v.type === "object" && !v.properties) return key;
    if (
      v.type === "array" &&
      (items.type === "object" || items.type === undefined) &&
      !items.properties
    )
      return key;
  }
  return undefined;
}

/** What the rules read from one field's description and choices (see `ReachCues`). */
export type ReachFieldCues = {
  /** A browser profile kept between sessions. */
  keptProfile: boolean;
  /** A choice is a signal that stops a process. */
  stoppingSignal: boolean;
  accessPassword: boolean;
  /** Free text described as the base URL of a site. */
  baseAddress: boolean;
  /** Free text described as a URL or a data URI. */
  urlOrDataUri: boolean;
  /** Free text described as where the tool navigates. */
  openedAddress: boolean;
  /** Free text described as carrying content. */
  carriesContent: boolean;
  /** Described as SQL, not read-only SQL. */
  writableSql: boolean;
};

/**
 * Everything `reachFindings` reads beyond the name's words and the fields' keys and shapes: the
 * tool's description, each field's description and choices, and the input schema at any depth.
 * Read once per tool; `inferRolesShared` keys its memo by it whole (JSON), so a cue added here is in
 * the key by construction, and the rules cannot read that text but through it.
 */
export type ReachCues = {
  description: {
    /** The description's first four words when it opens with running a model. */
    runsModel: string | null;
    browsingAgent: boolean;
    pageInteraction: boolean;
    makesConnection: boolean;
    customDomain: boolean;
    sendsToProcess: boolean;
    grantsRequest: boolean;
    movesToOrganisation: boolean;
    accessPassword: boolean;
    webhook: boolean;
    embeddable: boolean;
  };
  /** One per field, in the order of the fields. */
  fields: ReachFieldCues[];
  schema: {
    /** Some key at any depth names code to build. */
    buildSource: boolean;
    /** Some key at any depth names an audience outside the organisation. */
    externalAudience: boolean;
    /** The input naming a kind or privacy that can be open (`openKind`). */
    openKind: string | null;
    /** The address input of an operation in a union (`branchAddress`). */
    branchAddress: string | null;
    /** That input is described as where something is delivered later (a webhook, a callback). */
    branchCallback: boolean;
    /** The input of steps of no declared shape (`opaqueSteps`). */
    opaqueSteps: string | null;
  };
};

export function reachCues(
  description: string | undefined,
  fields: readonly ReachFieldSource[],
  inputSchema: unknown,
): ReachCues {
  const d = description ?? "";
  const deep = deepFlags(inputSchema);
  const branch = branchAddress(inputSchema);
  return {
    description: {
      runsModel: RUNS_A_MODEL.test(d) ? d.trim().split(/\s+/).slice(0, 4).join(" ") : null,
      browsingAgent: BROWSING_AGENT(d),
      pageInteraction: PAGE_INTERACTION.test(d),
      makesConnection: MAKES_CONNECTION.test(d),
      customDomain: CUSTOM_DOMAIN.test(d),
      sendsToProcess: SENDS_TO_PROCESS.test(d),
      grantsRequest: GRANTS_REQUEST.test(d),
      movesToOrganisation: MOVES_TO_ORGANISATION.test(d),
      accessPassword: ACCESS_PASSWORD.test(d),
      webhook: WEBHOOK.test(d),
      embeddable: EMBEDDABLE.test(d),
    },
    fields: fields.map((f) => ({
      keptProfile: KEPT_PROFILE.test(f.description),
      stoppingSignal: f.choices.some((c) => STOPPING_SIGNALS.has(c.toLowerCase())),
      accessPassword: ACCESS_PASSWORD.test(f.description),
      baseAddress: f.freeText && BASE_ADDRESS.test(f.description),
      urlOrDataUri: f.freeText && URL_OR_DATA_URI.test(f.description),
      openedAddress: f.freeText && OPENED_ADDRESS.test(f.description),
      carriesContent: f.freeText && CARRIES_CONTENT.test(f.description),
      writableSql: WRITABLE_SQL(f.description),
    })),
    schema: {
      buildSource: deep.buildSource,
      externalAudience: deep.externalAudience,
      openKind: openKind(inputSchema) ?? null,
      branchAddress: branch?.key ?? null,
      branchCallback: branch?.callback ?? false,
      opaqueSteps: opaqueSteps(inputSchema) ?? null,
    },
  };
}

export function reachFindings(input: ReachInput): ReachFinding[] {
  const out: ReachFinding[] = [];
  const { objects, verbs, fields } = input;
  const { description: said, schema } = input.cues;
  /** Each field's cues, by the field's index. */
  const fc = input.cues.fields;
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
    })[0] ??
    // A domain the description calls custom (`manage_domains`: "Manage custom domains for a
    // service") is a hostname the account serves (issue 32, network round).
    (objects.some((w) => w === "domain" || w === "domains") && said.customDomain
      ? "custom domain"
      : undefined);
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
    (f, i) => f.freeText && f.words.some((w) => ADDRESS_WORDS.has(w)) && fc[i]!.openedAddress,
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
  if (opens && schema.externalAudience)
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
  // Opening or starting a session or process with a command runs it too (`open_session(command)`).
  const starts = [...verbs].find((v) => STARTING_VERBS.has(v));
  if (program && (opens || starts)) {
    const reason = `input "${program.key}" is a command or script the caller writes, which the service's machines run with network access`;
    if (!opens)
      out.push({
        kind: "add",
        role: "writes",
        reason: `"${starts}" with input "${program.key}" starts the command the caller writes, which can change what the machine keeps`,
        confidence: 0.7,
      });
    out.push({ kind: "add", role: "deploys_or_destroys", reason, confidence: 0.7 });
    out.push({ kind: "add", role: "network_or_shares", reason, confidence: 0.7 });
  }

  // Code to build and deploy: a Git repository or Dockerfile named anywhere in the input, or a
  // script's content put in place, runs with network access and serves whoever reaches it.
  if (opens && schema.buildSource) {
    const reason =
      "its input names code to build (a Git repository or a Dockerfile), which it deploys to run with network access";
    out.push({ kind: "add", role: "deploys_or_destroys", reason, confidence: 0.7 });
    out.push({ kind: "add", role: "network_or_shares", reason, confidence: 0.7 });
  }
  const script = fields.find(
    (f, i) =>
      f.freeText &&
      f.words.some((w) => SCRIPT_WORDS.has(w)) &&
      f.words.length <= 2 &&
      fc[i]!.carriesContent,
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
    (f, i) => f.freeText && f.words.some((w) => QUERY_FIELD_WORDS.has(w)) && fc[i]!.writableSql,
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
  const kindField = schema.openKind;
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
  const model = said.runsModel;
  if (input.descriptionVerb === "run" && model !== null)
    for (const role of ["writes", "deploys_or_destroys"] as const)
      out.push({
        kind: "withhold",
        role,
        note: `the description runs a model ("${model}…"): it computes a result and keeps nothing, so ${role} is not suggested`,
      });

  // Issue 32, network round: sends, connections and steps that reach any address.
  // An agent that browses for a task the caller writes goes to whatever sites the task leads to.
  const task = fields.find((f) => f.freeText && f.words.some((w) => TASK_WORDS.has(w)));
  if (task && said.browsingAgent) {
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `the description runs an agent that browses the web for the task in input "${task.key}": it goes to any site the task leads to, which can carry data out`,
      confidence: 0.7,
    });
    // Issue 32, tenth round: what such an agent reports is what it read on those sites (a page's
    // text, a post's comments), written by their owners and users, not by the caller.
    out.push({
      kind: "add",
      role: "returns_untrusted_text",
      reason: `the description runs an agent that browses the web for the task in input "${task.key}": it reports what it read on the sites it visits, text their owners and users wrote`,
      confidence: 0.65,
    });
    // One that interacts with the pages (clicks, fills and submits forms) can change what sites keep.
    if (said.pageInteraction)
      out.push({
        kind: "add",
        role: "writes",
        reason: `the description's agent interacts with the pages it visits (clicks, forms), which can submit to the sites`,
        confidence: 0.65,
      });
  }
  // A connection set up to the address the caller gives (`init(url, apiKey)`).
  const connectedTo = fields.find(
    (f) => f.freeText && f.words.some((w) => CONNECTED_ADDRESS.has(w)),
  );
  if (connectedTo && said.makesConnection)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `it sets up a connection to the address in input "${connectedTo.key}": any host the caller chooses`,
      confidence: 0.7,
    });
  // One of its operations navigates to, connects to or calls an address the caller gives.
  const branch = schema.branchAddress;
  if (branch && !opened)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `one of its operations takes an address to navigate to, connect to or call (input "${branch}"): a request to any host`,
      confidence: 0.7,
    });
  // Issue 32, tenth round: what comes back from such an operation is that host's answer (a page, a
  // query's result, a socket's messages), written by whoever runs the host, as an HTTP verb's is;
  // not where the address is one the service delivers to later (a webhook's answer never comes back).
  if (branch && !schema.branchCallback)
    out.push({
      kind: "add",
      role: "returns_untrusted_text",
      reason: `one of its operations takes an address to navigate to, connect to or call (input "${branch}"): what comes back is that host's answer, written by whoever runs it`,
      confidence: 0.65,
    });
  // A workflow or automation written from steps of no declared shape: each step can call any
  // address (an HTTP request, a webhook) once it runs.
  const runner = objects.find((w) => STEP_RUNNERS.has(w));
  const steps = schema.opaqueSteps;
  if (runner && steps && opens)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `it writes the ${runner}'s steps from input "${steps}", which declares none of their fields: a step can call any address when the ${runner} runs`,
      confidence: 0.65,
    });
  // Making a user gives a person (by the email given) a login.
  const login = objects.find((w) => LOGIN_OBJECTS.has(w));
  const makesLogin = [...verbs].some((v) => LOGIN_VERBS.has(v));
  if (login && makesLogin && !takes)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `it makes ${login === "user" ? "a user" : "users"}: a person gets a login and what it reaches`,
      confidence: 0.65,
    });
  // Approving a pending request for access (a device's, a member's who was invited) grants it.
  if (said.grantsRequest)
    for (const role of ["writes", "network_or_shares"] as const)
      out.push({
        kind: "add",
        role,
        reason: `the description approves or confirms a request for access: whoever asked now reads what it guards`,
        confidence: 0.65,
      });
  // Moving something to an organisation puts it where the organisation's members read it.
  if (input.writes && said.movesToOrganisation)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `the description moves it to an organisation, whose members can then read it`,
      confidence: 0.65,
    });
  // Setting or removing the password that guards who can open it changes that audience.
  const password =
    (said.accessPassword ? "the description" : undefined) ??
    fields.find((_, i) => fc[i]!.accessPassword)?.key;
  if (password && input.writes)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `${password === "the description" ? "the description" : `input "${password}"`} sets or removes an access password: who can open it changes (without one, anyone with its link)`,
      confidence: 0.65,
    });
  // The base address of a site that the tool then talks to.
  const base = fields.find((_, i) => fc[i]!.baseAddress);
  if (base)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `input "${base.key}" is the base URL of the site the tool talks to: any host the caller names`,
      confidence: 0.65,
    });
  // Content given as a URL is fetched from any host (`data: "URL or data URI of the file…"`).
  const fetched = fields.find((_, i) => fc[i]!.urlOrDataUri);
  if (fetched)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `input "${fetched.key}" can be a URL, which the tool fetches from any host`,
      confidence: 0.65,
    });
  // A change given as an object of no declared shape that the description says can set a webhook.
  const body = fields.find((f) => f.opaque);
  if (opens && body && said.webhook)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `input "${body.key}" declares none of its fields and the description says it can set a webhook: calls to any URL`,
      confidence: 0.6,
    });
  // An embeddable link opens the item to whoever holds or embeds it.
  if (opens && said.embeddable)
    out.push({
      kind: "add",
      role: "network_or_shares",
      reason: `the description makes an embeddable link: whoever holds or embeds it can open the item`,
      confidence: 0.6,
    });
  // Activating a workflow or automation puts it live, where it runs on its triggers; deactivating
  // stops it, as pausing a project does.
  // Not every such verb is a known one (`activate-workflow` reads as a name without a verb).
  const liveSwitch =
    [...verbs].find((v) => LIVE_SWITCHES.has(v)) ??
    (objects[0] && LIVE_SWITCHES.has(objects[0]) ? objects[0] : undefined);
  const runsLive = objects.find((w) => RUNS_WHEN_LIVE.has(w));
  if (liveSwitch && runsLive)
    for (const role of ["writes", "deploys_or_destroys"] as const)
      out.push({
        kind: "add",
        role,
        reason: `"${liveSwitch}" ${liveSwitch === "activate" ? "puts the " + runsLive + " live, where it runs on its triggers" : "stops the " + runsLive + " from running"}`,
        confidence: 0.7,
      });
  // A signal that stops a process (`signal: INT | TERM | KILL`) ends what it was doing.
  const signal = fields.find((_, i) => fc[i]!.stoppingSignal);
  if (signal)
    for (const role of ["writes", "deploys_or_destroys"] as const)
      out.push({
        kind: "add",
        role,
        reason: `input "${signal.key}" can send a signal that stops a process`,
        confidence: 0.7,
      });
  // A browser profile kept between sessions can be logged in: pages read through it are the account's.
  const profile = fields.find(
    (f, i) => f.words.some((w) => w === "profile" || w === "profiles") && fc[i]!.keptProfile,
  );
  if (profile)
    out.push({
      kind: "add",
      role: "reads_private_data",
      reason: `input "${profile.key}" uses a browser profile kept between sessions, which can be logged in: pages read through it can be the account's`,
      confidence: 0.6,
    });
  // "Send a signal" to a process stays on the machine.
  if (said.sendsToProcess)
    out.push({
      kind: "withhold",
      role: "network_or_shares",
      note: `the description sends a signal or keys to a process, which stays on the machine: no person or host receives it, so network_or_shares is not suggested`,
      onlyReason: /description opens with "send"/,
    });
  return out;
}
