/**
 * The words role inference reads a tool's name with: verbs grouped by what calling the tool does,
 * and the nouns and input fields that sharpen a verb's reading. General vocabulary of APIs, never
 * the names of particular tools.
 */

/**
 * What a verb does when the tool runs. `read`: returns data; `compute`: works on its inputs and
 * returns a result, touching nothing; `write`: changes state; `destroy`: deletes, deploys or runs
 * something (the `deploys_or_destroys` role); `network`: sends or shares outside the session.
 */
export type VerbClass = "read" | "compute" | "write" | "destroy" | "network";

const READ = [
  "get", "list", "search", "find", "read", "fetch", "query", "retrieve", "describe", "show", "view", "lookup", "look",
  "count", "check", "export", "browse", "inspect", "open", "load", "scan", "peek", "poll", "stat", "tail", "grep", "print",
  "dump", "download", "capture", "screenshot", "snapshot", "navigate", "visit", "goto", "crawl", "scrape", "watch",
  "monitor", "audit", "is", "has", "exists", "reconnect_", "explore", "head", "options", "batch", "obtain", "discover", "locate",
  "filter", "return", "give", "provide", "fetches_", "review", "summarize", "summarise", "explain", "trace", "lint", "test", "verify", "probe", "request", "see",
];

const COMPUTE = [
  "echo", "think", "calculate", "compute", "convert", "format", "parse", "render", "translate", "generate", "encode",
  "decode", "hash", "sum", "validate", "analyze", "analyse", "wait", "sleep", "hover", "scroll", "focus", "resize",
  "ping", "simulate", "estimate", "predict", "classify", "extract", "compare", "diff", "preview", "plan", "suggest",
  "recommend", "sample", "compress", "decompress", "zip", "unzip", "gzip", "sort", "sequentialthinking",
  "match", "detect", "infer", "tokenize", "embed", "solve", "chat", "ask",
];

const WRITE = [
  "create", "update", "edit", "add", "set", "put", "post", "patch", "insert", "comment", "reply", "merge", "move", "rename",
  "assign", "unassign", "close", "reopen", "approve", "unapprove", "upload", "commit", "push", "write", "modify", "append",
  "save", "change", "replace", "apply", "mark", "label", "tag", "star", "unstar", "fork", "transfer", "lock", "unlock",
  "pin", "unpin", "subscribe", "unsubscribe", "link", "unlink", "attach", "detach", "register", "configure", "enable",
  "disable", "toggle", "import", "sync", "copy", "duplicate", "clone", "submit", "accept", "reject", "dismiss", "block",
  "unblock", "follow", "unfollow", "react", "vote", "like", "schedule", "rebase", "cherry", "revert", "upsert", "store",
  "remember", "record", "log", "track", "restore", "unarchive", "promote", "protect", "unprotect", "bump", "increment",
  "decrement", "click", "type", "press", "fill", "drag", "drop_", "mkdir", "touch", "init", "initialize", "setup",
  "install", "new", "make", "build", "reorder", "sort_", "convert_", "resolve_", "mention", "grant", "fix", "manage",
  "handle", "complete", "finish", "resolve", "select", "choose", "connect", "disconnect", "join", "leave", "login", "logout", "authenticate", "authorize", "request_",
];

const DESTROY = [
  "delete", "remove", "destroy", "drop", "purge", "erase", "wipe", "truncate", "terminate", "kill", "deploy", "redeploy",
  "undeploy", "run", "rerun", "execute", "exec", "eval", "evaluate", "trigger", "retry", "cancel", "restart", "reboot", "rollback",
  "revoke", "shutdown", "stop", "start", "launch", "invoke", "scale", "reset", "clear", "uninstall", "migrate",
  "provision", "archive", "abort", "play", "release", "unpublish", "discard", "prune", "clean", "cleanup", "empty",
  "rm", "del", "flush", "evict", "expire", "disable_", "suspend", "pause", "unpause", "resume", "ban", "lock_", "force",
];

const NETWORK = [
  "send", "share", "publish", "invite", "email", "notify", "forward", "webhook", "tweet", "broadcast", "announce",
  "mail", "dm", "sms", "message", "text_", "call", "dial", "curl", "http", "wget", "reshare", "retweet", "ping_",
];

/** Entries ending in "_" are placeholders kept out of the lexicon (a word listed under another class). */
const entries = (words: readonly string[], c: VerbClass) => words.filter((w) => !w.endsWith("_")).map((w) => [w, c] as const);

/** Every verb and its class. A word listed twice keeps its first class (network over destroy over write over read). */
export const VERB_CLASS: ReadonlyMap<string, VerbClass> = new Map(
  [...entries(NETWORK, "network"), ...entries(DESTROY, "destroy"), ...entries(WRITE, "write"), ...entries(READ, "read"), ...entries(COMPUTE, "compute")].reverse(),
);

/** HTTP methods, as OpenAPI-generated tool names carry them (`API-post-search`, `jira_post`). */
export const HTTP_METHODS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);

/**
 * Verbs that are as often nouns at the head of a name (`comment_list`, `merge_request_get`,
 * `deploy_status`): a later verb that is never a noun reads the name instead.
 */
export const NOUN_LIKE = new Set([
  "comment", "post", "merge", "commit", "deploy", "release", "message", "email", "mail", "note", "label", "tag", "review",
  "query", "run", "check", "export", "upload", "archive", "link", "record", "log", "test", "plan", "schedule", "pin",
  "star", "lock", "block", "request", "snapshot", "screenshot", "batch", "match", "sample", "webhook", "head", "options",
  "type", "copy", "filter", "trace", "text", "chat", "call", "diff", "import", "store", "track", "build", "setup", "stat",
  "search", "view", "audit", "monitor", "select", "sort", "hash", "format", "tail", "watch", "play", "start",
  "reset", "clear", "scale", "reply", "patch", "vote", "like", "react", "follow", "new", "make", "drop", "fix", "form",
]);

/** Tokens a name may carry before its verb that say nothing about what the tool does. */
export const NAME_PREFIXES = new Set(["api", "mcp", "tool", "tools", "do", "x", "v1", "v2", "v3"]);

/** Conjunctions that join a second verb to a name (`create_or_update_file`, `upload_and_delete`). */
export const CONJUNCTIONS = new Set(["and", "or", "then", "plus"]);

/** Words naming a query in a POST's path: a POST to such an endpoint reads (`API-post-search`, `post_database_query`). */
export const QUERY_NOUNS = new Set(["search", "query", "find", "lookup", "filter", "list", "count", "retrieve", "get", "read", "fetch", "select", "graphql", "batch", "bulk", "export", "aggregate", "aggregation"]);

/** Objects that make a write a message leaving the session (`create_webhook`, `post_message`). */
export const OUTBOUND_NOUNS = new Set(["email", "emails", "mail", "message", "messages", "sms", "webhook", "webhooks", "notification", "notifications", "invitation", "invitations", "invite", "tweet", "dm", "chat", "newsletter", "broadcast"]);

/** Objects that make a write a deploy (`approve_deployment`, `create_release`). */
export const DEPLOY_NOUNS = new Set(["deploy", "deployment", "deployments", "production", "prod", "rollout"]);

/** Objects naming secrets: a read of one reads private data (`get-env`, `get_secret`). */
export const SECRET_NOUNS = new Set(["env", "environment", "secret", "secrets", "credential", "credentials", "password", "passwords", "token", "tokens", "apikey", "apikeys", "vault", "keychain", "keyring", "passphrase", "cookie", "cookies"]);

/** Input fields carrying content to write (a `body` beside `create`). */
export const CONTENT_FIELDS = new Set(["body", "content", "contents", "message", "text", "comment", "description", "data", "note", "markdown", "html", "value", "payload", "patch", "diff", "code", "source", "title", "file", "files", "blob"]);

/** Input fields naming an arbitrary address (`url`, `uri`, `endpoint`). */
export const URL_FIELDS = new Set(["url", "urls", "uri", "uris", "endpoint", "href", "link", "links", "website", "webpage", "address"]);

/** Input fields naming recipients (`to`, `email`, `channel`). */
export const RECIPIENT_FIELDS = new Set(["to", "cc", "bcc", "recipient", "recipients", "email", "emails", "channel", "channels", "phone", "number", "chat", "address", "addresses"]);

/** Verbs that go out to an address when given one (a free `url` beside `fetch`). */
export const FETCH_VERBS = new Set(["get", "fetch", "read", "open", "load", "download", "navigate", "browse", "crawl", "scrape", "visit", "goto", "request", "query", "check", "scan", "see", "take", "capture", "screenshot", "snapshot", "extract", "summarize", "summarise", "explore", "probe", "ping", "call", "curl", "http", "wget", "inspect", "view", "lookup", "search", "analyze", "analyse", "retrieve"]);

/** Verbs that send to recipients (`to`, `channel` beside `send`). */
export const SEND_VERBS = new Set(["send", "post", "reply", "forward", "notify", "share", "invite", "publish", "message", "email", "mail", "tweet", "broadcast", "announce", "dm", "sms", "write", "create", "comment", "mention"]);

/** Words in a description that say the tool returns content (weak evidence for `returns_untrusted_text`). */
export const RETURN_WORDS = new Set(["returns", "return", "retrieves", "retrieve", "gets", "lists", "reads", "fetches", "shows", "displays", "outputs", "content", "contents", "results", "text", "body", "output"]);

/** Write verbs that change an object that exists already: the tool returns it, with fields others wrote (`update_issue`, `fork_repository`). */
export const MODIFY_VERBS = new Set(["update", "edit", "set", "patch", "put", "modify", "change", "replace", "merge", "move", "rename", "assign", "unassign", "close", "reopen", "approve", "unapprove", "mark", "label", "tag", "fork", "transfer", "lock", "unlock", "pin", "unpin", "link", "unlink", "attach", "detach", "enable", "disable", "toggle", "sync", "copy", "duplicate", "clone", "restore", "unarchive", "promote", "protect", "unprotect", "rebase", "revert", "apply", "accept", "reject", "dismiss", "star", "unstar", "subscribe", "unsubscribe", "reorder", "complete", "finish", "resolve"]);

/** Input fields that set who can see what a write makes (`private`, `visibility`): the write can publish. */
export const VISIBILITY_FIELDS = new Set(["private", "public", "visibility", "visible", "shared", "sharing", "permission", "permissions", "audience"]);

/** Verbs that run code or another operation: given code or a free operation, the tool can do anything. */
export const EXEC_VERBS = new Set(["execute", "exec", "eval", "evaluate", "run", "invoke", "call"]);

/** What an execution runs when it can do anything: a script, a query language, another tool. */
export const CODE_WORDS = new Set(["code", "script", "scripts", "sql", "query", "function", "command", "commands", "cmd", "expression", "javascript", "js", "snippet", "shell", "bash", "python", "tool", "operation", "program"]);

/** Verbs that act on a live page or app and report what it then shows (`browser_click`). */
export const INTERACTION_VERBS = new Set(["click", "type", "press", "fill", "drag", "drop", "hover", "select", "choose", "handle", "scroll", "focus", "navigate", "upload", "resize"]);

/** Field words naming where a tool saves its output (`outputDir`, `local_path`, `save_to`). */
export const OUTPUT_WORDS = new Set(["output", "out", "save", "dest", "destination", "local", "target", "export"]);
export const PATH_WORDS = new Set(["path", "dir", "directory", "file", "filename", "folder", "filepath", "location"]);

/** Objects a url points at when a name's object is a web page (`read_webpage`, `get_url`). */
export const WEB_OBJECTS = new Set(["url", "urls", "uri", "web", "webpage", "website", "site", "page", "pages", "html", "link", "links", "http", "https", "internet"]);

/** Verbs that go out to any address they are given. */
export const NET_FETCH_VERBS = new Set(["extract", "fetch", "download", "navigate", "browse", "crawl", "scrape", "visit", "goto", "open", "request", "curl", "http", "wget", "load", "ping", "probe"]);

/** Fields that choose which operation a tool performs (`action: "create" | "delete"`, `actions[].type`). */
export const OPERATION_FIELDS = new Set(["action", "actions", "operation", "operations", "op", "command", "commands", "method", "verb"]);

/**
 * Verbs that end something the server itself holds for the session, and the objects that are such
 * state: closing the browser, stopping a port-forward or reconnecting clients changes nothing
 * outside the session, so it is no sink (`browser_close`, `stop_port_forward`, `reconnect`).
 */
export const SESSION_VERBS = new Set(["close", "stop", "end", "quit", "exit", "disconnect", "reconnect"]);
export const SESSION_OBJECTS = new Set(["session", "sessions", "browser", "tab", "tabs", "window", "windows", "connection", "connections", "forward", "forwarding", "tunnel", "client", "clients"]);
