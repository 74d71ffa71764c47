import { describe, expect, it, test } from "vitest";
import { DEMO_NETWORK_POLICY } from "@/lib/review/demo";
import { admittedDestinations, classifyEgress, wouldAllow } from "./evaluate";
import { parseNetworkPolicies, type NetworkPolicy } from "./policy";

const load = (text: string): NetworkPolicy[] => {
  const r = parseNetworkPolicies(text);
  if (!r.ok) throw new Error(r.issues.map((i) => i.message).join("; "));
  return r.policies;
};
const withEgress = (egress: string) =>
  load(
    `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: p }\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n  egress:\n${egress}`,
  );

const seed = load(DEMO_NETWORK_POLICY);

describe("[control:egress] classifying a policy", () => {
  test.each([
    ["the seed's allowlist", DEMO_NETWORK_POLICY, "allowlist", true],
    [
      "a rule with no to",
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: p }\nspec:\n  podSelector: {}\n  egress:\n    - ports: [{ port: 443 }]\n",
      "default_allow",
      false,
    ],
    [
      "0.0.0.0/0",
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: p }\nspec:\n  podSelector: {}\n  egress:\n    - to: [{ ipBlock: { cidr: 0.0.0.0/0 } }]\n",
      "default_allow",
      false,
    ],
    [
      "0.0.0.0/0 minus private ranges",
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: p }\nspec:\n  podSelector: {}\n  egress:\n    - to: [{ ipBlock: { cidr: 0.0.0.0/0, except: [10.0.0.0/8, 169.254.169.254/32] } }]\n",
      "denylist",
      false,
    ],
    [
      "Ingress only",
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: p }\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n",
      "not_restricting",
      false,
    ],
    [
      "deny all",
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: p }\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n",
      "allowlist",
      true,
    ],
  ])("%s is %s (denies unlisted by construction: %s)", (_name, text, kind, denies) => {
    const shape = classifyEgress(load(text));
    expect(shape.kind).toBe(kind);
    expect(shape.deniesUnlistedByConstruction).toBe(denies);
  });

  it("lists admitted destinations rule by rule", () => {
    const admitted = admittedDestinations(seed);
    expect(admitted.map(({ shape, to, ports }) => ({ shape, to, ports }))).toEqual([
      { shape: "allowlist", to: ["10.42.7.0/24"], ports: ["TCP 443"] },
    ]);
    expect(admitted[0]?.rule).toMatchObject({
      policy: "knowledge-mcp-egress",
      ruleIndex: 0,
      line: 14,
    });
  });
});

describe("[control:egress] wouldAllow", () => {
  test.each([
    ["10.42.7.1", 443, "TCP", "allowed"],
    ["10.42.7.255", 443, "TCP", "allowed"],
    ["10.42.6.255", 443, "TCP", "denied"],
    ["10.42.7.1", 8443, "TCP", "denied"],
    ["93.184.216.34", 443, "TCP", "denied"],
    ["::ffff:10.42.7.1", 443, "TCP", "allowed"],
    ["2001:db8::1", 443, "TCP", "denied"],
  ] as const)("seed policy: %s:%d/%s is %s", (ip, port, protocol, outcome) => {
    expect(wouldAllow(seed, { ip, port, protocol }).outcome).toBe(outcome);
  });

  it("names the rule that matched", () => {
    const r = wouldAllow(seed, { host: "10.42.7.3", port: 443 });
    expect(r.outcome === "allowed" && r.matchedRule).toMatchObject({
      policy: "knowledge-mcp-egress",
      path: "spec.egress[0]",
    });
  });

  it("except carves addresses out of a denylist; everything else gets out", () => {
    const p = withEgress("    - to: [{ ipBlock: { cidr: 0.0.0.0/0, except: [10.0.0.0/8] } }]\n");
    expect(wouldAllow(p, { ip: "10.1.2.3", port: 443 }).outcome).toBe("denied");
    expect(wouldAllow(p, { ip: "93.184.216.34", port: 443 }).outcome).toBe("allowed");
  });

  it("port ranges with endPort", () => {
    const p = withEgress(
      "    - to: [{ ipBlock: { cidr: 10.0.0.0/8 } }]\n      ports: [{ protocol: TCP, port: 8000, endPort: 8080 }]\n",
    );
    expect(wouldAllow(p, { ip: "10.0.0.1", port: 8080 }).outcome).toBe("allowed");
    expect(wouldAllow(p, { ip: "10.0.0.1", port: 8081 }).outcome).toBe("denied");
  });

  it("a hostname depends on DNS; given resolved addresses, each is evaluated", () => {
    const r = wouldAllow(seed, {
      host: "tracker.internal",
      port: 443,
      resolvedIps: ["10.42.7.20", "93.184.216.34"],
    });
    expect(r.outcome).toBe("depends_on_dns");
    if (r.outcome !== "depends_on_dns") return;
    expect(r.resolved.map((v) => v.outcome)).toEqual(["allowed", "denied"]);
    expect(r.ifResolved).toBe("mixed");
    expect(wouldAllow(seed, { host: "example.com", port: 443 })).toMatchObject({
      outcome: "depends_on_dns",
      ifResolved: null,
    });
  });

  it("a rule with no `to` admits a hostname whatever it resolves to", () => {
    const p = withEgress("    - ports: [{ port: 443 }]\n");
    expect(wouldAllow(p, { host: "example.com", port: 443 }).outcome).toBe("allowed");
  });

  it("selector peers are in-cluster: not evaluated for an external IP, and said so", () => {
    const p = withEgress("    - to: [{ namespaceSelector: { matchLabels: { team: atlas } } }]\n");
    const r = wouldAllow(p, { ip: "93.184.216.34", port: 443 });
    expect(r.outcome).toBe("denied");
    expect(r.outcome === "denied" && r.notes.join(" ")).toMatch(
      /cannot be evaluated for an external address/,
    );
    expect(classifyEgress(p).kind).toBe("allowlist");
  });

  it("a policy that does not restrict egress allows everything", () => {
    const p = load(
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: p }\nspec:\n  podSelector: {}\n",
    );
    expect(wouldAllow(p, { ip: "93.184.216.34", port: 443 }).outcome).toBe("allowed");
  });

  test.each([
    [{ ip: "10.42.7.1", port: 0 }],
    [{ ip: "10.42.7.1", port: 70000 }],
    [{ ip: "not an ip", port: 443 }],
    [{ host: "bad host!", port: 443 }],
  ])("an invalid destination is a value, not a throw: %j", (dest) => {
    expect(wouldAllow(seed, dest).outcome).toBe("invalid_destination");
  });
});
