import { expect, test } from "vitest";
import {
  addSample,
  bulkRoleAssessments,
  editedRoles,
  setToolsHeld,
  upsertById,
  upsertToolAssessments,
} from "@/lib/review/edit";
import type { SourceId } from "@/lib/ids";
import type { SampleEvidence, ToolAssessment, ToolRef } from "@/lib/review/schema";

test("upsertById replaces the entry with the same id in place, or appends, without mutating", () => {
  const items = [
    { id: "a", n: 1 },
    { id: "b", n: 2 },
  ];
  expect(upsertById(items, { id: "a", n: 9 })).toEqual([
    { id: "a", n: 9 },
    { id: "b", n: 2 },
  ]);
  expect(upsertById(items, { id: "c", n: 3 })).toEqual([...items, { id: "c", n: 3 }]);
  expect(items).toEqual([
    { id: "a", n: 1 },
    { id: "b", n: 2 },
  ]);
});

const ref = (serverId: string, tool: string) => ({ serverId, tool }) as ToolRef;
const assessment = (
  serverId: string,
  tool: string,
  roles: ToolAssessment["roles"],
  rolesConfirmed = true,
): ToolAssessment => ({
  ...ref(serverId, tool),
  roles,
  sourceIds: [],
  rolesConfirmed,
});

test("upsertToolAssessments replaces each changed tool in place and appends new ones, last change winning", () => {
  const tools = [
    assessment("a", "x", ["writes"]),
    assessment("a", "y", []),
    assessment("b", "x", ["writes"], false),
  ];
  const out = upsertToolAssessments(tools, [
    assessment("b", "x", []),
    assessment("c", "z", ["writes"]),
    assessment("a", "x", ["network_or_shares"]),
    assessment("c", "z", []),
  ]);
  expect(out).toEqual([
    assessment("a", "x", ["network_or_shares"]),
    assessment("a", "y", []),
    assessment("b", "x", []),
    assessment("c", "z", []),
  ]);
  expect(tools[0]!.roles).toEqual(["writes"]);
});

const sampled = (minute: number, kind: SampleEvidence["kind"]): SampleEvidence => ({
  at: `2026-12-07T14:0${minute}:00.000Z`,
  by: "alice",
  kind,
});

test("addSample keeps an item's last three samples, oldest first, and touches no other item", () => {
  let tools: ToolAssessment[] = [
    assessment("a", "x", ["reads_private_data"]),
    { ...assessment("a", "x", ["returns_untrusted_text"]), item: "resource" },
  ];
  for (const [minute, kind] of [
    [1, "prose"],
    [2, "names_only"],
    [3, "no_text"],
    [4, "prose"],
  ] as const)
    tools = addSample(tools, { serverId: "a", tool: "x" } as ToolRef, sampled(minute, kind))!;
  expect(tools[0]!.samples).toEqual([
    sampled(2, "names_only"),
    sampled(3, "no_text"),
    sampled(4, "prose"),
  ]);
  expect(tools[0]!.roles).toEqual(["reads_private_data"]);
  // The resource of the same name is another item.
  expect(tools[1]!.samples).toBeUndefined();
  expect(addSample(tools, ref("a", "unassessed"), sampled(5, "prose"))).toBeNull();
});

test("upsertToolAssessments keeps an item's samples when a role edit replaces its assessment", () => {
  const tools = [{ ...assessment("a", "x", []), samples: [sampled(1, "prose")] }];
  const out = upsertToolAssessments(tools, [assessment("a", "x", ["returns_untrusted_text"])]);
  expect(out).toEqual([
    { ...assessment("a", "x", ["returns_untrusted_text"]), samples: [sampled(1, "prose")] },
  ]);
});

test("upsertToolAssessments tells server a tool b/c from server a/b tool c", () => {
  const out = upsertToolAssessments(
    [assessment("a", "b/c", [])],
    [assessment("a/b", "c", ["writes"])],
  );
  expect(out).toHaveLength(2);
});

test("editedRoles adds or strikes one role and keeps TOOL_ROLES order", () => {
  expect(editedRoles(["network_or_shares", "returns_untrusted_text"], { kind: "confirm" })).toEqual(
    ["returns_untrusted_text", "network_or_shares"],
  );
  expect(editedRoles(["network_or_shares"], { kind: "set", role: "reads_private_data" })).toEqual([
    "reads_private_data",
    "network_or_shares",
  ]);
  expect(editedRoles(["writes"], { kind: "set", role: "writes" })).toEqual(["writes"]);
  expect(
    editedRoles(["writes", "deploys_or_destroys"], { kind: "strike", role: "writes" }),
  ).toEqual(["deploys_or_destroys"]);
  expect(editedRoles([], { kind: "strike", role: "writes" })).toEqual([]);
});

test("bulkRoleAssessments confirms what each tool shows, keeps its sources, and skips tools the edit would not change", () => {
  const portal = "portal" as SourceId;
  const tools = [
    {
      ref: ref("gl", "get_issue"),
      shownRoles: ["returns_untrusted_text" as const],
      sourceIds: [portal],
      confirmed: false,
    },
    {
      ref: ref("gl", "delete_branch"),
      shownRoles: ["deploys_or_destroys" as const],
      sourceIds: [],
      confirmed: true,
    },
    { ref: ref("gl", "create_issue"), shownRoles: [], sourceIds: [], confirmed: true },
  ];
  expect(bulkRoleAssessments(tools, { kind: "confirm" })).toEqual([
    {
      serverId: "gl",
      tool: "get_issue",
      roles: ["returns_untrusted_text"],
      sourceIds: [portal],
      rolesConfirmed: true,
    },
  ]);
  expect(
    bulkRoleAssessments(tools, { kind: "set", role: "writes" }).map((a) => [a.tool, a.roles]),
  ).toEqual([
    ["get_issue", ["returns_untrusted_text", "writes"]],
    ["delete_branch", ["writes", "deploys_or_destroys"]],
    ["create_issue", ["writes"]],
  ]);
  expect(
    bulkRoleAssessments(tools, { kind: "strike", role: "deploys_or_destroys" }).map((a) => [
      a.tool,
      a.roles,
    ]),
  ).toEqual([
    ["get_issue", ["returns_untrusted_text"]],
    ["delete_branch", []],
  ]);
});

test("bulkRoleAssessments maps and unmaps a source on the tools that change, keeping roles and whether they were confirmed", () => {
  const portal = "portal" as SourceId;
  const wiki = "wiki" as SourceId;
  const tools = [
    {
      ref: ref("gh", "get_issue"),
      shownRoles: ["returns_untrusted_text" as const],
      sourceIds: [wiki],
      confirmed: false,
    },
    {
      ref: ref("gh", "list_commits"),
      shownRoles: ["returns_untrusted_text" as const],
      sourceIds: [portal],
      confirmed: true,
    },
  ];
  expect(bulkRoleAssessments(tools, { kind: "map_source", sourceId: portal })).toEqual([
    {
      serverId: "gh",
      tool: "get_issue",
      roles: ["returns_untrusted_text"],
      sourceIds: [wiki, portal],
      rolesConfirmed: false,
    },
  ]);
  expect(
    bulkRoleAssessments(tools, { kind: "unmap_source", sourceId: portal }).map((a) => [
      a.tool,
      a.sourceIds,
      a.rolesConfirmed,
    ]),
  ).toEqual([["list_commits", [], true]]);
});

test("setToolsHeld adds without duplicates after the tools kept, and drops only the named ones", () => {
  const held = [ref("gh", "search"), ref("gh", "get_issue")];
  expect(
    setToolsHeld(
      held,
      [ref("gh", "get_issue"), ref("gh", "create_issue"), ref("gh", "create_issue")],
      true,
    ),
  ).toEqual([...held, ref("gh", "create_issue")]);
  expect(setToolsHeld(held, [ref("gh", "get_issue"), ref("other", "search")], false)).toEqual([
    ref("gh", "search"),
  ]);
  expect(setToolsHeld(held, [], true)).toEqual(held);
});
