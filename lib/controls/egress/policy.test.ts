import { describe, expect, it, test } from "vitest";
import { DEMO_NETWORK_POLICY } from "@/lib/review/demo";
import { formatPolicyIssue, MAX_FLOW_NESTING, parseCidr, parseNetworkPolicies } from "./policy";

const policy = (egress: string, extra = "") => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: p
spec:
  podSelector: {}
${extra}  egress:
${egress}`;

const issuesOf = (text: string) => {
  const r = parseNetworkPolicies(text);
  if (r.ok) throw new Error("expected issues");
  return r.issues;
};

describe("[control:egress] parsing NetworkPolicy YAML", () => {
  it("reads the seed's flow-style maps and sequences", () => {
    const r = parseNetworkPolicies(DEMO_NETWORK_POLICY);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [p] = r.policies;
    expect(p?.restrictsEgress).toBe(true);
    expect(p?.egressRules[0]?.to).toEqual([
      {
        kind: "ipBlock",
        cidr: { text: "10.42.7.0/24", family: "ipv4", network: "10.42.7.0", prefix: 24 },
        except: [],
        text: "10.42.7.0/24",
      },
    ]);
    expect(p?.egressRules[0]?.ports).toEqual([
      { protocol: "TCP", port: 443, endPort: null, text: "TCP 443" },
    ]);
    expect(p?.egressRules[0]?.location).toMatchObject({ path: "spec.egress[0]", line: 14 });
  });

  it("accepts a List and multiple documents", () => {
    const one = policy("    - to: [{ ipBlock: { cidr: 10.0.0.0/8 } }]\n");
    const list = `apiVersion: v1\nkind: List\nitems:\n${one
      .split("\n")
      .map((l, i) => (i === 0 ? `  - ${l}` : `    ${l}`))
      .join("\n")}`;
    const r1 = parseNetworkPolicies(list);
    expect(r1.ok && r1.policies.length).toBe(1);
    const r2 = parseNetworkPolicies(`${one}---\n${one.replace("name: p", "name: q")}---\n`);
    expect(r2.ok && r2.policies.map((p) => p.name)).toEqual(["p", "q"]);
  });

  it("skips other kinds with a note, and rejects a text with no policy", () => {
    const r = parseNetworkPolicies(
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: d }\n---\n${DEMO_NETWORK_POLICY}`,
    );
    expect(r.ok).toBe(true);
    expect(r.notes[0]).toMatch(/skipped Deployment/);
    expect(issuesOf("apiVersion: apps/v1\nkind: Deployment\n")[0]?.message).toMatch(
      /no NetworkPolicy/,
    );
  });

  it("implies Egress from an egress section, and not without one", () => {
    const r = parseNetworkPolicies(policy("    - {}\n"));
    expect(r.ok && r.policies[0]?.restrictsEgress).toBe(true);
    const ingressOnly = parseNetworkPolicies(
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: i }\nspec:\n  podSelector: {}\n",
    );
    expect(ingressOnly.ok && ingressOnly.policies[0]?.restrictsEgress).toBe(false);
    const typed = parseNetworkPolicies(policy("    - {}\n", "  policyTypes: [Ingress]\n"));
    expect(typed.ok && typed.policies[0]?.restrictsEgress).toBe(false);
  });

  test.each([
    [
      "bad CIDR",
      "    - to: [{ ipBlock: { cidr: 10.42.7.0/33 } }]\n",
      "spec.egress[0].to[0].ipBlock.cidr",
      8,
      /not a valid CIDR/,
    ],
    [
      "not a CIDR",
      "    - to: [{ ipBlock: { cidr: 10.42.7.0 } }]\n",
      "spec.egress[0].to[0].ipBlock.cidr",
      8,
      /not a CIDR/,
    ],
    [
      "except outside the cidr",
      "    - to: [{ ipBlock: { cidr: 10.42.7.0/24, except: [10.43.0.0/16] } }]\n",
      "spec.egress[0].to[0].ipBlock.except[0]",
      8,
      /strict subset/,
    ],
    [
      "port out of range",
      "    - ports: [{ protocol: TCP, port: 70000 }]\n",
      "spec.egress[0].ports[0].port",
      8,
      /1–65535/,
    ],
    [
      "unknown protocol",
      "    - ports: [{ protocol: ICMP, port: 443 }]\n",
      "spec.egress[0].ports[0].protocol",
      8,
      /unknown protocol/,
    ],
    [
      "unknown field",
      "    - to: [{ ipblock: { cidr: 10.0.0.0/8 } }]\n",
      "spec.egress[0].to[0].ipblock",
      8,
      /unknown field "ipblock"/,
    ],
    [
      "endPort below port",
      "    - ports: [{ port: 443, endPort: 80 }]\n",
      "spec.egress[0].ports[0].endPort",
      8,
      /below port/,
    ],
  ])("%s: a clear error with line, column and field path", (_name, egress, path, line, message) => {
    const [issue] = issuesOf(policy(egress));
    expect(issue).toMatchObject({ path, line });
    expect(issue?.column).toBeGreaterThan(1);
    expect(issue?.message).toMatch(message);
    expect(formatPolicyIssue(issue!)).toMatch(new RegExp(`^line ${line}, column \\d+ \\(`));
  });

  it("locates the column of the offending value in a flow map", () => {
    const [issue] = issuesOf(policy("    - to: [{ ipBlock: { cidr: 300.1.1.1/24 } }]\n"));
    expect(issue).toMatchObject({ line: 8, column: 31 });
  });

  it("reports malformed YAML with its line and column", () => {
    const [issue] = issuesOf(
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nspec:\n  egress: [ { to: ]\n",
    );
    expect(issue?.path).toBe("(yaml)");
    expect(issue?.line).toBe(4);
  });

  it("names flow collections nested too deeply, where they go too deep, instead of overflowing the parser's stack", () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const [issue, ...rest] = issuesOf(
      `${policy("    - to: []\n")}---\n# the second document\nkind: NetworkPolicy\nspec:\n  podSelector: ${deep}\n`,
    );
    expect(rest).toEqual([]);
    expect(issue).toEqual({
      document: 1,
      path: "(yaml)",
      line: 13,
      column: 16 + MAX_FLOW_NESTING,
      message: `[ and { nest more than ${MAX_FLOW_NESTING} levels deep here; a NetworkPolicy needs about 10`,
    });
    expect(issuesOf(`{a: `.repeat(1000) + "1" + "}".repeat(1000))[0]).toMatchObject({
      line: 1,
      column: 4 * MAX_FLOW_NESTING + 1,
    });
  });

  it("counts no bracket inside a comment or a quoted string toward that depth", () => {
    const many = "[{".repeat(MAX_FLOW_NESTING);
    const r = parseNetworkPolicies(
      policy("    - to: [{ ipBlock: { cidr: 10.0.0.0/8 } }]\n", `  # ${many}\n`).replace(
        "name: p",
        `name: p\n  annotations:\n    note: '${many}'`,
      ),
    );
    expect(r.ok ? [] : r.issues.map(formatPolicyIssue)).toEqual([]);
  });

  it("requires spec.podSelector and the right apiVersion", () => {
    const noSelector = issuesOf(
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nspec:\n  egress: []\n",
    );
    expect(noSelector.map((i) => i.path)).toContain("spec.podSelector");
    expect(issuesOf(DEMO_NETWORK_POLICY.replace("networking.k8s.io/v1", "v1"))[0]?.message).toMatch(
      /apiVersion/,
    );
  });

  test.each([
    ["10.42.7.0/24", "10.42.7.0", 24],
    ["10.42.7.9/24", "10.42.7.0", 24],
    ["0.0.0.0/0", "0.0.0.0", 0],
    ["2001:db8::/32", "2001:db8::", 32],
  ])("parseCidr(%s) normalises to %s/%d", (text, network, prefix) => {
    expect(parseCidr(text)).toMatchObject({ network, prefix });
  });

  test.each(["10.42.7/24", "1.2.3.4/40", "abc/8", "10.0.0.0/-1"])(
    "parseCidr rejects %s",
    (text) => {
      expect(parseCidr(text)).toHaveProperty("error");
    },
  );
});
