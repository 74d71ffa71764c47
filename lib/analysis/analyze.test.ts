import { describe, expect, it } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { ControlsSchema, ReviewSchema, type Review, type ReviewInput } from "@/lib/review/schema";
import { NOT_CONTROLS } from "@/lib/controls/catalog";
import { analyzeReview, MAX_PATHS_LISTED_PER_AGENT, type Analysis } from "./analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { SEED_CONTROLS } from "@/tests/support/seed-controls";

const analyse = (review: Review): Analysis => analyzeReview(review, toolListsFromReview(review));
const review = (input: Omit<ReviewInput, "schemaVersion" | "title">): Review =>
  ReviewSchema.parse({ schemaVersion: 2, title: "t", ...input });
const findingIds = (a: Analysis) => a.findings.map((f) => `${f.id} ${f.severity} ${f.why.summary}`);

const manual = { kind: "manual" as const };
const openPortal = { internalAccounts: 0, externalAccounts: 10, selfServiceSignupOpen: true };

describe("union property", () => {
  it("text returned by one server's tool reaches every sink in the agent, whichever server each came from", () => {
    const r = review({
      servers: [
        {
          id: "kb",
          name: "kb",
          transport: manual,
          declaredTools: [{ name: "search", annotations: { readOnlyHint: true } }],
        },
        {
          id: "deploy",
          name: "deploy",
          transport: manual,
          declaredTools: [{ name: "trigger_deploy" }],
        },
        { id: "drive", name: "drive", transport: manual, declaredTools: [{ name: "share_file" }] },
      ],
      sources: [{ id: "portal", name: "portal", writers: openPortal }],
      tools: [
        {
          serverId: "kb",
          tool: "search",
          sourceIds: ["portal"],
          roles: ["returns_untrusted_text"],
          rolesConfirmed: true,
        },
        {
          serverId: "deploy",
          tool: "trigger_deploy",
          roles: ["deploys_or_destroys"],
          rolesConfirmed: true,
        },
        {
          serverId: "drive",
          tool: "share_file",
          roles: ["network_or_shares", "reads_private_data"],
          rolesConfirmed: true,
        },
      ],
      agents: [
        {
          id: "a",
          name: "a",
          tools: [
            { serverId: "kb", tool: "search" },
            { serverId: "deploy", tool: "trigger_deploy" },
            { serverId: "drive", tool: "share_file" },
          ],
        },
      ],
    });
    const a = analyse(r);
    expect(a.paths.listed.map((p) => p.sink)).toEqual([
      "deploy/trigger_deploy",
      "drive/share_file",
    ]);
    expect(a.agents[0]?.trifecta.met).toBe(true);
    expect(a.agents[0]?.ruleOfTwo).toMatchObject({ count: 4, violated: true });
    expect(a.findings.map((f) => f.kind)).toEqual(
      expect.arrayContaining([
        "path.to_sensitive_sink",
        "agent.lethal_trifecta",
        "agent.rule_of_two",
      ]),
    );
  });

  it("the Rule of Two's finding cites each tool's role once, though deploying is both sensitive and a state change", () => {
    const r = review({
      servers: [{ id: "kb", name: "kb", transport: manual }],
      sources: [{ id: "portal", name: "portal", writers: openPortal }],
      tools: [
        {
          serverId: "kb",
          tool: "search",
          sourceIds: ["portal"],
          roles: ["returns_untrusted_text"],
          rolesConfirmed: true,
        },
        {
          serverId: "kb",
          tool: "release",
          roles: ["writes", "deploys_or_destroys"],
          rolesConfirmed: true,
        },
        {
          serverId: "kb",
          tool: "mail",
          roles: ["reads_private_data", "network_or_shares"],
          rolesConfirmed: true,
        },
      ],
      agents: [
        {
          id: "a",
          name: "a",
          tools: [
            { serverId: "kb", tool: "search" },
            { serverId: "kb", tool: "release" },
            { serverId: "kb", tool: "mail" },
          ],
        },
      ],
    });
    const rule = analyse(r).findings.find((f) => f.kind === "agent.rule_of_two");
    // Untrusted input, then the sensitive tools (held in key order), then state change, then outbound.
    expect(rule?.why.roles.map((e) => `${e.tool} ${e.role}`)).toEqual([
      "kb/search returns_untrusted_text",
      "kb/mail reads_private_data",
      "kb/release deploys_or_destroys",
      "kb/release writes",
      "kb/mail network_or_shares",
    ]);
  });

  it("a returning tool whose sources are all inside the boundary heads no path", () => {
    const r = review({
      servers: [{ id: "kb", name: "kb", transport: manual }],
      sources: [{ id: "wiki", name: "wiki", writers: { internalAccounts: 5 } }],
      tools: [
        {
          serverId: "kb",
          tool: "read",
          sourceIds: ["wiki"],
          roles: ["returns_untrusted_text"],
          rolesConfirmed: true,
        },
        { serverId: "kb", tool: "write", roles: ["writes"], rolesConfirmed: true },
      ],
      agents: [
        {
          id: "a",
          name: "a",
          tools: [
            { serverId: "kb", tool: "read" },
            { serverId: "kb", tool: "write" },
          ],
        },
      ],
    });
    expect(analyse(r).paths.total).toBe(0);
  });
});

describe("from hand-entered tools alone", () => {
  const r = review({
    servers: [
      {
        id: "kb",
        name: "kb",
        transport: manual,
        declaredTools: [
          {
            name: "search_tickets",
            description: "Search tickets",
            annotations: { readOnlyHint: true },
          },
          { name: "deploy_release" },
        ],
      },
    ],
    agents: [
      {
        id: "a",
        name: "a",
        tools: [
          { serverId: "kb", tool: "search_tickets" },
          { serverId: "kb", tool: "deploy_release" },
        ],
      },
    ],
  });
  const a = analyse(r);

  it("uses suggested roles, with an unmapped head whose writers are unknown", () => {
    // deploy_release has no annotations, but its name deploys: it is a sink and not suggested as returning text.
    expect(a.paths.total).toBe(1);
    expect(a.paths.listed.find((p) => p.returningTool === "kb/search_tickets")).toMatchObject({
      id: "path:a:unmapped:kb/search_tickets:kb/search_tickets->kb/deploy_release",
      reliesOnSuggestions: true,
      head: { boundLabel: "unknown writers (no source mapped)" },
    });
    expect(
      a.findings.find((f) => f.kind === "path.to_sensitive_sink")?.why.reliesOnSuggestions,
    ).toBe(true);
    expect(a.findings.map((f) => f.kind)).toEqual(
      expect.arrayContaining(["roles.unconfirmed", "tools.unmapped_sources"]),
    );
  });

  it("records every place it relied on an unconfirmed suggestion", () => {
    expect(a.reliance.map((e) => [e.tool, e.agents, e.usedAs])).toEqual([
      // A deploy puts code where it runs with network access (tests/corpus README, N), so the
      // suggestion is outbound too.
      [
        "kb/deploy_release",
        ["a"],
        ["sensitive sink (writes, deploys_or_destroys, network_or_shares)"],
      ],
      // Issue 32: a ticket search reads the tenant's tickets, so private data is suggested too.
      ["kb/search_tickets", ["a"], ["reads private data", "returns untrusted text"]],
    ]);
  });

  it("prefers the snapshot's tool list when one is given", () => {
    const lists = toolListsFromReview(r, {
      kb: [{ name: "search_tickets", description: "", annotations: { readOnlyHint: true } }],
    });
    expect(lists[0]?.origin).toBe("snapshot");
    const b = analyzeReview(r, lists);
    expect(b.tools.find((t) => t.key === "kb/deploy_release")?.presence).toBe("not_listed");
    expect(b.findings.map((f) => f.kind)).toContain("tools.not_listed");
  });
});

describe("a server's hidden characters", () => {
  it("are revealed in the graph's labels and the findings' sentences, and kept as sent in keys", () => {
    const hostile = "read\u202Eyolped_reggirt"; // reads as "read" then "trigger_deploy" reversed
    const r = review({
      servers: [
        {
          id: "kb",
          name: "kb",
          transport: manual,
          declaredTools: [
            { name: hostile, annotations: { readOnlyHint: true } },
            { name: "trigger_deploy" },
          ],
        },
      ],
      sources: [{ id: "portal", name: "portal", writers: openPortal }],
      tools: [
        {
          serverId: "kb",
          tool: hostile,
          sourceIds: ["portal"],
          roles: ["returns_untrusted_text"],
          rolesConfirmed: true,
        },
        {
          serverId: "kb",
          tool: "trigger_deploy",
          roles: ["deploys_or_destroys"],
          rolesConfirmed: true,
        },
      ],
      agents: [
        {
          id: "a",
          name: "a",
          tools: [
            { serverId: "kb", tool: hostile },
            { serverId: "kb", tool: "trigger_deploy" },
          ],
        },
      ],
    });
    const a = analyse(r);
    const shown = "read⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧yolped_reggirt";
    expect(a.graph.nodes.find((n) => n.kind === "returning")?.label).toBe(shown);
    expect(a.findings.find((f) => f.kind === "path.to_sensitive_sink")?.why.summary).toContain(
      `${shown} returns text from portal`,
    );
    expect(a.findings.find((f) => f.kind === "separation.holds_both")?.why.summary).toContain(
      shown,
    );
    for (const f of a.findings) expect(`${f.title} ${f.why.summary}`).not.toContain("\u202E");
    expect(a.tools.find((t) => t.name === hostile)?.key).toBe(`kb/${hostile}`);
  });
});

describe("prose is not a control", () => {
  it("[not-control:statement_of_intent] adding or removing a statement of intent changes no finding", () => {
    const demo = createDemoReview();
    const base = findingIds(analyse(demo));
    const none = findingIds(
      analyse({ ...demo, controls: { ...demo.controls, statementsOfIntent: [] } }),
    );
    const more = findingIds(
      analyse({
        ...demo,
        controls: {
          ...demo.controls,
          statementsOfIntent: [
            ...demo.controls.statementsOfIntent,
            { text: "Never deploy from a ticket.", where: "wiki" },
          ],
        },
      }),
    );
    expect(none).toEqual(base);
    expect(more).toEqual(base);
    expect(analyse(demo).controls.residue).toEqual(
      analyse({ ...demo, controls: { ...demo.controls, statementsOfIntent: [] } }).controls.residue,
    );
  });

  it("[not-control:maintainer_reputation] a server's reputation in its notes changes no finding", () => {
    const demo = createDemoReview();
    const sloppy = {
      ...demo,
      servers: demo.servers.map((s) => ({ ...s, notes: "Unknown maintainer, no tests." })),
    };
    expect(findingIds(analyse(sloppy))).toEqual(findingIds(analyse(demo)));
  });

  it("[not-control:detection_flags] detection is never counted as a control", () => {
    const a = analyse(createDemoReview());
    expect(a.controls.notControls.map((c) => c.id)).toContain("detection_flags");
    expect(NOT_CONTROLS.find((c) => c.id === "detection_flags")?.reason).toMatch(/where to look/);
    const evaluated = [
      ...a.controls.credentials,
      ...a.controls.egress,
      ...a.controls.approvals,
      a.controls.separation,
    ].map((c) => c.controlId);
    expect(evaluated).not.toContain("detection_flags");
  });
});

describe("[control:egress] [control:credential] [control:approval] controls absent or unreadable", () => {
  it("a relay server with no credential or egress, and an agent with sinks but no approval, have those controls absent", () => {
    const demo = createDemoReview();
    const a = analyzeReview(
      { ...demo, controls: ControlsSchema.parse({}) },
      toolListsFromReview(demo),
      SEED_CONTROLS,
    );
    expect(
      a.controls.absent.map(
        (c) =>
          `${c.controlId}:${c.scope.kind === "server" ? c.scope.serverId : c.scope.kind === "agent" ? c.scope.agentId : ""}`,
      ),
    ).toEqual(["credential:knowledge-mcp", "egress:knowledge-mcp", "approval:on-call"]);
    expect(a.controls.residue.text).toBe(
      "a payload in the source or on any host the server can fetch from, with a way out to any host, behind a server token that can do more than read, reaching every tool in the session, trigger_deploy among them, with no person in front of the sink call",
    );
  });

  it("a malformed policy cannot be evaluated, and says where", () => {
    const demo = createDemoReview();
    const bad = demo.controls.egress[0]!.policyYaml.replace("10.42.7.0/24", "10.42.7.0/33");
    const a = analyse({
      ...demo,
      controls: { ...demo.controls, egress: [{ serverId: demo.servers[0]!.id, policyYaml: bad }] },
    });
    expect(a.controls.egress[0]?.status).toBe("cannot_evaluate");
    expect(
      a.findings.find((f) => f.kind === "egress.cannot_evaluate")?.why.config[0],
    ).toMatchObject({ line: 15 });
  });
});

describe("output", () => {
  it("is deterministic and JSON-serialisable", () => {
    const a = analyse(createDemoReview());
    expect(analyse(createDemoReview())).toEqual(a);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  });

  it("gives every finding an id, a severity and a why", () => {
    const a = analyse(createDemoReview());
    expect(new Set(a.findings.map((f) => f.id)).size).toBe(a.findings.length);
    for (const f of a.findings) expect(f.why.summary.length).toBeGreaterThan(0);
  });

  it("lists every control finding in the top-level findings, and does not repeat them as an aggregate under controls", () => {
    const a = analyse(createDemoReview());
    const c = a.controls;
    const perControl = [
      ...c.credentials,
      ...c.egress,
      c.separation,
      ...c.approvals,
      ...c.absent,
    ].flatMap((e) => e.findings);
    expect(perControl.length).toBeGreaterThan(0);
    const ids = new Set(a.findings.map((f) => f.id));
    for (const f of perControl) expect(ids.has(f.id), f.id).toBe(true);
    expect(
      a.findings
        .filter((f) => f.controlId !== null)
        .map((f) => f.id)
        .sort(),
    ).toEqual(perControl.map((f) => f.id).sort());
    expect(Object.keys(c)).not.toContain("findings");
  });

  it("every path's nodes and edges exist in the graph", () => {
    const a = analyse(createDemoReview());
    const nodes = new Set(a.graph.nodes.map((n) => n.id));
    const edges = new Map(a.graph.edges.map((e) => [e.id, e]));
    expect(nodes.size).toBe(a.graph.nodes.length);
    for (const p of a.paths.listed) {
      for (const n of p.nodeIds) expect(nodes.has(n)).toBe(true);
      for (const e of p.edgeIds) expect(edges.get(e)?.onPath).toBe(true);
    }
  });

  it("counts every path exactly and lists up to the bound, reporting truncation as a value", () => {
    const sources = Array.from({ length: 30 }, (_, i) => ({
      id: `s${i}`,
      name: `s${i}`,
      writers: openPortal,
    }));
    const readers = Array.from({ length: 20 }, (_, i) => ({
      serverId: "kb",
      tool: `read${i}`,
      sourceIds: sources.map((s) => s.id),
      roles: ["returns_untrusted_text" as const],
      rolesConfirmed: true,
    }));
    const sinks = Array.from({ length: 10 }, (_, i) => ({
      serverId: "kb",
      tool: `write${i}`,
      roles: ["writes" as const],
      rolesConfirmed: true,
    }));
    const r = review({
      servers: [{ id: "kb", name: "kb", transport: manual }],
      sources,
      tools: [...readers, ...sinks],
      agents: [
        {
          id: "a",
          name: "a",
          tools: [...readers, ...sinks].map((t) => ({ serverId: "kb", tool: t.tool })),
        },
      ],
    });
    const a = analyse(r);
    expect(a.paths.total).toBe(30 * 20 * 10);
    expect(a.paths.listed.length).toBe(MAX_PATHS_LISTED_PER_AGENT);
    expect(a.paths.truncated).toBe(true);
    expect(a.findings.filter((f) => f.kind === "path.to_sensitive_sink")).toHaveLength(1);
  });
});

describe("annotation claims that contradict the name", () => {
  const r = review({
    servers: [
      {
        id: "srv-15f31645b5b2",
        name: "GitLab",
        transport: manual,
        declaredTools: [
          { name: "delete_branch", annotations: { readOnlyHint: true } },
          { name: "search_issues", annotations: { readOnlyHint: true } },
          { name: "list_jobs", annotations: { destructiveHint: true } },
        ],
      },
    ],
    tools: [
      {
        serverId: "srv-15f31645b5b2",
        tool: "delete_branch",
        roles: ["deploys_or_destroys"],
        rolesConfirmed: true,
      },
    ],
    agents: [
      {
        id: "a",
        name: "a",
        tools: [
          { serverId: "srv-15f31645b5b2", tool: "delete_branch" },
          { serverId: "srv-15f31645b5b2", tool: "list_jobs" },
        ],
      },
    ],
  });
  const a = analyse(r);
  const conflicts = a.findings.filter((f) => f.kind === "tools.annotation_contradicts_name");

  it("are findings naming the server and the tool by name, the hint, the claim and the name's reading, confirmed or not", () => {
    expect(conflicts.map((f) => f.title)).toEqual([
      "GitLab claims readOnlyHint: true for delete_branch, which its name contradicts",
      "GitLab claims destructiveHint: true for list_jobs, which its name contradicts",
    ]);
    expect(conflicts[0]?.why.summary).toContain('the name\'s verb "delete" deletes');
    for (const f of conflicts)
      expect(`${f.title} ${f.why.summary}`).not.toContain("srv-15f31645b5b2");
    expect(conflicts[0]?.subject).toEqual({
      serverId: "srv-15f31645b5b2",
      tool: "srv-15f31645b5b2/delete_branch",
    });
  });

  it("keep the safer reading, and the tool's JSON entry carries them with its verb and confidence", () => {
    const listJobs = a.tools.find((t) => t.name === "list_jobs")!;
    expect(listJobs.sinkRoles).toEqual(["deploys_or_destroys"]);
    expect(listJobs.verb).toBe("list");
    expect(listJobs.conflicts).toMatchObject([{ hint: "destructiveHint", claimed: true }]);
    expect(listJobs.suggestionConfidence).toBeLessThanOrEqual(0.6);
    const search = a.tools.find((t) => t.name === "search_issues")!;
    expect(search).toMatchObject({ verb: "search", conflicts: [], sinkRoles: [] });
    expect(search.suggestionConfidence).toBeGreaterThan(listJobs.suggestionConfidence);
  });
});
