/**
 * Finding secret values where a server is described (arguments, URLs, env and header values) and
 * replacing each with a `${NAME}` reference, so what is kept names the variable and never holds
 * the value. The import uses it on client configs; the review schema uses it to refuse a document
 * that still holds one; loading an old document uses it to scrub. Pure.
 *
 * What counts as a secret: the value of a secret-named flag (`--token=…`, `--api-key …`), of a
 * secret-named `NAME=value` or `Header: value` argument, a URL's password, a secret-named query or
 * fragment parameter, and anything shaped like a known credential (`ghp_…`, `glpat-…`, `sk-…`,
 * `AKIA…`, JWTs, …) wherever it appears. A value that is already a reference is left alone. A
 * redaction reports where it was and the variable that now stands for it, never the value.
 */

/** Credential shapes by issuer: the label names the variable a bare match becomes. */
export const TOKEN_SHAPES: readonly { label: string; pattern: RegExp }[] = [
  { label: "GITHUB_TOKEN", pattern: /(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/ },
  { label: "GITHUB_TOKEN", pattern: /github_pat_[A-Za-z0-9_]{20,}/ },
  { label: "GITLAB_TOKEN", pattern: /gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|agent)-[A-Za-z0-9_-]{16,}/ },
  { label: "SLACK_TOKEN", pattern: /(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/ },
  { label: "STRIPE_KEY", pattern: /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/ },
  { label: "API_KEY", pattern: /sk-[A-Za-z0-9_-]{16,}/ },
  { label: "NOTION_TOKEN", pattern: /(?:ntn|secret)_[A-Za-z0-9]{20,}/ },
  { label: "AWS_ACCESS_KEY_ID", pattern: /(?:AKIA|ASIA)[A-Z0-9]{16}/ },
  { label: "JWT", pattern: /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/ },
  { label: "GOOGLE_API_KEY", pattern: /AIza[0-9A-Za-z_-]{35}/ },
  { label: "NPM_TOKEN", pattern: /npm_[A-Za-z0-9]{36}/ },
  { label: "HF_TOKEN", pattern: /hf_[A-Za-z0-9]{30,}/ },
  { label: "LINEAR_API_KEY", pattern: /lin_api_[A-Za-z0-9]{20,}/ },
  { label: "SENTRY_TOKEN", pattern: /sntry[us]_[A-Za-z0-9_=+/]{20,}/ },
  { label: "DIGITALOCEAN_TOKEN", pattern: /do[opr]_v1_[a-f0-9]{64}/ },
  { label: "SHOPIFY_TOKEN", pattern: /shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}/ },
  {
    label: "PRIVATE_KEY",
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/,
  },
];

// Not inside a longer word, so `task-sk-…` style substrings of ordinary words are not matched mid-token.
const TOKEN_ANYWHERE = new RegExp(
  TOKEN_SHAPES.map((s) => `(?<![A-Za-z0-9_-])(${s.pattern.source})`).join("|"),
  "g",
);

const REFERENCE_ONLY = /^(?:\$\{[A-Za-z_][A-Za-z0-9_:.-]*\})+$/;
const HAS_REFERENCE = /\$\{[^}]*\}/;

/** Whether a value is (only) references such as `${NAME}`, `${env:NAME}`, `${input:id}`. */
export function isReferenceOnly(value: string): boolean {
  return REFERENCE_ONLY.test(value);
}

const SECRET_WORDS =
  /(?:^|_)(?:token|tokens|secret|secrets|password|passwd|passphrase|pwd|pass|apikey|api_key|access_key|secret_key|private_key|client_secret|auth|authorization|auth_token|access_token|refresh_token|id_token|bearer|credential|credentials|cookie|session|sessionid|pat|key|sig|signature|x_amz_signature|x_amz_credential|x_amz_security_token|x_goog_signature|jwt|otp|dsn)(?:$|_)/;
/** A name that says what it holds is not the secret itself: a file, a URL, an id, a host, … */
const NOT_A_VALUE =
  /(?:^|_)(?:file|path|dir|url|uri|host|port|id|name|type|env|mode|header|prefix|length|ttl|expiry|expires|scope|scopes)$/;

/** Whether a flag, variable, header or query parameter name says it holds a secret. */
export function isSecretName(name: string): boolean {
  const n = name
    .replace(/^-+/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_");
  if (n === "") return false;
  if (n === "api_key" || n === "apikey") return true;
  return SECRET_WORDS.test(n) && !NOT_A_VALUE.test(n);
}

/** The label of the first credential shape found in `value`, or null. */
export function tokenShapeIn(value: string): string | null {
  for (const s of TOKEN_SHAPES) {
    const m = new RegExp(`(?<![A-Za-z0-9_-])(?:${s.pattern.source})`).exec(value);
    if (m) return s.label;
  }
  return null;
}

/** Every credential-shaped substring of free text (a log line, an error) as `[redacted LABEL]`. */
export function redactTokenShapes(text: string): string {
  return text.replace(
    TOKEN_ANYWHERE,
    (match: string) => `[redacted ${tokenShapeIn(match) ?? "SECRET"}]`,
  );
}

/** Upper snake case for a variable name part: `api-key` → `API_KEY`. */
export function variablePart(s: string): string {
  return s
    .replace(/^-+/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * Variable names for redacted values: `prefix + hint`, the same variable for the same value, a
 * numbered one for a different value under the same hint. Names never start with a digit.
 */
export function makeNamer(
  prefix: string,
  taken: Iterable<string> = [],
): (hint: string, value: string, exact?: boolean) => string {
  const byValue = new Map<string, string>();
  const used = new Set(taken);
  return (hint, value, exact = false) => {
    const known = byValue.get(value);
    if (known) return known;
    let base = exact ? hint : `${prefix}${variablePart(hint) || "SECRET"}`;
    if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
    base = base.slice(0, 120);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    byValue.set(value, name);
    return name;
  };
}

export type Namer = ReturnType<typeof makeNamer>;

/** One replaced value: what kind of place, which flag/parameter/shape, and the variable now there. */
export type Redaction = { where: "arg" | "url"; name: string; variable: string; index?: number };

const ref = (v: string) => `\${${v}}`;

/** Replace credential-shaped substrings (outside references) with references. */
function redactShapes(
  text: string,
  namer: Namer,
  found: (name: string, variable: string) => void,
): string {
  if (isReferenceOnly(text)) return text;
  return text.replace(TOKEN_ANYWHERE, (match: string) => {
    const label = tokenShapeIn(match) ?? "SECRET";
    const variable = namer(label, match);
    found(label, variable);
    return ref(variable);
  });
}

/** A URL's start; a scheme may be a chain (`jdbc:postgresql://`). */
const URL_START = /^((?:[A-Za-z][A-Za-z0-9+.-]*:)+\/\/)([^/?#]*)(.*)$/s;
/** Where a URL starts inside an argument (`--db=postgres://…`, `DATABASE_URL=postgres://…`). */
const URL_INSIDE = /(?:[A-Za-z][A-Za-z0-9+.-]*:)+\/\//;

/**
 * A URL path segment that is a key rather than a name: 20 or more URL-safe characters mixing
 * letters and digits (a Slack or Discord webhook's key, an API key in the path, a capability
 * id). A word, a package or a file name (with a dot) is not one.
 */
function isKeyLikeSegment(segment: string): boolean {
  return /^[A-Za-z0-9_-]{20,}$/.test(segment) && /[0-9]/.test(segment) && /[A-Za-z]/.test(segment);
}

function redactPathSegments(
  path: string,
  namer: Namer,
  found: (name: string, variable: string) => void,
): string {
  return path
    .split("/")
    .map((segment) => {
      if (!isKeyLikeSegment(segment)) return segment;
      const variable = namer("URL_PATH", segment);
      found("path", variable);
      return ref(variable);
    })
    .join("/");
}

/** `Server=db;User Id=sa;Password=…;`: two or more `key=value` pairs separated by `;`. */
const KEY_VALUE_PAIRS = /^[^;=]+=[^;]*(?:;[^;=]+=[^;]*)+;?$/s;

/** A `key=value;…` connection string with each secret-named value replaced by a reference. */
function redactKeyValuePairs(
  text: string,
  namer: Namer,
  found: (name: string, variable: string) => void,
): string {
  if (!KEY_VALUE_PAIRS.test(text)) return text;
  return text
    .split(";")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq <= 0) return pair;
      const key = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1);
      if (value.trim() === "" || HAS_REFERENCE.test(value) || !isSecretName(key)) return pair;
      const variable = namer(key, value);
      found(key, variable);
      return `${pair.slice(0, eq + 1)}${ref(variable)}`;
    })
    .join(";");
}

function redactParams(
  part: string,
  namer: Namer,
  found: (name: string, variable: string) => void,
): string {
  return part
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq <= 0) return pair;
      const key = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let decodedKey = key;
      try {
        decodedKey = decodeURIComponent(key.replace(/\+/g, " "));
      } catch {
        /* an undecodable key is judged as written */
      }
      if (value === "" || isReferenceOnly(value) || !isSecretName(decodedKey)) return pair;
      const variable = namer(decodedKey, value);
      found(decodedKey, variable);
      return `${key}=${ref(variable)}`;
    })
    .join("&");
}

export type UrlRedaction = {
  url: string;
  redactions: { name: string; variable: string }[];
  /** Set when `userinfo: "remove"` took credentials out of the URL (they cannot be kept as a reference there). */
  removedUserinfo: { username: string; hadPassword: boolean } | null;
};

/**
 * A URL with its password, secret-named query/fragment parameters and credential-shaped parts
 * replaced by references. Works on the text, so everything else is kept byte for byte.
 * `userinfo: "remove"` drops `user:password@` altogether (an HTTP target's URL, where the schema
 * refuses credentials); `"reference"` keeps the user and references the password (an argument
 * such as `postgres://user:pass@db/app`).
 */
export function redactUrl(
  url: string,
  namer: Namer,
  options: { userinfo: "remove" | "reference" } = { userinfo: "reference" },
): UrlRedaction {
  const redactions: UrlRedaction["redactions"] = [];
  const found = (name: string, variable: string) => redactions.push({ name, variable });
  const m = URL_START.exec(url);
  if (!m) return { url: redactShapes(url, namer, found), redactions, removedUserinfo: null };
  const [, scheme, authorityRaw, restRaw] = m as unknown as [string, string, string, string];
  let authority = authorityRaw;
  let removedUserinfo: UrlRedaction["removedUserinfo"] = null;
  const at = authority.lastIndexOf("@");
  if (at !== -1) {
    const userinfo = authority.slice(0, at);
    const host = authority.slice(at + 1);
    const colon = userinfo.indexOf(":");
    const user = colon === -1 ? userinfo : userinfo.slice(0, colon);
    const password = colon === -1 ? null : userinfo.slice(colon + 1);
    if (options.userinfo === "remove") {
      authority = host;
      removedUserinfo = { username: user, hadPassword: password !== null && password !== "" };
    } else {
      let u = user;
      if (
        !isReferenceOnly(user) &&
        (tokenShapeIn(user) || (password === null && user.length >= 20))
      ) {
        const variable = namer("URL_USER", user);
        found("userinfo", variable);
        u = ref(variable);
      }
      let p = password;
      if (password !== null && password !== "" && !isReferenceOnly(password)) {
        const variable = namer("URL_PASSWORD", password);
        found("password", variable);
        p = ref(variable);
      }
      authority = `${u}${p === null ? "" : `:${p}`}@${host}`;
    }
  }
  let rest = restRaw;
  const hash = rest.indexOf("#");
  let fragment = hash === -1 ? null : rest.slice(hash + 1);
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf("?");
  let path = q === -1 ? rest : rest.slice(0, q);
  let query = q === -1 ? null : rest.slice(q + 1);
  if (query !== null) query = redactParams(query, namer, found);
  if (fragment !== null && fragment.includes("=")) fragment = redactParams(fragment, namer, found);
  path = redactPathSegments(redactShapes(path, namer, found), namer, found);
  if (query !== null) query = redactShapes(query, namer, found);
  if (fragment !== null) fragment = redactShapes(fragment, namer, found);
  const out = `${scheme}${authority}${path}${query === null ? "" : `?${query}`}${fragment === null ? "" : `#${fragment}`}`;
  return { url: out, redactions, removedUserinfo };
}

const FLAG_WITH_VALUE = /^(--?[A-Za-z][A-Za-z0-9_.-]*)=(.*)$/s;
const BARE_FLAG = /^--?[A-Za-z][A-Za-z0-9_.-]*$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]{0,127})=(.*)$/s;
const HEADER_LINE = /^([A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}):\s*(.*)$/s;
const AUTH_SCHEME = /^(Bearer|Basic|Token|Bot|ApiKey|Digest)\s+/i;

/** Replace a secret value, keeping an auth scheme word (`Bearer ${X}`) so the reference holds only the credential. */
function replaceValue(
  value: string,
  hint: string,
  namer: Namer,
  exact = false,
): { text: string; variable: string } | null {
  if (value === "" || isReferenceOnly(value) || HAS_REFERENCE.test(value)) return null;
  const scheme = AUTH_SCHEME.exec(value);
  const secret = scheme ? value.slice(scheme[0].length) : value;
  if (secret === "" || isReferenceOnly(secret)) return null;
  const variable = namer(hint, secret, exact);
  return { text: `${scheme ? scheme[0] : ""}${ref(variable)}`, variable };
}

/**
 * Arguments with every secret value replaced by a reference. `prefix` starts the names of new
 * variables (the import uses `RR_<SERVER>_`); a `NAME=value` argument keeps its own NAME.
 */
export function redactArgs(
  args: readonly string[],
  namer: Namer,
): { args: string[]; redactions: Redaction[] } {
  const out = [...args];
  const redactions: Redaction[] = [];
  const found = (index: number) => (name: string, variable: string) =>
    redactions.push({ where: "arg", name, variable, index });
  for (let i = 0; i < out.length; i++) {
    let a = out[i]!;
    const flag = FLAG_WITH_VALUE.exec(a);
    const assignment = flag ? null : ASSIGNMENT.exec(a);
    const header = flag || assignment ? null : HEADER_LINE.exec(a);
    if (flag && isSecretName(flag[1]!)) {
      const r = replaceValue(flag[2]!, flag[1]!, namer);
      if (r) {
        a = `${flag[1]}=${r.text}`;
        found(i)(flag[1]!, r.variable);
      }
    } else if (assignment && isSecretName(assignment[1]!)) {
      const r = replaceValue(assignment[2]!, assignment[1]!, namer, true);
      if (r) {
        a = `${assignment[1]}=${r.text}`;
        found(i)(assignment[1]!, r.variable);
      }
    } else if (header && isSecretName(header[1]!) && !a.includes("://")) {
      const r = replaceValue(header[2]!, header[1]!, namer);
      if (r) {
        a = `${header[1]}: ${r.text}`;
        found(i)(header[1]!, r.variable);
      }
    } else if (
      BARE_FLAG.test(a) &&
      isSecretName(a) &&
      i + 1 < out.length &&
      !BARE_FLAG.test(out[i + 1]!) &&
      !FLAG_WITH_VALUE.test(out[i + 1]!)
    ) {
      const r = replaceValue(out[i + 1]!, a, namer);
      if (r) {
        out[i + 1] = r.text;
        found(i + 1)(a, r.variable);
      }
      out[i] = a;
      i++;
      continue;
    }
    const urlAt = a.search(URL_INSIDE);
    if (urlAt !== -1) {
      // A URL, or one after a flag or a name (`--db=postgres://…`): the prefix is kept as is.
      const u = redactUrl(a.slice(urlAt), namer, { userinfo: "reference" });
      a = redactShapes(a.slice(0, urlAt), namer, found(i)) + u.url;
      for (const r of u.redactions) found(i)(r.name, r.variable);
    } else {
      a = redactShapes(redactKeyValuePairs(a, namer, found(i)), namer, found(i));
    }
    out[i] = a;
  }
  return { args: out, redactions };
}

/** Whether arguments still hold something `redactArgs` would replace (the review schema refuses them). */
export function argsHoldSecrets(args: readonly string[]): Redaction[] {
  return redactArgs(args, makeNamer("X_")).redactions;
}

/** Whether a URL still holds credentials or secret parameters. */
export function urlHoldsSecrets(url: string): string[] {
  const r = redactUrl(url, makeNamer("X_"), { userinfo: "remove" });
  return [...(r.removedUserinfo ? ["userinfo"] : []), ...r.redactions.map((x) => x.name)];
}
