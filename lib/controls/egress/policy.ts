/**
 * Parsing and validating Kubernetes NetworkPolicies (networking.k8s.io/v1) from YAML text. The
 * policy is the configuration the egress control is evaluated from, so a field the parser does not
 * understand is an error, never silently dropped: a misspelt `ipblock` that the cluster would reject,
 * or a typo the reviewer meant as a rule, must not read as "allowlist". Every problem is returned as
 * a value with the document number, the field path and the line and column in the text.
 *
 * Accepted: one NetworkPolicy, a `List`/`NetworkPolicyList` of them, or several YAML documents.
 * Flow-style maps and sequences (`{ cidr: 10.42.7.0/24 }`, `ports: [{ protocol: TCP, port: 443 }]`)
 * are ordinary YAML and need nothing special. CIDRs are checked with ipaddr.js, not by regex alone.
 */
import ipaddr from "ipaddr.js";
import {
  isMap,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  parseAllDocuments,
  type Document,
  type Node as YamlNode,
} from "yaml";
import { z } from "zod";

/** Longest policy text accepted: the review schema's limit on `policyYaml`. */
export const MAX_POLICY_YAML_LENGTH = 200_000;
/** Most documents or list items read from one text; a bound on work per request. */
export const MAX_POLICIES_PER_TEXT = 100;
/**
 * Deepest nesting of flow collections (`[ ]`, `{ }`) accepted. A List of NetworkPolicies nests
 * about 9 levels; the YAML parser recurses once per level and runs out of stack at a few hundred,
 * which it would report in the engine's words ("Maximum call stack size exceeded").
 */
export const MAX_FLOW_NESTING = 64;

export const PROTOCOLS = ["TCP", "UDP", "SCTP"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** One parsed CIDR, JSON-serialisable: the normalised network address and prefix length. */
export type Cidr = { text: string; family: "ipv4" | "ipv6"; network: string; prefix: number };

/** A problem in the policy text, located. Line and column are 1-based. */
export type PolicyIssue = {
  document: number;
  path: string;
  line: number;
  column: number;
  message: string;
};

// A DNS-1123 label or IANA service name, as Kubernetes requires of a named port.
const PORT_NAME = /^(?=.{1,15}$)(?=.*[a-z])[a-z0-9]+(-[a-z0-9]+)*$/;

/** Parse a CIDR strictly: four-part decimal IPv4 or any valid IPv6, with a prefix length. */
export function parseCidr(text: string): Cidr | { error: string } {
  const t = text.trim();
  if (!t.includes("/"))
    return {
      error: `${JSON.stringify(text)} is not a CIDR: expected address/prefix, e.g. 10.42.7.0/24`,
    };
  const isV4 = ipaddr.IPv4.isValidCIDRFourPartDecimal(t);
  const isV6 = !isV4 && !t.includes(".") && ipaddr.IPv6.isValidCIDR(t);
  if (!isV4 && !isV6) return { error: `${JSON.stringify(text)} is not a valid CIDR` };
  const [addr, prefix] = ipaddr.parseCIDR(t);
  const network =
    addr.kind() === "ipv4"
      ? ipaddr.IPv4.networkAddressFromCIDR(t)
      : ipaddr.IPv6.networkAddressFromCIDR(t);
  return { text: t, family: addr.kind(), network: network.toString(), prefix };
}

function cidrContains(outer: Cidr, inner: Cidr): boolean {
  if (outer.family !== inner.family || inner.prefix < outer.prefix) return false;
  return ipaddr.parse(inner.network).match(ipaddr.parse(outer.network), outer.prefix);
}

const nullishArray = <T extends z.ZodType>(item: T) => z.array(item).nullish();

const LabelSelectorSchema = z.strictObject({
  matchLabels: z.record(z.string(), z.string()).nullish(),
  matchExpressions: nullishArray(
    z.strictObject({
      key: z.string().min(1),
      operator: z.enum(["In", "NotIn", "Exists", "DoesNotExist"], {
        error: "operator must be In, NotIn, Exists or DoesNotExist",
      }),
      values: nullishArray(z.string()),
    }),
  ),
});
export type LabelSelector = z.infer<typeof LabelSelectorSchema>;

const IPBlockSchema = z
  .strictObject({
    cidr: z.string({ error: "cidr is required and must be a string" }),
    except: nullishArray(z.string()),
  })
  .superRefine((block, ctx) => {
    const cidr = parseCidr(block.cidr);
    if ("error" in cidr) {
      ctx.addIssue({ code: "custom", path: ["cidr"], message: cidr.error });
      return;
    }
    (block.except ?? []).forEach((e, i) => {
      const ex = parseCidr(e);
      if ("error" in ex) ctx.addIssue({ code: "custom", path: ["except", i], message: ex.error });
      else if (!cidrContains(cidr, ex) || ex.prefix === cidr.prefix)
        ctx.addIssue({
          code: "custom",
          path: ["except", i],
          message: `except ${e} must be a strict subset of cidr ${block.cidr}`,
        });
    });
  });

const PeerSchema = z
  .strictObject({
    ipBlock: IPBlockSchema.nullish(),
    namespaceSelector: LabelSelectorSchema.nullish(),
    podSelector: LabelSelectorSchema.nullish(),
  })
  .superRefine((peer, ctx) => {
    const hasSelector = peer.namespaceSelector != null || peer.podSelector != null;
    if (peer.ipBlock == null && !hasSelector)
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "a peer must set ipBlock, namespaceSelector or podSelector",
      });
    if (peer.ipBlock != null && hasSelector)
      ctx.addIssue({
        code: "custom",
        path: ["ipBlock"],
        message: "ipBlock cannot be combined with namespaceSelector or podSelector in one peer",
      });
  });

const PortNumberSchema = z
  .number({ error: "port must be a number or a port name" })
  .int("port must be a whole number")
  .min(1, "port must be 1–65535")
  .max(65535, "port must be 1–65535");

const PortSchema = z
  .strictObject({
    protocol: z.enum(PROTOCOLS, { error: "unknown protocol: expected TCP, UDP or SCTP" }).nullish(),
    port: z
      .union([
        PortNumberSchema,
        z
          .string()
          .regex(PORT_NAME, "a named port must be a lower-case IANA service name with a letter"),
      ])
      .nullish(),
    endPort: PortNumberSchema.nullish(),
  })
  .superRefine((p, ctx) => {
    if (p.endPort == null) return;
    if (typeof p.port !== "number")
      ctx.addIssue({
        code: "custom",
        path: ["endPort"],
        message: "endPort requires a numeric port",
      });
    else if (p.endPort < p.port)
      ctx.addIssue({
        code: "custom",
        path: ["endPort"],
        message: `endPort ${p.endPort} is below port ${p.port}`,
      });
  });

const EgressRuleSchema = z.strictObject({
  to: nullishArray(PeerSchema),
  ports: nullishArray(PortSchema),
});

export const NetworkPolicySchema = z.object({
  apiVersion: z.literal("networking.k8s.io/v1", {
    error: "apiVersion must be networking.k8s.io/v1",
  }),
  kind: z.literal("NetworkPolicy", { error: "kind must be NetworkPolicy" }),
  metadata: z
    .looseObject({ name: z.string().nullish(), namespace: z.string().nullish() })
    .nullish(),
  spec: z
    .strictObject({
      podSelector: LabelSelectorSchema.nullish(),
      policyTypes: nullishArray(
        z.enum(["Ingress", "Egress"], { error: "policyTypes entries must be Ingress or Egress" }),
      ),
      ingress: nullishArray(z.unknown()),
      egress: nullishArray(EgressRuleSchema),
    })
    .superRefine((spec, ctx) => {
      // Required by the API; an optional key that is absent skips its own refinements, so check here.
      if (spec.podSelector === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["podSelector"],
          message: "spec.podSelector is required ({} selects every pod)",
        });
    }),
});
export type NetworkPolicyDoc = z.infer<typeof NetworkPolicySchema>;

/** Where something is in the policy text. */
export type Location = { document: number; path: string; line: number; column: number };

export type EgressPeer =
  | { kind: "ipBlock"; cidr: Cidr; except: Cidr[]; text: string }
  | {
      kind: "selector";
      namespaceSelector: LabelSelector | null;
      podSelector: LabelSelector | null;
      text: string;
    };

export type EgressPort = {
  protocol: Protocol;
  port: number | string | null;
  endPort: number | null;
  text: string;
};

export type EgressRule = {
  /** Index within its policy's `spec.egress`. */
  index: number;
  policyName: string;
  location: Location;
  /** null: the rule has no `to`, so it matches every destination. */
  to: EgressPeer[] | null;
  /** null: the rule has no `ports`, so it matches every port. */
  ports: EgressPort[] | null;
};

export type NetworkPolicy = {
  name: string;
  namespace: string | null;
  location: Location;
  /** Egress is restricted for the selected pods: `Egress` in policyTypes, or implied by an egress section. */
  restrictsEgress: boolean;
  restrictsEgressReason: string;
  egressRules: EgressRule[];
};

export type ParsePolicyResult =
  | { ok: true; policies: NetworkPolicy[]; notes: string[] }
  | { ok: false; issues: PolicyIssue[]; notes: string[] };

type Segment = string | number;

function nodeAt(doc: Document, path: readonly Segment[], pointAtKey: boolean): YamlNode | null {
  let node: unknown = doc.contents;
  let last: YamlNode | null = doc.contents ?? null;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return last;
      const isLast = i === path.length - 1;
      if (isLast && pointAtKey && isScalar(pair.key)) return pair.key;
      node = pair.value;
      last = (pair.value as YamlNode | null) ?? (pair.key as YamlNode | null) ?? last;
    } else if (isSeq(node) && typeof seg === "number") {
      const item: unknown = node.items[seg];
      if (!item) return last;
      node = item;
      last = item as YamlNode;
    } else {
      return last;
    }
  }
  return last;
}

const dotted = (path: readonly Segment[]) =>
  path.length === 0
    ? "(document)"
    : path
        .map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`))
        .join("")
        .replace(/^\./, "")
        .replace(/\.\[/g, "[");

function locate(
  doc: Document,
  lc: LineCounter,
  document: number,
  path: readonly Segment[],
  pointAtKey = false,
): Location {
  const node = nodeAt(doc, path, pointAtKey);
  const offset = node?.range?.[0] ?? doc.range?.[0] ?? 0;
  const { line, col } = lc.linePos(offset);
  return { document, path: dotted(path), line: Math.max(line, 1), column: Math.max(col, 1) };
}

const selectorText = (s: LabelSelector | null | undefined) => {
  if (s == null) return null;
  const labels = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  const exprs = (s.matchExpressions ?? []).map(
    (e) => `${e.key} ${e.operator}${e.values ? ` (${e.values.join(", ")})` : ""}`,
  );
  const all = [...labels, ...exprs];
  return all.length === 0 ? "{} (all)" : all.join(", ");
};

function toPolicy(
  data: NetworkPolicyDoc,
  doc: Document,
  lc: LineCounter,
  document: number,
  prefix: readonly Segment[],
): NetworkPolicy {
  const name = data.metadata?.name ?? `(unnamed policy in document ${document + 1})`;
  const types = data.spec.policyTypes ?? null;
  const hasEgressSection = data.spec.egress != null;
  const restrictsEgress = types ? types.includes("Egress") : hasEgressSection;
  const restrictsEgressReason = types
    ? types.includes("Egress")
      ? "Egress is listed in policyTypes"
      : `policyTypes is [${types.join(", ")}] without Egress, so this policy does not restrict egress`
    : hasEgressSection
      ? "no policyTypes, and an egress section implies Egress"
      : "no policyTypes and no egress section: Kubernetes defaults policyTypes to [Ingress], so egress is not restricted";
  const egressRules: EgressRule[] = (data.spec.egress ?? []).map((rule, index) => {
    const to =
      rule.to == null || rule.to.length === 0
        ? null
        : rule.to.map((peer): EgressPeer => {
            if (peer.ipBlock != null) {
              const cidr = parseCidr(peer.ipBlock.cidr) as Cidr; // validated by IPBlockSchema
              const except = (peer.ipBlock.except ?? []).map((e) => parseCidr(e) as Cidr);
              return {
                kind: "ipBlock",
                cidr,
                except,
                text: except.length
                  ? `${cidr.text} except ${except.map((e) => e.text).join(", ")}`
                  : cidr.text,
              };
            }
            const ns = selectorText(peer.namespaceSelector);
            const pods = selectorText(peer.podSelector);
            return {
              kind: "selector",
              namespaceSelector: peer.namespaceSelector ?? null,
              podSelector: peer.podSelector ?? null,
              text: `in-cluster pods${pods ? ` matching ${pods}` : ""}${ns ? ` in namespaces matching ${ns}` : " in the policy's namespace"}`,
            };
          });
    const ports =
      rule.ports == null || rule.ports.length === 0
        ? null
        : rule.ports.map((p): EgressPort => {
            const protocol = p.protocol ?? "TCP";
            const port = p.port ?? null;
            const endPort = p.endPort ?? null;
            const text =
              port === null
                ? `${protocol} all ports`
                : typeof port === "string"
                  ? `${protocol} named port ${port}`
                  : endPort !== null
                    ? `${protocol} ${port}-${endPort}`
                    : `${protocol} ${port}`;
            return { protocol, port, endPort, text };
          });
    return {
      index,
      policyName: name,
      location: locate(doc, lc, document, [...prefix, "spec", "egress", index]),
      to,
      ports,
    };
  });
  return {
    name,
    namespace: data.metadata?.namespace ?? null,
    location: locate(doc, lc, document, prefix),
    restrictsEgress,
    restrictsEgressReason,
    egressRules,
  };
}

/** Tokens of the yaml package's lexer that stand for no source text (document, flow-error-end, scalar start). */
const LEXER_CONTROL_TOKENS = new Set(["\x02", "\x18", "\x1f"]);

/**
 * The first place where flow collections nest deeper than `MAX_FLOW_NESTING`, or null. Found with
 * the yaml package's lexer, which is iterative and knows quotes and comments (a `[` inside a
 * string or a comment opens nothing). A text with at most that many `[` and `{` in all cannot nest
 * deeper, so most texts are never lexed twice.
 */
function tooDeeplyNested(text: string): PolicyIssue | null {
  let opening = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) opening++;
  }
  if (opening <= MAX_FLOW_NESTING) return null;
  let depth = 0;
  let offset = 0;
  let document = 0;
  let contentInDocument = false;
  let previous = "";
  for (const token of new Lexer().lex(text)) {
    if (token === "[" || token === "{") {
      if (++depth > MAX_FLOW_NESTING) {
        const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
        let line = 1;
        for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1))
          line++;
        return {
          document,
          path: "(yaml)",
          line,
          column: offset - lineStart + 1,
          message: `[ and { nest more than ${MAX_FLOW_NESTING} levels deep here; a NetworkPolicy needs about 10`,
        };
      }
    } else if ((token === "]" || token === "}") && depth > 0) {
      depth--;
    } else if (token === "---" && previous !== "\x1f") {
      // A document marker (a scalar "---" follows the scalar-start token); one before any content opens the first document.
      if (contentInDocument) document++;
      contentInDocument = false;
    } else if (
      !LEXER_CONTROL_TOKENS.has(token) &&
      token.trim() !== "" &&
      !token.startsWith("#") &&
      token !== "\ufeff"
    ) {
      contentInDocument = true;
    }
    if (!LEXER_CONTROL_TOKENS.has(token)) offset += token.length;
    previous = token;
  }
  return null;
}

/**
 * Parse NetworkPolicy YAML. Returns every policy found, or every problem with its location; never
 * throws. Documents of other API groups are skipped with a note (a pasted manifest may hold a
 * Deployment too); a text with no NetworkPolicy at all is an issue.
 */
export function parseNetworkPolicies(text: string): ParsePolicyResult {
  const notes: string[] = [];
  if (text.length > MAX_POLICY_YAML_LENGTH) {
    return {
      ok: false,
      notes,
      issues: [
        {
          document: 0,
          path: "(text)",
          line: 1,
          column: 1,
          message: `policy text is longer than ${MAX_POLICY_YAML_LENGTH} characters`,
        },
      ],
    };
  }
  const tooDeep = tooDeeplyNested(text);
  if (tooDeep) return { ok: false, notes, issues: [tooDeep] };
  const lc = new LineCounter();
  const parsed = parseAllDocuments(text, {
    lineCounter: lc,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const docs = Array.isArray(parsed) ? parsed : [];
  const issues: PolicyIssue[] = [];
  const policies: NetworkPolicy[] = [];

  docs.forEach((doc, document) => {
    if (doc.errors.length > 0) {
      for (const e of doc.errors) {
        const pos = e.linePos?.[0] ?? lc.linePos(e.pos[0]);
        issues.push({
          document,
          path: "(yaml)",
          line: pos.line,
          column: pos.col,
          message: e.message.split("\n")[0] ?? e.message,
        });
      }
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      issues.push({
        document,
        path: "(yaml)",
        line: 1,
        column: 1,
        message: err instanceof Error ? err.message : String(err),
      });
      return;
    }
    if (value === null || value === undefined) return; // an empty document, e.g. after a trailing ---
    if (typeof value !== "object" || Array.isArray(value)) {
      issues.push({
        ...locate(doc, lc, document, []),
        message: "a document must be a mapping (a NetworkPolicy or a List)",
      });
      return;
    }
    const obj = value as Record<string, unknown>;
    const items: { data: unknown; prefix: Segment[] }[] = [];
    if (obj.kind === "List" || obj.kind === "NetworkPolicyList") {
      if (!Array.isArray(obj.items)) {
        issues.push({
          ...locate(doc, lc, document, ["items"]),
          message: `a ${String(obj.kind)} needs an items sequence`,
        });
        return;
      }
      obj.items.forEach((data: unknown, i) => items.push({ data, prefix: ["items", i] }));
    } else if (
      typeof obj.apiVersion === "string" &&
      obj.apiVersion !== "networking.k8s.io/v1" &&
      obj.kind !== "NetworkPolicy"
    ) {
      notes.push(
        `document ${document + 1}: skipped ${String(obj.kind)} (${obj.apiVersion}), not a NetworkPolicy`,
      );
      return;
    } else {
      items.push({ data: obj, prefix: [] });
    }
    for (const { data, prefix } of items) {
      if (policies.length + issues.length >= MAX_POLICIES_PER_TEXT) {
        issues.push({
          document,
          path: "(text)",
          line: 1,
          column: 1,
          message: `more than ${MAX_POLICIES_PER_TEXT} policies in one text`,
        });
        return;
      }
      const result = NetworkPolicySchema.safeParse(data);
      if (!result.success) {
        for (const issue of result.error.issues) {
          const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
          const path = [
            ...prefix,
            ...(issue.path as Segment[]),
            ...(keys.length > 0 ? [keys[0] as string] : []),
          ];
          const message =
            keys.length > 0
              ? `unknown field${keys.length > 1 ? "s" : ""} ${keys.map((k) => JSON.stringify(k)).join(", ")}`
              : issue.message;
          issues.push({ ...locate(doc, lc, document, path, keys.length > 0), message });
        }
        continue;
      }
      policies.push(toPolicy(result.data, doc, lc, document, prefix));
    }
  });

  if (issues.length > 0) return { ok: false, issues, notes };
  if (policies.length === 0)
    return {
      ok: false,
      notes,
      issues: [
        {
          document: 0,
          path: "(text)",
          line: 1,
          column: 1,
          message: "no NetworkPolicy found in the text",
        },
      ],
    };
  return { ok: true, policies, notes };
}

/** One line per issue: `line 14, column 24 (spec.egress[0].to[0].ipBlock.cidr): … `. */
export function formatPolicyIssue(issue: PolicyIssue): string {
  return `line ${issue.line}, column ${issue.column} (${issue.path}): ${issue.message}`;
}
