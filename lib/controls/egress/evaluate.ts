/**
 * What a set of NetworkPolicies admits, with real CIDR arithmetic (ipaddr.js). Kubernetes semantics:
 * once any policy restricts egress for a pod, only connections some restricting policy's rule admits
 * are allowed (rules and policies are a union); a policy whose policyTypes omit Egress restricts
 * nothing. All policies in one text are taken to select the server's pods.
 *
 * Shape rules (docs/analysis.md § Controls, Egress): a rule with no `to`, or an ipBlock that is the whole address
 * space, is default-allow; a broad ipBlock with `except` is a denylist; everything else is an
 * allowlist, and only an allowlist denies an unlisted destination by construction.
 *
 * Destinations are evaluated as external addresses. podSelector / namespaceSelector peers name
 * in-cluster pods; they cannot be evaluated for an external IP and are treated as not matching it.
 */
import ipaddr from "ipaddr.js";
import type { Cidr, EgressPeer, EgressPort, EgressRule, NetworkPolicy, Protocol } from "./policy";

/**
 * An IPv4 block shorter than /8 is wider than the largest private range (10.0.0.0/8): it is not an
 * enumerated destination but a slice of the internet. For IPv6, /7 is the unique-local range.
 */
export const BROAD_IPV4_MAX_PREFIX = 7;
export const BROAD_IPV6_MAX_PREFIX = 6;

export type RuleRef = {
  policy: string;
  ruleIndex: number;
  document: number;
  path: string;
  line: number;
  column: number;
};

export type RuleShape = "allowlist" | "denylist" | "default_allow";

export type EgressShape =
  | { kind: "allowlist"; deniesUnlistedByConstruction: true; reason: string }
  | {
      kind: "denylist" | "default_allow" | "not_restricting";
      deniesUnlistedByConstruction: false;
      reason: string;
      rules: RuleRef[];
    };

export type AdmittedDestination = {
  rule: RuleRef;
  shape: RuleShape;
  to: string[];
  ports: string[];
};

export type Destination = {
  host?: string;
  ip?: string;
  port: number;
  protocol?: Protocol;
  resolvedIps?: string[];
};

export type IpVerdict = {
  ip: string;
  outcome: "allowed" | "denied";
  matchedRule: RuleRef | null;
  reason: string;
  notes: string[];
};

export type WouldAllowResult =
  | {
      outcome: "allowed" | "denied";
      destination: string;
      matchedRule: RuleRef | null;
      reason: string;
      notes: string[];
    }
  | {
      outcome: "depends_on_dns";
      destination: string;
      reason: string;
      /** Verdicts for the resolved addresses given, if any. */
      resolved: IpVerdict[];
      /** Overall verdict over `resolved`; null when no addresses were given. */
      ifResolved: "allowed" | "denied" | "mixed" | null;
      notes: string[];
    }
  | { outcome: "invalid_destination"; destination: string; reason: string };

export function ruleRef(rule: EgressRule): RuleRef {
  return {
    policy: rule.policyName,
    ruleIndex: rule.index,
    document: rule.location.document,
    path: rule.location.path,
    line: rule.location.line,
    column: rule.location.column,
  };
}

const isBroad = (c: Cidr) =>
  c.prefix <= (c.family === "ipv4" ? BROAD_IPV4_MAX_PREFIX : BROAD_IPV6_MAX_PREFIX);

/** The shape of one rule: whether it enumerates destinations or admits everything not named. */
export function ruleShape(rule: EgressRule): RuleShape {
  if (rule.to === null) return "default_allow";
  let shape: RuleShape = "allowlist";
  for (const peer of rule.to) {
    if (peer.kind !== "ipBlock" || !isBroad(peer.cidr)) continue;
    if (peer.except.length === 0) return "default_allow";
    shape = "denylist";
  }
  return shape;
}

const restricting = (policies: readonly NetworkPolicy[]) =>
  policies.filter((p) => p.restrictsEgress);

/** Classify what the policies admit. */
export function classifyEgress(policies: readonly NetworkPolicy[]): EgressShape {
  const active = restricting(policies);
  if (active.length === 0) {
    return {
      kind: "not_restricting",
      deniesUnlistedByConstruction: false,
      reason:
        policies.map((p) => `${p.name}: ${p.restrictsEgressReason}`).join("; ") || "no policy",
      rules: [],
    };
  }
  const rules = active.flatMap((p) => p.egressRules);
  const open = rules.filter((r) => ruleShape(r) === "default_allow");
  if (open.length > 0) {
    return {
      kind: "default_allow",
      deniesUnlistedByConstruction: false,
      reason: `${open.map((r) => `${r.policyName} ${r.location.path}`).join(", ")} admit${open.length === 1 ? "s" : ""} every destination${open.every((r) => r.to === null) ? " (no `to`)" : " (an ipBlock covering the whole address space or a broad slice of it)"}`,
      rules: open.map(ruleRef),
    };
  }
  const deny = rules.filter((r) => ruleShape(r) === "denylist");
  if (deny.length > 0) {
    return {
      kind: "denylist",
      deniesUnlistedByConstruction: false,
      reason: `${deny.map((r) => `${r.policyName} ${r.location.path}`).join(", ")} admit${deny.length === 1 ? "s" : ""} a broad range minus its except list: anything not named is allowed`,
      rules: deny.map(ruleRef),
    };
  }
  return {
    kind: "allowlist",
    deniesUnlistedByConstruction: true,
    reason:
      rules.length === 0
        ? "egress is restricted and no rule admits anything: all egress is denied"
        : `egress is restricted to ${rules.length} enumerated rule${rules.length === 1 ? "" : "s"}; everything else is denied by construction`,
  };
}

/** Every destination the policies admit, rule by rule. Empty when egress is not restricted (see `classifyEgress`). */
export function admittedDestinations(policies: readonly NetworkPolicy[]): AdmittedDestination[] {
  return restricting(policies).flatMap((p) =>
    p.egressRules.map((rule) => ({
      rule: ruleRef(rule),
      shape: ruleShape(rule),
      to: rule.to === null ? ["any destination"] : rule.to.map((peer) => peer.text),
      ports:
        rule.ports === null ? ["all ports, all protocols"] : rule.ports.map((port) => port.text),
    })),
  );
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

function parseIp(text: string): Addr | null {
  const t = text.trim().replace(/^\[(.*)\]$/, "$1");
  if (ipaddr.IPv4.isValidFourPartDecimal(t)) return ipaddr.IPv4.parse(t);
  if (!t.includes(".") || t.includes(":")) {
    if (ipaddr.IPv6.isValid(t)) {
      const v6 = ipaddr.IPv6.parse(t);
      return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
    }
  }
  return null;
}

function inCidr(ip: Addr, c: Cidr): boolean {
  if (ip.kind() !== c.family) return false;
  return ip.match(ipaddr.parse(c.network), c.prefix);
}

function portMatches(
  ports: EgressPort[] | null,
  port: number,
  protocol: Protocol,
  notes: string[],
): boolean {
  if (ports === null) return true;
  return ports.some((p) => {
    if (p.protocol !== protocol) return false;
    if (p.port === null) return true;
    if (typeof p.port === "string") {
      notes.push(
        `named port ${p.port} resolves against destination pods' container ports; it cannot match an external address`,
      );
      return false;
    }
    return p.endPort === null ? p.port === port : port >= p.port && port <= p.endPort;
  });
}

function peerMatches(peers: EgressPeer[] | null, ip: Addr, notes: string[]): boolean {
  if (peers === null) return true;
  return peers.some((peer) => {
    if (peer.kind === "selector") {
      notes.push(
        `${peer.text}: a selector peer names in-cluster pods and cannot be evaluated for an external address; treated as not matching`,
      );
      return false;
    }
    return inCidr(ip, peer.cidr) && !peer.except.some((e) => inCidr(ip, e));
  });
}

function evaluateIp(
  policies: readonly NetworkPolicy[],
  ip: Addr,
  port: number,
  protocol: Protocol,
): IpVerdict {
  const text = ip.toString();
  const active = restricting(policies);
  if (active.length === 0) {
    return {
      ip: text,
      outcome: "allowed",
      matchedRule: null,
      reason: "no policy restricts egress, so every destination is allowed",
      notes: [],
    };
  }
  const notes: string[] = [];
  for (const policy of active) {
    for (const rule of policy.egressRules) {
      if (portMatches(rule.ports, port, protocol, notes) && peerMatches(rule.to, ip, notes)) {
        return {
          ip: text,
          outcome: "allowed",
          matchedRule: ruleRef(rule),
          reason: `admitted by ${policy.name} ${rule.location.path} (line ${rule.location.line})`,
          notes: [...new Set(notes)],
        };
      }
    }
  }
  return {
    ip: text,
    outcome: "denied",
    matchedRule: null,
    reason: `no egress rule admits ${text} on ${protocol} ${port}`,
    notes: [...new Set(notes)],
  };
}

/**
 * Would a connection to this destination be allowed? An IP (or an IP given as `host`) is evaluated
 * directly. A hostname depends on DNS resolution: unless a rule admits every destination on the
 * port, the answer is `depends_on_dns`, with a verdict for each address in `resolvedIps`.
 */
export function wouldAllow(
  policies: readonly NetworkPolicy[],
  destination: Destination,
): WouldAllowResult {
  const protocol = destination.protocol ?? "TCP";
  const target = destination.ip ?? destination.host ?? "";
  const label = `${target}:${destination.port}/${protocol}`;
  if (!Number.isInteger(destination.port) || destination.port < 1 || destination.port > 65535) {
    return {
      outcome: "invalid_destination",
      destination: label,
      reason: "port must be a whole number from 1 to 65535",
    };
  }
  const ip = parseIp(target);
  if (ip) {
    const v = evaluateIp(policies, ip, destination.port, protocol);
    return {
      outcome: v.outcome,
      destination: label,
      matchedRule: v.matchedRule,
      reason: v.reason,
      notes: v.notes,
    };
  }
  if (
    destination.ip !== undefined ||
    !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(target)
  ) {
    return {
      outcome: "invalid_destination",
      destination: label,
      reason: `${JSON.stringify(target)} is neither an IP address nor a hostname`,
    };
  }
  const active = restricting(policies);
  if (active.length === 0) {
    return {
      outcome: "allowed",
      destination: label,
      matchedRule: null,
      reason:
        "no policy restricts egress, so every destination is allowed whatever the name resolves to",
      notes: [],
    };
  }
  for (const policy of active) {
    for (const rule of policy.egressRules) {
      if (rule.to === null && portMatches(rule.ports, destination.port, protocol, [])) {
        return {
          outcome: "allowed",
          destination: label,
          matchedRule: ruleRef(rule),
          reason: `${policy.name} ${rule.location.path} admits every destination on this port, whatever the name resolves to`,
          notes: [],
        };
      }
    }
  }
  const resolved: IpVerdict[] = [];
  const invalid: string[] = [];
  for (const r of destination.resolvedIps ?? []) {
    const a = parseIp(r);
    if (a) resolved.push(evaluateIp(policies, a, destination.port, protocol));
    else invalid.push(r);
  }
  const allowed = resolved.filter((v) => v.outcome === "allowed").length;
  const ifResolved =
    resolved.length === 0
      ? null
      : allowed === resolved.length
        ? "allowed"
        : allowed === 0
          ? "denied"
          : "mixed";
  return {
    outcome: "depends_on_dns",
    destination: label,
    reason: `${target} is a hostname: the policy matches addresses, so the verdict depends on what it resolves to${resolved.length ? `; for the ${resolved.length} address(es) given it is ${ifResolved}` : ""}`,
    resolved,
    ifResolved,
    notes: invalid.map((i) => `${JSON.stringify(i)} is not an IP address and was ignored`),
  };
}
