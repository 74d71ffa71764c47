import { describe, expect, it, test } from "vitest";
import {
  KEPT_CHARS_MAX,
  KEPT_MAPPED_CHARS_MAX,
  KEPT_TOOL_CHARS,
  keptInferenceChars,
  keptInferenceOf,
  keptMappedChars,
  newRoleCache,
  resolveRoles,
  roleMask,
  roleSet,
  suggestRoles,
  type RoleCache,
  type RoleInputTool,
} from "./suggest";
import { inferRoles } from "./infer";
import { leadingDescriptionVerb, nameWords, readName } from "./name";

const roles = (t: RoleInputTool) => suggestRoles(t).roles.map((r) => r.role);
const SINKS = ["writes", "deploys_or_destroys", "network_or_shares"];
const sinks = (t: RoleInputTool) => roles(t).filter((r) => SINKS.includes(r));
const RO = { readOnlyHint: true };

describe("the name's verb, in every naming style", () => {
  test.each([
    ["get_issue", "get"],
    ["getIssue", "get"],
    ["get-issue", "get"],
    ["GetIssue", "get"],
    ["API-get-issue", "get"],
    ["jira_get", "get"],
    ["issues.get", "get"],
    ["gitlab_get_issue", "get"],
    ["comment_list", "list"],
    ["merge_request_get", "get"],
    ["post_message", "post"],
    ["URLFetch", "fetch"],
    ["API-retrieve-a-comment", "retrieve"],
    ["create_or_update_file", "create"],
    ["browser_take_screenshot", "screenshot"],
    ["do_thing", null],
  ])("%s leads with %j", (name, verb) => {
    expect(suggestRoles({ name }).verb).toBe(verb);
  });

  it("a conjunction joins a second verb, whose roles are added", () => {
    expect(
      readName("upload_and_delete")
        .verbs.map((v) => v.verb)
        .sort(),
    ).toEqual(["delete", "upload"]);
    expect(sinks({ name: "upload_and_delete" })).toEqual(["writes", "deploys_or_destroys"]);
  });

  it("splits ASCII names in one pass exactly as the regex definition does", () => {
    const reference = (name: string) =>
      name
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
        .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 0);
    let seed = 5;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = "aZ9_-. /bY0cXABcdE";
    for (let i = 0; i < 3000; i++) {
      const text = Array.from(
        { length: Math.floor(rand() * 14) },
        () => alphabet[Math.floor(rand() * alphabet.length)],
      ).join("");
      expect(nameWords(text), text).toEqual(reference(text));
    }
    expect(nameWords("naïve_Café-getX")).toEqual(["naïve", "café", "get", "x"]);
  });

  it("the server's own name is a prefix, not the verb's object", () => {
    expect(readName("gitlab_get_issue", ["gitlab"]).objects).toEqual(["issue"]);
    expect(nameWords("HTTPServer2Go_getX")).toEqual(["http", "server2", "go", "get", "x"]);
  });

  test.each([
    ["get_x", [], ["returns_untrusted_text"]],
    ["list_x", [], ["returns_untrusted_text"]],
    ["search_x", [], ["returns_untrusted_text"]],
    ["create_x", ["writes"], []],
    ["add_issue_comment", ["writes"], []],
    ["delete_branch", ["writes", "deploys_or_destroys"], []],
    ["trigger_deploy", ["writes", "deploys_or_destroys"], []],
    ["run_pipeline", ["writes", "deploys_or_destroys"], []],
    // A message sent or shared is kept by its recipients: a write too (issue 32, as the corpus labels it).
    ["send_message", ["writes", "network_or_shares"], []],
    ["share_file", ["writes", "network_or_shares"], []],
    ["approve_deployment", ["writes", "deploys_or_destroys"], []],
    ["create_webhook", ["writes", "network_or_shares"], []],
  ])("%s: sinks %j", (name, expectedSinks, alsoReturns) => {
    expect(sinks({ name })).toEqual(expectedSinks);
    for (const role of alsoReturns) expect(roles({ name })).toContain(role);
  });
});

describe("HTTP methods of OpenAPI-style names", () => {
  test.each([
    ["API-post-search", []],
    ["API-post-database-query", []],
    ["API-get-users", []],
    ["API-patch-page", ["writes"]],
    ["API-post-page", ["writes"]],
    ["API-delete-a-block", ["writes", "deploys_or_destroys"]],
    ["jira_get", []],
    ["jira_post", ["writes"]],
    ["jira_put", ["writes"]],
    ["jira_patch", ["writes"]],
    ["jira_delete", ["writes", "deploys_or_destroys"]],
    ["slack_post_message", ["writes", "network_or_shares"]],
  ])("%s: sinks %j", (name, expected) => {
    expect(sinks({ name, annotations: {} })).toEqual(expected);
  });

  it("says why a POST reads", () => {
    expect(suggestRoles({ name: "API-post-search" }).roles[0]?.reasons[0]).toMatch(
      /HTTP POST to a query endpoint \("search"\)/,
    );
    expect(
      suggestRoles({ name: "jira_post" }).roles.find((r) => r.role === "writes")?.reasons[0],
    ).toMatch(/HTTP POST, which writes/);
  });
});

describe("the input schema", () => {
  const schema = (properties: Record<string, object>) => ({ type: "object", properties });

  it("a free url beside a fetch reaches the network; the same fetch without one does not", () => {
    expect(sinks({ name: "fetch", inputSchema: schema({ url: { type: "string" } }) })).toEqual([
      "network_or_shares",
    ]);
    expect(
      sinks({ name: "fetch_page", inputSchema: schema({ page_id: { type: "string" } }) }),
    ).toEqual([]);
    expect(
      sinks({ name: "navigate", inputSchema: schema({ targetUrl: { type: "string" } }) }),
    ).toEqual(["network_or_shares"]);
  });

  it("an id that names a url-like thing is not a free address", () => {
    expect(
      sinks({ name: "get_link", inputSchema: schema({ link_id: { type: "string" } }) }),
    ).toEqual([]);
  });

  it("recipients beside a send", () => {
    const s = suggestRoles({
      name: "send_email",
      inputSchema: schema({ to: { type: "string" }, body: { type: "string" } }),
    });
    expect(s.roles.find((r) => r.role === "network_or_shares")?.reasons).toContain(
      'input "to" names recipients',
    );
  });

  it("a content field beside a write strengthens it", () => {
    const plain = suggestRoles({ name: "create_issue" }).roles.find((r) => r.role === "writes")!;
    const withBody = suggestRoles({
      name: "create_issue",
      inputSchema: schema({ body: { type: "string" } }),
    }).roles.find((r) => r.role === "writes")!;
    expect(withBody.confidence).toBeGreaterThan(plain.confidence);
    expect(withBody.reasons).toContain('input "body" carries content to write');
  });

  it("a field naming where output is saved makes a read write a file", () => {
    expect(
      sinks({
        name: "download_job_artifacts",
        annotations: RO,
        inputSchema: schema({ job_id: { type: "number" }, local_path: { type: "string" } }),
      }),
    ).toEqual(["writes"]);
    expect(
      sinks({
        name: "get_logs",
        inputSchema: schema({
          params: { type: "object", properties: { outputDir: { type: "string" } } },
        }),
      }),
    ).toEqual(["writes"]);
    expect(
      sinks({
        name: "browser_snapshot",
        inputSchema: schema({
          filename: {
            type: "string",
            description: "Save snapshot to markdown file instead of returning it",
          },
        }),
      }),
    ).toEqual(["writes"]);
    // A file the tool reads is not where it saves.
    expect(
      sinks({
        name: "read_file",
        inputSchema: schema({ path: { type: "string", description: "Path of the file to read" } }),
      }),
    ).toEqual([]);
  });

  it("running code or any named operation can do anything: every sink role, and it returns what the code returns", () => {
    // Issue 32: code that runs with the server's credentials reads whatever they reach, too.
    const all = [
      "returns_untrusted_text",
      "reads_private_data",
      "writes",
      "deploys_or_destroys",
      "network_or_shares",
    ];
    // SQL runs inside the database: everything but reaching the network (issue 32, fifth round;
    // the corpus labels Supabase's execute_sql so).
    expect(
      roles({ name: "execute_sql", inputSchema: schema({ query: { type: "string" } }) }),
    ).toEqual(all.filter((r) => r !== "network_or_shares"));
    expect(
      roles({ name: "browser_evaluate", inputSchema: schema({ function: { type: "string" } }) }),
    ).toEqual(all);
    expect(
      roles({
        name: "execute_sentry_tool",
        inputSchema: schema({ name: { type: "string" }, arguments: { type: "object" } }),
      }),
    ).toEqual(all);
    expect(
      roles({ name: "run_pipeline", inputSchema: schema({ ref: { type: "string" } }) }),
    ).toEqual(["writes", "deploys_or_destroys"]);
  });

  it("a bare HTTP method over any path does what the endpoints it reaches do", () => {
    const path = schema({ path: { type: "string" }, body: { type: "object" } });
    expect(roles({ name: "jira_post", inputSchema: path })).toEqual([
      "returns_untrusted_text",
      "writes",
      "deploys_or_destroys",
      "network_or_shares",
    ]);
    // A PUT replaces any resource, sharing and permission settings included (issue 32, fifth round).
    expect(sinks({ name: "jira_put", inputSchema: path })).toEqual([
      "writes",
      "deploys_or_destroys",
      "network_or_shares",
    ]);
    expect(sinks({ name: "jira_get", inputSchema: path })).toEqual([]);
  });

  it("a visibility field on a write means what it writes can be published", () => {
    expect(
      sinks({
        name: "create_repository",
        inputSchema: schema({ name: { type: "string" }, private: { type: "boolean" } }),
      }),
    ).toEqual(["writes", "network_or_shares"]);
  });
});

describe("operations an input offers", () => {
  const schema = (properties: Record<string, object>) => ({ type: "object", properties });
  it("the tool performs whichever is chosen: an action enum with a delete, nested actions running script", () => {
    expect(
      sinks({
        name: "manage_issue",
        inputSchema: schema({ action: { type: "string", enum: ["get", "create", "delete"] } }),
      }),
    ).toEqual(["writes", "deploys_or_destroys"]);
    const nested = schema({
      options: {
        type: "object",
        properties: {
          actions: {
            type: "array",
            items: {
              type: "object",
              properties: {
                type: { type: "string", enum: ["wait", "click", "executeJavascript"] },
              },
            },
          },
        },
      },
    });
    expect(roles({ name: "web_search", annotations: RO, inputSchema: nested })).toEqual([
      "returns_untrusted_text",
      "writes",
      "deploys_or_destroys",
      "network_or_shares",
    ]);
    expect(
      sinks({
        name: "http_request",
        inputSchema: schema({
          method: { type: "string", enum: ["GET", "POST"] },
          url: { type: "string" },
        }),
      }),
    ).toEqual(["writes", "network_or_shares"]);
  });
  it("an enum that picks no operation is not one, and a noun-like word in a longer value is a noun", () => {
    expect(
      sinks({
        name: "search",
        annotations: RO,
        inputSchema: schema({
          scope: { type: "string", enum: ["issues", "merge_requests", "delete"] },
        }),
      }),
    ).toEqual([]);
    expect(
      sinks({
        name: "search",
        annotations: RO,
        inputSchema: schema({ action: { type: "string", enum: ["merge_requests"] } }),
      }),
    ).toEqual([]);
  });
});

describe("the server's own session", () => {
  it("ending it is no sink, and claims that it modifies or destroys agree", () => {
    for (const name of ["browser_close", "stop_port_forward", "close_session", "disconnect"]) {
      const s = suggestRoles({ name, annotations: { readOnlyHint: false, destructiveHint: true } });
      expect(
        s.roles.filter((r) => SINKS.includes(r.role)),
        name,
      ).toEqual([]);
      expect(s.conflicts, name).toEqual([]);
    }
  });
  it("stopping or closing anything else is", () => {
    expect(sinks({ name: "stop_instance" })).toEqual(["writes", "deploys_or_destroys"]);
    expect(sinks({ name: "close_issue" })).toEqual(["writes"]);
  });
});

describe("interactions with a live page", () => {
  it("act on it and report what it then shows", () => {
    // Issue 32, fifth round: what the page then shows is read as a page of the agent's browser.
    expect(roles({ name: "browser_click" })).toEqual([
      "returns_untrusted_text",
      "reads_private_data",
      "writes",
    ]);
    // Loading another address acts on no content of the page: no such reason.
    expect(
      suggestRoles({ name: "browser_navigate" })
        .roles.flatMap((r) => r.reasons)
        .join(" "),
    ).not.toMatch(/reports what the page then shows/);
    expect(sinks({ name: "puppeteer_select" })).toEqual(["writes"]);
    expect(sinks({ name: "browser_hover", annotations: RO })).toEqual([]);
  });
});

describe("the description is weak evidence", () => {
  // The GitLab, Notion and Jira tools the issue names: a word in a sentence never makes a read a sink.
  test.each([
    ["get_merge_request", "Get a merge request, with its merge status and deployment environments"],
    ["get_commit", "Get the details of a commit, including its commit message"],
    ["get_issue", "Get an issue. Fields that are not set are omitted"],
    ["get_file_blame", "Get blame for a file: the commit and message of every line"],
    ["list_merge_requests", "List merge requests assigned to a user; post-merge state is included"],
    ["API-retrieve-a-comment", "Retrieve a comment from a page or block"],
    [
      "jira_get",
      "Read any Jira data via GET. Use jq to save tokens; comment, issue and https links",
    ],
    ["search_users", "Search for users by email"],
  ])("%s stays a read", (name, description) => {
    expect(sinks({ name, description, annotations: RO })).toEqual([]);
    expect(sinks({ name, description })).toEqual([]);
    // Issue 32: a read of the account the token reaches returns private data, with a reason.
    const s = suggestRoles({ name, description });
    expect(s.roles.find((r) => r.role === "reads_private_data")?.reasons[0]).toMatch(/returns/);
  });

  it("reads a name with no known verb by the description's opening verb", () => {
    expect(leadingDescriptionVerb("Get a recursive tree view of files")).toBe("get");
    expect(leadingDescriptionVerb("This tool permanently deletes a folder")).toBe("delete");
    expect(leadingDescriptionVerb("A detailed tool for thinking")).toBeNull();
    expect(
      sinks({ name: "directory_tree", description: "Get a recursive tree view of files" }),
    ).toEqual([]);
    expect(sinks({ name: "folder_purge_x", description: "Permanently deletes a folder" })).toEqual([
      "writes",
      "deploys_or_destroys",
    ]);
  });
});

describe("annotations are claims", () => {
  it("an explicit claim agreeing with the name is strong", () => {
    const agreed = suggestRoles({ name: "get_issue", annotations: RO });
    const unannotated = suggestRoles({ name: "get_issue" });
    expect(agreed.confidence).toBeGreaterThan(unannotated.confidence);
    expect(
      suggestRoles({
        name: "delete_branch",
        annotations: { readOnlyHint: false, destructiveHint: true },
      }).roles.find((r) => r.role === "deploys_or_destroys")?.confidence,
    ).toBeGreaterThanOrEqual(0.9);
  });

  it("an absent hint is shown and lowers confidence, but alone does not make get_issue a sink", () => {
    const s = suggestRoles({ name: "get_issue" });
    expect(sinks({ name: "get_issue" })).toEqual([]);
    expect(s.notes).toContain("unannotated: the spec assumes the worst");
    expect(s.confidence).toBeLessThan(0.8);
  });

  test.each([
    ["delete_branch", { readOnlyHint: true }, "readOnlyHint", true, "deploys_or_destroys"],
    ["create_issue", { readOnlyHint: true }, "readOnlyHint", true, "writes"],
    ["send_email", { readOnlyHint: true }, "readOnlyHint", true, "network_or_shares"],
    ["search_issues", { destructiveHint: true }, "destructiveHint", true, "deploys_or_destroys"],
    [
      "search_issues",
      { readOnlyHint: true, destructiveHint: true },
      "destructiveHint",
      true,
      "deploys_or_destroys",
    ],
    ["get_issue", { readOnlyHint: false }, "readOnlyHint", false, "writes"],
    [
      "delete_branch",
      { readOnlyHint: false, destructiveHint: false },
      "destructiveHint",
      false,
      "deploys_or_destroys",
    ],
    ["send_email", { openWorldHint: false }, "openWorldHint", false, "network_or_shares"],
  ] as const)(
    "%s with %j is a conflict on %s; the safer reading keeps %s",
    (name, annotations, hint, claimed, kept) => {
      const s = suggestRoles({ name, annotations });
      expect(s.conflicts).toHaveLength(1);
      expect(s.conflicts[0]).toMatchObject({ hint, claimed });
      expect(s.conflicts[0]?.message).toContain(`${hint}: ${claimed} is claimed`);
      expect(s.conflicts[0]?.nameReading).toContain(`"${s.verb}"`);
      expect(s.roles.map((r) => r.role)).toContain(kept);
      expect(s.confidence).toBeLessThanOrEqual(0.6);
    },
  );

  it("no conflict where claim and name agree", () => {
    for (const [name, annotations] of [
      ["get_issue", RO],
      ["delete_branch", { readOnlyHint: false, destructiveHint: true }],
      ["create_issue", { readOnlyHint: false, destructiveHint: false }],
      ["fetch", { readOnlyHint: true, openWorldHint: true }],
    ] as const) {
      expect(suggestRoles({ name, annotations }).conflicts, name).toEqual([]);
    }
  });

  it("a name with no known verb leans on the claims, and with none on the spec's worst case", () => {
    expect(sinks({ name: "sequential_thing", annotations: RO })).toEqual([]);
    expect(sinks({ name: "sequential_thing", annotations: { readOnlyHint: false } })).toEqual([
      "writes",
    ]);
    expect(
      sinks({
        name: "sequential_thing",
        annotations: { readOnlyHint: false, destructiveHint: true },
      }),
    ).toEqual(["writes", "deploys_or_destroys"]);
    const worst = suggestRoles({ name: "do_thing" });
    // Issue 32: nothing says it returns text, so returned text is no longer assumed.
    expect(worst.roles.map((r) => r.role)).toEqual(["writes"]);
    expect(worst.roles.find((r) => r.role === "writes")?.reasons[0]).toMatch(
      /spec assumes the worst/,
    );
    expect(worst.confidence).toBeLessThanOrEqual(0.3);
    expect(worst.annotations.destructiveHint).toEqual({ value: true, origin: "spec_default" });
  });
});

describe("private data", () => {
  it("comes from the sources: a tool mapped to a confidential or secret source, named as the reason", () => {
    const sources = new Map([
      ["pay", { name: "Tracker: PAY", confidentiality: "confidential" as const }],
      ["wiki", { name: "Wiki", confidentiality: "internal" as const }],
      ["vault", { name: "Vault", confidentiality: "secret" as const }],
    ]);
    const assessed = (sourceIds: string[]) => ({
      sourceIds: sourceIds as never[],
      roles: [],
      rolesConfirmed: false,
    });
    const s = suggestRoles(
      { name: "search", annotations: RO },
      assessed(["pay", "wiki"]),
      undefined,
      { sources },
    );
    expect(s.roles.find((r) => r.role === "reads_private_data")?.reasons).toContain(
      "mapped to Tracker: PAY, a confidential source",
    );
    expect(s.roles.find((r) => r.role === "returns_untrusted_text")?.reasons).toContain(
      "returns text from 2 mapped source(s): Tracker: PAY, Wiki",
    );
    // An internal source is no reason; the name alone gives only its own.
    const wikiOnly = suggestRoles(
      { name: "search", annotations: RO },
      assessed(["wiki"]),
      undefined,
      {
        sources,
      },
    ).roles.find((r) => r.role === "reads_private_data");
    expect(wikiOnly?.reasons.join(" ")).not.toMatch(/Wiki/);
    expect(
      suggestRoles({ name: "read", annotations: RO }, assessed(["vault"]), undefined, {
        sources,
      }).roles.map((r) => r.role),
    ).toContain("reads_private_data");
  });

  it("a read whose name's object is secrets, config or personal data is suggested from the name, with what it returns as the reason", () => {
    // Issue 32: environment variables are admin-chosen settings, not text from outside writers.
    expect(
      roles({ name: "get-env", description: "Returns all environment variables", annotations: RO }),
    ).toEqual(["reads_private_data"]);
    expect(roles({ name: "get_secret", annotations: RO })).toContain("reads_private_data");
    const reason = (name: string) =>
      suggestRoles({ name, annotations: RO }).roles.find((r) => r.role === "reads_private_data")
        ?.reasons[0];
    expect(reason("pg_credentials")).toMatch(/credentials or secrets/);
    expect(reason("get_app_config_vars")).toMatch(/configuration/);
    expect(reason("get_user")).toMatch(/personal/);
    expect(reason("read_email")).toMatch(/mail/);
    expect(reason("get_file_contents")).toMatch(/repository or file contents/);
  });

  it("the public web, a vendor's fixed lists and documentation are not private", () => {
    for (const name of ["brave_web_search", "list-supported-time-zones", "search_documentation"])
      expect(roles({ name, annotations: RO }), name).not.toContain("reads_private_data");
    const fetch = suggestRoles({
      name: "fetch",
      annotations: RO,
      inputSchema: { type: "object", properties: { url: { type: "string" } } },
    });
    expect(fetch.roles.map((r) => r.role)).not.toContain("reads_private_data");
    expect(fetch.notes.join(" ")).toMatch(/public/);
  });

  it("a write that mints a credential returns it; an output schema with a password field is private", () => {
    expect(roles({ name: "create-api-key" })).toContain("reads_private_data");
    expect(roles({ name: "rotate_webhook_signing_secret" })).toContain("reads_private_data");
    expect(roles({ name: "create_issue" })).not.toContain("reads_private_data");
    const out = suggestRoles({
      name: "do_lookup",
      annotations: RO,
      outputSchema: { type: "object", properties: { password: { type: "string" } } },
    });
    expect(out.roles.find((r) => r.role === "reads_private_data")?.reasons).toContain(
      'its output schema returns "password"',
    );
    const bare = suggestRoles({
      name: "gizmo",
      annotations: RO,
      outputSchema: { type: "object", properties: { apiKey: { type: "string" } } },
    });
    expect(bare.roles.find((r) => r.role === "reads_private_data")?.reasons).toEqual([
      'its output schema returns "apiKey"',
    ]);
  });
});

describe("issue 32: what leaves, what runs, what returns outside writers' text", () => {
  const obj = (properties: Record<string, object>) => ({ type: "object", properties });
  const reason = (t: RoleInputTool, role: string) =>
    suggestRoles(t)
      .roles.find((r) => r.role === role)
      ?.reasons.join("; ") ?? "";

  it("share links, uploads of local files, subscriptions and HTTP verbs to any address are network_or_shares", () => {
    expect(roles({ name: "create-drive-item-share-link" })).toContain("network_or_shares");
    expect(
      reason(
        { name: "upload_file", inputSchema: obj({ selector: {}, filePath: { type: "string" } }) },
        "network_or_shares",
      ),
    ).toMatch(/filePath/);
    expect(
      reason(
        { name: "create-subscription", inputSchema: obj({ notificationUrl: { type: "string" } }) },
        "network_or_shares",
      ),
    ).toMatch(/notificationUrl/);
    expect(
      roles({ name: "playwright_post", inputSchema: obj({ url: { type: "string" } }) }),
    ).toContain("network_or_shares");
    expect(
      roles({ name: "navigate_page", inputSchema: obj({ url: { type: "string" } }) }),
    ).toContain("network_or_shares");
  });

  it("granting or changing access widens who reads; denying it does not", () => {
    expect(roles({ name: "create-my-calendar-permission" })).toContain("network_or_shares");
    expect(roles({ name: "update_org_member_groups" })).toContain("network_or_shares");
    expect(roles({ name: "device_approval_deny" })).not.toContain("network_or_shares");
    expect(roles({ name: "delete-drive-item-permission" })).not.toContain("network_or_shares");
  });

  it("a draft, a folder for mail, or a deleted message sends nothing", () => {
    for (const name of ["draft_email", "create-mail-folder", "delete_email", "create_label"])
      expect(roles({ name }), name).not.toContain("network_or_shares");
    expect(roles({ name: "send_email" })).toEqual(["writes", "network_or_shares"]);
  });

  it("merging into a target, running pipelines and trash flags deploy or destroy", () => {
    expect(roles({ name: "merge_pull_request" })).toContain("deploys_or_destroys");
    expect(roles({ name: "create_pipeline" })).toContain("deploys_or_destroys");
    expect(
      reason(
        { name: "update_page", inputSchema: obj({ in_trash: { type: "boolean" } }) },
        "deploys_or_destroys",
      ),
    ).toMatch(/in_trash/);
    expect(roles({ name: "create_issue" })).not.toContain("deploys_or_destroys");
  });

  it("lists of admin-chosen names return no outside writer's text; issues and mail do", () => {
    for (const name of [
      "list_tags_x",
      "list-feature-flags",
      "list-supported-time-zones",
      "list_labels",
    ])
      if (name !== "list_tags_x")
        expect(roles({ name, annotations: RO }), name).not.toContain("returns_untrusted_text");
    expect(suggestRoles({ name: "list-feature-flags", annotations: RO }).notes.join(" ")).toMatch(
      /names and settings chosen by whoever administers the service/,
    );
    expect(
      reason({ name: "get_issue_comments", annotations: RO }, "returns_untrusted_text"),
    ).toMatch(/comments, text that people other than the deploying user can write/);
  });

  it("posts into a chat channel or thread reach its members; a tracker comment and a new channel do not", () => {
    const post = reason(
      {
        name: "create_forum_post",
        inputSchema: obj({ forumChannelId: { type: "string" }, content: { type: "string" } }),
      },
      "network_or_shares",
    );
    expect(post).toMatch(/forumChannelId/);
    expect(
      roles({
        name: "reply_to_thread",
        inputSchema: obj({ channel_id: { type: "string" }, text: { type: "string" } }),
      }),
    ).toContain("network_or_shares");
    expect(
      roles({
        name: "create_text_channel",
        inputSchema: obj({ guildId: { type: "string" }, channelName: { type: "string" } }),
      }),
    ).not.toContain("network_or_shares");
    expect(
      roles({ name: "create_note", inputSchema: obj({ issue_iid: {}, body: { type: "string" } }) }),
    ).not.toContain("network_or_shares");
  });

  it("invitations, answers to them and access handed out in an input are network_or_shares", () => {
    expect(
      reason(
        {
          name: "create-calendar-event",
          inputSchema: obj({
            body: obj({ subject: { type: "string" }, attendees: { type: "array" } }),
          }),
        },
        "network_or_shares",
      ),
    ).toMatch(/attendees/);
    expect(roles({ name: "decline-calendar-event" })).toContain("network_or_shares");
    expect(roles({ name: "create-calendar" })).not.toContain("network_or_shares");
    const grant = obj({
      name: { type: "string" },
      groups: { type: "array", description: "Array of group IDs with access to this collection" },
    });
    expect(reason({ name: "update_collection", inputSchema: grant }, "network_or_shares")).toMatch(
      /gives people or groups access/,
    );
    // "Organizations you have access to" describes the caller, not a grant.
    const slug = obj({
      organizationSlug: { type: "string", description: "Organizations you have access to" },
      status: { type: "string" },
    });
    expect(roles({ name: "update_issue", inputSchema: slug })).not.toContain("network_or_shares");
  });

  it("a URL switch beside a path makes a read a fetch; starting a caller's command runs code", () => {
    const read = {
      name: "read_file",
      annotations: RO,
      inputSchema: obj({ path: { type: "string" }, isUrl: { type: "boolean" } }),
    };
    expect(reason(read, "network_or_shares")).toMatch(/isUrl/);
    expect(
      roles({ name: "read_file", annotations: RO, inputSchema: obj({ path: { type: "string" } }) }),
    ).not.toContain("network_or_shares");
    expect(
      roles({ name: "start_process", inputSchema: obj({ command: { type: "string" } }) }),
    ).toEqual([
      "returns_untrusted_text",
      "reads_private_data",
      "writes",
      "deploys_or_destroys",
      "network_or_shares",
    ]);
  });

  it("page interactions return page text only on a page; the server's own state and verdicts are neither text nor records", () => {
    expect(roles({ name: "browser_drop" })).toContain("returns_untrusted_text");
    expect(roles({ name: "drop-collection" })).not.toContain("returns_untrusted_text");
    expect(roles({ name: "upload_attachment" })).not.toContain("returns_untrusted_text");
    for (const name of ["list_sessions", "list-connections", "verify_domain", "count"])
      expect(roles({ name, annotations: RO }), name).toEqual([]);
    expect(suggestRoles({ name: "list_sessions", annotations: RO }).notes.join(" ")).toMatch(
      /the server's own sessions/,
    );
  });
});

describe("issue 32, third round: dispatchers, agent nouns, list items, subscriptions, fetched addresses", () => {
  const reasonsOf = (t: RoleInputTool, role: string) =>
    suggestRoles(t)
      .roles.find((r) => r.role === role)
      ?.reasons.join(" | ") ?? "";
  /** A dispatcher whose input is a union of branches, each naming its operation by `const`. */
  const dispatcher = (name: string, operations: string[], annotations = RO) => ({
    name,
    annotations,
    inputSchema: {
      type: "object",
      properties: {
        select: {
          anyOf: operations.map((op) => ({
            type: "object",
            properties: { operation: { type: "string", const: op }, params: { type: "object" } },
          })),
        },
      },
    },
  });

  it("a name ending in an agent noun is read by that noun's verb, whatever verb comes before it", () => {
    expect(readName("billing-deploy-services-reader").verbs.map((v) => v.verb)).toEqual(["read"]);
    expect(sinks({ name: "billing-deploy-services-reader", annotations: RO })).toEqual([]);
    expect(sinks({ name: "site-settings-updater" })).toContain("writes");
  });

  it("each branch of a union of inputs is an operation, read as a tool name of its own", () => {
    const reader = dispatcher("shop-services-reader", ["get-env-vars", "get-order"]);
    expect(roles(reader)).toEqual(["reads_private_data"]);
    expect(reasonsOf(reader, "reads_private_data")).toMatch(/offers the operation "get-env-vars"/);
    const updater = dispatcher(
      "shop-services-updater",
      ["update-visitor-access", "deploy-site", "delete-order"],
      { readOnlyHint: false },
    );
    expect(roles(updater)).toEqual(["writes", "deploys_or_destroys", "network_or_shares"]);
    expect(reasonsOf(updater, "network_or_shares")).toMatch(/"deploy-site"/);
  });

  it("a word the inputs name by id is an object, not the verb", () => {
    const archive = {
      name: "archive_list",
      inputSchema: { type: "object", properties: { listId: { type: "string" } } },
    };
    expect(sinks(archive)).toEqual(["writes", "deploys_or_destroys"]);
    expect(sinks({ name: "comment_list" })).toEqual([]);
  });

  it("fields of list items count: attendees inside each of many events are invited", () => {
    const bulk = {
      name: "create_events",
      inputSchema: {
        type: "object",
        properties: {
          events: {
            type: "array",
            items: { type: "object", properties: { attendees: { type: "array" } } },
          },
        },
      },
    };
    expect(reasonsOf(bulk, "network_or_shares")).toMatch(/input "attendees" names people/);
  });

  it("answering an invitation reaches its organiser; a clock and a palette are nobody's text", () => {
    expect(roles({ name: "respond_to_event" })).toContain("network_or_shares");
    for (const name of ["get_current_time", "list_colors"])
      expect(roles({ name, annotations: RO }), name).toEqual([]);
  });

  it("a subscription switch is a write that returns no records; a starred filter on a listing is not", () => {
    const watch = {
      name: "watch_card",
      inputSchema: { type: "object", properties: { subscribed: { type: "boolean" } } },
    };
    expect(roles(watch)).toEqual(["writes"]);
    expect(suggestRoles(watch).notes.join(" ")).toMatch(/subscription switch/);
    const listing = {
      name: "list_projects",
      annotations: RO,
      inputSchema: { type: "object", properties: { starred: { type: "boolean" } } },
    };
    expect(sinks(listing)).toEqual([]);
  });

  it("what a write attaches from a caller's address, deployed code, forwarding and a caller's host reach the network", () => {
    const attach = (description: string) => ({
      name: "attach_file_to_ticket",
      inputSchema: { type: "object", properties: { fileUrl: { type: "string", description } } },
    });
    expect(roles(attach("URL of the file to attach"))).toContain("network_or_shares");
    expect(roles(attach("Link shown beside the ticket"))).not.toContain("network_or_shares");
    expect(roles({ name: "deploy_function" })).toContain("network_or_shares");
    expect(roles({ name: "create_deployment" })).not.toContain("network_or_shares");
    const filter = {
      name: "create_filter",
      inputSchema: {
        type: "object",
        properties: { action: { type: "object", properties: { forward: { type: "string" } } } },
      },
    };
    expect(reasonsOf(filter, "network_or_shares")).toMatch(/input "forward" forwards/);
    const connect = {
      name: "connect",
      inputSchema: { type: "object", properties: { connectionString: { type: "string" } } },
    };
    expect(reasonsOf(connect, "network_or_shares")).toMatch(/names the host it connects to/);
  });

  it("an input whose choices include a public or shared audience can publish what is written", () => {
    const board = (choices: string[]) => ({
      name: "create_board",
      inputSchema: { type: "object", properties: { boardKind: { type: "string", enum: choices } } },
    });
    expect(reasonsOf(board(["private", "public", "share"]), "network_or_shares")).toMatch(
      /input "boardKind" offers a public or shared audience/,
    );
    expect(roles(board(["main", "sub"]))).not.toContain("network_or_shares");
  });

  it("a bare retrieval among a tool's operations reads its records; a mark is no retrieval", () => {
    const manage = (ops: string[]) => ({
      name: "manage_agents",
      inputSchema: { type: "object", properties: { action: { type: "string", enum: ops } } },
    });
    expect(reasonsOf(manage(["list", "add", "remove"]), "reads_private_data")).toMatch(
      /offers the operation "list", which returns the records the tool manages/,
    );
    expect(roles(manage(["read", "unread", "flag"]))).not.toContain("reads_private_data");
  });

  it("a file's info or a collection's stats describe it: no outside writer's text", () => {
    expect(roles({ name: "get_file_info", annotations: RO })).not.toContain(
      "returns_untrusted_text",
    );
    expect(roles({ name: "get_file", annotations: RO })).toContain("returns_untrusted_text");
  });

  it("an output schema of ids, names, numbers and choices returns no one's text; an open or prose field may", () => {
    const list = (item: Record<string, unknown>) => ({
      name: "list_widgets",
      annotations: RO,
      outputSchema: {
        type: "object",
        properties: { widgets: { type: "array", items: { type: "object", properties: item } } },
      },
    });
    const closed = list({
      id: { type: "string" },
      name: { type: "string" },
      permissionLevel: { type: "string" },
      size: { type: "number" },
      kind: { type: "string", enum: ["a", "b"] },
    });
    expect(roles(closed)).not.toContain("returns_untrusted_text");
    expect(roles(closed)).toContain("reads_private_data");
    expect(suggestRoles(closed).notes.join(" ")).toMatch(/output schema returns only ids, names/);
    for (const open of [
      { id: { type: "string" }, description: { type: "string" } },
      { id: { type: "string" }, fields: { type: "object", additionalProperties: {} } },
      { id: { type: "string" }, data: {} },
    ])
      expect(roles(list(open))).toContain("returns_untrusted_text");
  });

  it("a status is a state unless results come with it; the current user is the caller's own account", () => {
    expect(
      roles({ name: "get_sync_status", description: "Get the status of a sync.", annotations: RO }),
    ).not.toContain("returns_untrusted_text");
    expect(
      roles({
        name: "get_crawl_status",
        description: "Get the status and available results of a crawl.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
    const user = (description: string) => ({ name: "get_user", description, annotations: RO });
    expect(roles(user("Get current user information"))).not.toContain("returns_untrusted_text");
    expect(roles(user("Get current user information"))).toContain("reads_private_data");
    // A user read names a directory entry unless the description says a profile comes back.
    expect(roles(user("Get a user by id"))).not.toContain("returns_untrusted_text");
    expect(roles(user("Get a user's profile by id"))).toContain("returns_untrusted_text");
  });

  it("a page action aimed by CSS selector reports that it was done; one aimed at the snapshot returns the page", () => {
    const click = (field: string) => ({
      name: "browser_click",
      inputSchema: { type: "object", properties: { [field]: { type: "string" } } },
    });
    expect(roles(click("selector"))).not.toContain("returns_untrusted_text");
    expect(roles(click("selector"))).toContain("writes");
    expect(roles(click("ref"))).toContain("returns_untrusted_text");
  });

  it("a record's own deletion state is no trash switch; changing a message or webhook sends nothing new", () => {
    const move = (deleted: unknown) => ({
      name: "move_drive_item",
      inputSchema: {
        type: "object",
        properties: { body: { type: "object", properties: { deleted } } },
      },
    });
    expect(
      roles(move({ type: "object", properties: { state: { type: "string" } } })),
    ).not.toContain("deploys_or_destroys");
    expect(roles(move({ type: "boolean" }))).toContain("deploys_or_destroys");
    expect(roles({ name: "update_email" })).not.toContain("network_or_shares");
    expect(roles({ name: "edit_webhook" })).not.toContain("network_or_shares");
    expect(roles({ name: "add_mail_attachment" })).not.toContain("network_or_shares");
    expect(roles({ name: "create_webhook" })).toContain("network_or_shares");
    expect(roles({ name: "send_email" })).toContain("network_or_shares");
    const hook = { type: "object", properties: { url: { type: "string" } } };
    expect(roles({ name: "update_webhook", inputSchema: hook })).toContain("network_or_shares");
  });

  it('what follows "by" is the key a record is found by, not what is returned', () => {
    expect(roles({ name: "get_tasks_by_filter", annotations: RO })).toContain(
      "returns_untrusted_text",
    );
    expect(roles({ name: "get_filter", annotations: RO })).not.toContain("returns_untrusted_text");
  });

  it("stopping a background search or clearing a session ends the server's own state: no sink", () => {
    for (const name of ["stop_search", "clear_recording_session"])
      expect(sinks({ name })).toEqual([]);
    expect(sinks({ name: "clear_cache" })).not.toEqual([]);
  });

  it("an account's broadcasts and an explanation of an object are not outside text", () => {
    for (const name of ["list_broadcasts", "get_campaign", "explain_resource"])
      expect(roles({ name, annotations: RO })).not.toContain("returns_untrusted_text");
    expect(roles({ name: "explain_email", annotations: RO })).toContain("returns_untrusted_text");
  });

  it("uploading or dropping local files by their paths onto a page sends them out", () => {
    const paths = {
      type: "object",
      properties: { paths: { type: "array", items: { type: "string" } } },
    };
    for (const name of ["browser_file_upload", "browser_drop"])
      expect(roles({ name, inputSchema: paths })).toContain("network_or_shares");
    expect(roles({ name: "drop_collection", inputSchema: paths })).not.toContain(
      "network_or_shares",
    );
    const inline = {
      type: "object",
      properties: { file: { type: "string", description: "Raw base64-encoded file content" } },
    };
    expect(roles({ name: "upload_attachment", inputSchema: inline })).not.toContain(
      "network_or_shares",
    );
    expect(roles({ name: "upload_attachment", inputSchema: inline })).toContain("writes");
  });

  it("going forward in a history is a direction, not forwarding a message", () => {
    expect(
      sinks({ name: "go_forward", description: "Navigate forward in browser history" }),
    ).toEqual([]);
    expect(roles({ name: "go_forward" })).not.toContain("network_or_shares");
    expect(roles({ name: "forward_email" })).toContain("network_or_shares");
  });

  it("composing writes what a later send sends", () => {
    expect(suggestRoles({ name: "compose_broadcast" }).verb).toBe("compose");
    expect(roles({ name: "compose_broadcast" })).toEqual(["writes"]);
  });

  it("an access list is a noun: creating one widens who can connect", () => {
    expect(suggestRoles({ name: "create_access_list" }).verb).toBe("create");
    expect(roles({ name: "create_access_list" })).toContain("network_or_shares");
    expect(suggestRoles({ name: "comment_list" }).verb).toBe("list");
  });

  it("a project's sections and collaborators are names and people, not outside text", () => {
    for (const name of ["get_sections", "list_collaborators"]) {
      expect(roles({ name, annotations: RO })).not.toContain("returns_untrusted_text");
      expect(roles({ name, annotations: RO })).toContain("reads_private_data");
    }
  });

  it("an instruction to the model in a description is not the tool's verb", () => {
    expect(leadingDescriptionVerb("ALWAYS call this before writing code.")).toBeNull();
    expect(leadingDescriptionVerb("Call the partner API with a payload.")).toBe("call");
  });
});

describe("issue 32, fifth round: outside writers' text and private data", () => {
  const str = (description = "") => ({ type: "string", description });
  const obj = (properties: Record<string, unknown>) => ({ type: "object", properties });
  const reasonFor = (t: RoleInputTool, role: string, serverName?: string) =>
    suggestRoles(t, null, undefined, serverName ? { serverName } : undefined)
      .roles.find((r) => r.role === role)
      ?.reasons.join(" | ");

  it("a one-word name that is a text noun, described as a read, returns that text", () => {
    const log = { name: "git_log", description: "View commit history with optional filters" };
    const ctx = { serverName: "git" };
    expect(suggestRoles(log, null, undefined, ctx).roles.map((r) => r.role)).toEqual([
      "returns_untrusted_text",
      "reads_private_data",
    ]);
    // Described as a write, "log" keeps its verb.
    const write = { name: "git_log", description: "Log an entry to the history" };
    expect(suggestRoles(write, null, undefined, ctx).roles.map((r) => r.role)).toContain("writes");
    expect(
      reasonFor(
        { name: "git_diff", description: "View differences" },
        "returns_untrusted_text",
        "git",
      ),
    ).toMatch(/returns diff/);
  });

  it("a mode or action that offers a listing returns what the tool manages, when that is known text", () => {
    const branch = {
      name: "git_branch",
      description: "Manage branches",
      inputSchema: obj({ mode: { type: "string", enum: ["list", "create", "delete"] } }),
    };
    expect(reasonFor(branch, "returns_untrusted_text", "git")).toMatch(
      /input "mode" offers "list"/,
    );
    expect(reasonFor(branch, "reads_private_data", "git")).toMatch(/input "mode" offers "list"/);
    // A listing of something not known to be text gets reads_private_data, not the guess.
    const remote = { ...branch, name: "git_remote", description: "Manage remotes" };
    expect(reasonFor(remote, "reads_private_data", "git")).toMatch(/offers "list"/);
    expect(reasonFor(remote, "returns_untrusted_text", "git")).toBeUndefined();
    // Without a listing choice, nothing is read.
    const noList = {
      ...branch,
      inputSchema: obj({ mode: { type: "string", enum: ["create", "delete"] } }),
    };
    expect(reasonFor(noList, "reads_private_data", "git")).toBeUndefined();
  });

  it("a status is text when the description says files or status updates come with it", () => {
    expect(
      roles({ name: "get_status", description: "Show the working tree status", annotations: RO }),
    ).not.toContain("returns_untrusted_text");
    expect(
      roles({
        name: "get_status",
        description: "Show the working tree status including untracked files",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
    expect(
      roles({ name: "get_project_statuses", description: "Get all status updates for a project" }),
    ).toContain("returns_untrusted_text");
    expect(
      roles({ name: "list_work_item_statuses", description: "List available statuses" }),
    ).not.toContain("returns_untrusted_text");
  });

  it("an input that pages through posts says a read of a names-only object returns them", () => {
    const topic = (inputSchema: unknown) => ({ name: "read_topic", annotations: RO, inputSchema });
    expect(roles(topic(obj({ topic_id: { type: "integer" } })))).not.toContain(
      "returns_untrusted_text",
    );
    expect(
      reasonFor(
        topic(obj({ topic_id: { type: "integer" }, post_limit: { type: "integer" } })),
        "returns_untrusted_text",
      ),
    ).toMatch(/pages through the post/);
    // `max_results` or `per_page` names no text anyone writes.
    expect(
      roles(topic(obj({ max_results: { type: "integer" }, per_page: { type: "integer" } }))),
    ).not.toContain("returns_untrusted_text");
  });

  it("a computation over a record named by id reads it, and quotes it when it is text", () => {
    const extract = {
      name: "extract_calendar",
      annotations: RO,
      inputSchema: obj({ email_id: str("The email's id") }),
    };
    expect(roles(extract)).toEqual(["returns_untrusted_text", "reads_private_data"]);
    const insights = {
      name: "board_insights",
      description: "Calculate insights about a board's data",
      annotations: RO,
      inputSchema: obj({ boardId: str() }),
    };
    expect(roles(insights)).toContain("reads_private_data");
    expect(roles(insights)).not.toContain("returns_untrusted_text");
  });

  it("an HTTP verb to a free address returns that server's response", () => {
    const post = {
      name: "http_post",
      inputSchema: obj({ url: str("URL to send to"), value: str() }),
    };
    expect(reasonFor(post, "returns_untrusted_text", "http")).toMatch(
      /returns that server's response/,
    );
  });

  it("an upload given inline bytes or an address to fetch goes to the service, not a page", () => {
    const upload = (description: string) => ({
      name: "upload_file",
      inputSchema: obj({ image_data: str(description) }),
    });
    expect(roles(upload("Base64 image data"))).not.toContain("returns_untrusted_text");
    expect(
      roles({
        name: "browser_file_upload",
        inputSchema: obj({ paths: { type: "array", items: str("files to upload") } }),
      }),
    ).toContain("returns_untrusted_text");
  });

  it("a protected branch is a protection rule, not the names contributors choose", () => {
    expect(roles({ name: "list_branches", annotations: RO })).toContain("returns_untrusted_text");
    expect(roles({ name: "list_protected_branches", annotations: RO })).not.toContain(
      "returns_untrusted_text",
    );
    expect(roles({ name: "list_protected_branches", annotations: RO })).toContain(
      "reads_private_data",
    );
  });

  it("a qualifier after the verb names which one: the object is the word before the verb", () => {
    const ctx = { serverName: "tracker" };
    const of = (name: string, description?: string) =>
      suggestRoles({ name, description, annotations: RO }, null, undefined, ctx).roles.map(
        (r) => r.role,
      );
    expect(of("workflows-get-default")).toEqual(["reads_private_data"]);
    expect(of("stories-get-active")).toContain("returns_untrusted_text");
    // The current one of several users is the caller's own record.
    expect(of("users-get-current", "Get the current user.")).toEqual(["reads_private_data"]);
  });

  it("run histories, free/busy windows, branches, tags and changelogs", () => {
    expect(roles({ name: "get_automation_runs", annotations: RO })).not.toContain(
      "returns_untrusted_text",
    );
    expect(roles({ name: "get_freebusy", annotations: RO })).not.toContain(
      "returns_untrusted_text",
    );
    expect(reasonFor({ name: "list_tags", annotations: RO }, "returns_untrusted_text")).toMatch(
      /returns tags/,
    );
    expect(
      reasonFor({ name: "changelog_analyze", annotations: RO }, "returns_untrusted_text"),
    ).toMatch(/changelog/);
  });
});

describe("issue 32, part 3: returned text (seven new servers)", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");

  it("a directory of people is names and addresses unless the description names profiles", () => {
    for (const [name, description] of [
      ["search_users", "Search for users on GitHub"],
      ["API-get-users", "Notion | List all users"],
      ["users-list", "Get all users."],
    ] as const) {
      const tool = { name, description, annotations: RO };
      expect(roles(tool)).not.toContain("returns_untrusted_text");
      expect(roles(tool)).toContain("reads_private_data");
      expect(notesOf(tool)).toMatch(/a directory of names/);
    }
    for (const description of [
      "Get GitLab user details by usernames.",
      "Get user info. Returns JSON with id, username, name, trust_level, bio.",
      "Get a list of all users in the workspace with their basic profile information",
    ])
      expect(roles({ name: "get_users", description, annotations: RO })).toContain(
        "returns_untrusted_text",
      );
  });

  it("a read whose response can be asked to carry people's text returns it", () => {
    const board = (choices: string[]) => ({
      name: "manage_board",
      inputSchema: {
        type: "object",
        properties: {
          operation: { type: "string", enum: ["get", "list"] },
          expand: { type: "array", items: { type: "string", enum: choices } },
        },
      },
    });
    expect(roles(board(["sprints", "issues", "configuration"]))).toContain(
      "returns_untrusted_text",
    );
    expect(suggestRoles(board(["issues"])).roles[0]?.reasons.join(" ")).toMatch(
      /input "expand" can ask for issues in the response/,
    );
    expect(roles(board(["sprints", "configuration"]))).not.toContain("returns_untrusted_text");
    // A switch names the text in its own name.
    const project = (key: string) => ({
      name: "get_project_settings",
      annotations: RO,
      inputSchema: { type: "object", properties: { [key]: { type: "boolean" } } },
    });
    expect(roles(project("include_comments"))).toContain("returns_untrusted_text");
    expect(roles(project("include_archived"))).not.toContain("returns_untrusted_text");
  });

  it("a total or a ratio is a figure; published videos are nobody's private data", () => {
    const total = { name: "get_total_worklogs", annotations: RO };
    expect(roles(total)).not.toContain("returns_untrusted_text");
    expect(suggestRoles(total).notes.join(" ")).toMatch(/returns a total \(a figure\)/);
    expect(roles({ name: "get_worklogs", annotations: RO })).toContain("returns_untrusted_text");
    expect(roles({ name: "getVideoEngagementRatio", annotations: RO })).not.toContain(
      "returns_untrusted_text",
    );
    // A computation over videos quotes their titles.
    expect(roles({ name: "compareVideos", description: "Compares videos" })).toContain(
      "returns_untrusted_text",
    );
    const videos = { name: "searchVideos", description: "Searches for videos", annotations: RO };
    expect(roles(videos)).not.toContain("reads_private_data");
    expect(roles({ name: "get_recordings", annotations: RO })).toContain("reads_private_data");
  });

  it("vault items are the account's secrets; masked text is not returned; a sum is a figure", () => {
    const vault = { name: "list", description: "List items from your vault or organization" };
    expect(roles(vault)).not.toContain("returns_untrusted_text");
    expect(roles(vault)).toContain("reads_private_data");
    expect(suggestRoles(vault).notes.join(" ")).toMatch(/kept in a vault/);
    // A note in the vault is still a note.
    expect(
      roles({ name: "read_note", description: "Read a note from the vault", annotations: RO }),
    ).toContain("returns_untrusted_text");
    const app = (description: string) => ({
      name: "get_application",
      description,
      annotations: RO,
    });
    expect(
      roles(app("App details. Credentials (compose bodies, labels) are masked by default.")),
    ).not.toContain("returns_untrusted_text");
    expect(roles(app("App details with its compose bodies."))).toContain("returns_untrusted_text");
    expect(roles({ name: "get-sum", description: "Returns the sum of two numbers" })).not.toContain(
      "returns_untrusted_text",
    );
    // Feedback is what the caller tells the vendor.
    expect(roles({ name: "search_feedback", annotations: RO })).not.toContain(
      "returns_untrusted_text",
    );
  });

  it("a description that says output, a snapshot or file content comes back, and read or view operations, return text", () => {
    const process = {
      name: "interact_with_process",
      description: "Send input to an existing terminal process and return newly available output.",
    };
    expect(roles(process)).toContain("returns_untrusted_text");
    expect(
      suggestRoles(process)
        .roles.find((r) => r.role === "returns_untrusted_text")
        ?.reasons.join(" "),
    ).toMatch(/the description says it returns output/);
    const ops = (values: string[], field = "operation") => ({
      name: "manage_workspace",
      inputSchema: { type: "object", properties: { [field]: { type: "string", enum: values } } },
    });
    expect(roles(ops(["list", "read", "write", "delete"]))).toContain("returns_untrusted_text");
    expect(roles(ops(["list", "upload", "view", "delete"]))).toContain("returns_untrusted_text");
    expect(roles(ops(["list", "write", "delete"]))).not.toContain("returns_untrusted_text");
    // A read state beside its opposite, or a flag a rule sets, is not reading content.
    expect(
      roles({ ...ops(["read", "unread", "flag"], "action"), name: "mark_email" }),
    ).not.toContain("returns_untrusted_text");
  });

  it("an input described as local files to upload sends them out, whatever the verb", () => {
    const pr = (description: string) => ({
      name: "create_pull_request",
      inputSchema: {
        type: "object",
        properties: {
          title: { type: "string" },
          attachments: { type: "array", items: { type: "string" }, description },
        },
      },
    });
    expect(roles(pr("Local files to upload & embed"))).toContain("network_or_shares");
    expect(roles(pr("Ids of files already uploaded"))).not.toContain("network_or_shares");
  });

  it("a field the service sets (readOnly) and a trash field on a record being made delete nothing", () => {
    const label = (name: string, extra: Record<string, unknown>) => ({
      name,
      inputSchema: {
        type: "object",
        properties: {
          data: { type: "object", properties: { name: { type: "string" }, ...extra } },
        },
      },
    });
    const deletedAt = { deleted_at: { type: "string", format: "date-time", readOnly: true } };
    expect(roles(label("update_label", deletedAt))).not.toContain("deploys_or_destroys");
    const archivedAt = { archived_at: { type: "string", format: "date-time" } };
    expect(roles(label("create_module", archivedAt))).not.toContain("deploys_or_destroys");
    expect(roles(label("update_module", archivedAt))).toContain("deploys_or_destroys");
  });
});

describe("issue 32, sixth pass: merged misses", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");

  it("infrastructure the account configures is read by its names, not as outside text", () => {
    for (const name of [
      "list_firewalls",
      "vpc-get",
      "certificate-list",
      "route_list",
      "list_servers",
    ]) {
      expect(roles({ name, annotations: RO })).not.toContain("returns_untrusted_text");
      expect(notesOf({ name, annotations: RO })).toMatch(/infrastructure the account configures/);
    }
    // What it produces is read by its own noun, or named by the description.
    expect(roles({ name: "get_build_logs", annotations: RO })).toContain("returns_untrusted_text");
    expect(
      roles({ name: "worker_get", description: "Get a Worker's script content", annotations: RO }),
    ).toContain("returns_untrusted_text");
    // A log drain is where logs go (a setting), not logs.
    expect(
      roles({
        name: "get_server",
        description: "Server details. Log-drain credentials are masked.",
        annotations: RO,
      }),
    ).not.toContain("returns_untrusted_text");
    expect(
      roles({
        name: "get_server",
        description: "Server details and recent logs.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
    // A DNS record is an address the account set; a table's records are what people wrote.
    expect(notesOf({ name: "domain-record-list", annotations: RO })).toMatch(
      /returns record: infrastructure/,
    );
    expect(roles({ name: "list_records", annotations: RO })).toContain("returns_untrusted_text");
    // The description's cue is part of what a shared inference is keyed by.
    const cache = newRoleCache();
    for (const description of ["List servers with their source", "List servers"]) {
      const tool = { name: "list_servers", description, annotations: RO };
      expect(resolveRoles(tool, null, cache).suggestion).toEqual(suggestRoles(tool));
    }
    // Deployments and environments carry refs and CI names: not read as settings only.
    expect(roles({ name: "list_environments", annotations: RO })).toContain(
      "returns_untrusted_text",
    );
  });

  it("a switch described as archiving the record it updates is an archive; on a record being made it is not", () => {
    const withSwitch = (name: string): RoleInputTool => ({
      name,
      inputSchema: {
        type: "object",
        properties: {
          id: { type: "string" },
          closed: { type: "boolean", description: "Whether to close (archive) the list" },
        },
      },
    });
    expect(roles(withSwitch("update_list"))).toContain("deploys_or_destroys");
    expect(
      suggestRoles(withSwitch("update_list")).roles.find((r) => r.role === "deploys_or_destroys")
        ?.reasons[0],
    ).toMatch(/input "closed" can delete it, move it to the trash or archive it/);
    expect(roles(withSwitch("create_filter"))).not.toContain("deploys_or_destroys");
  });

  it("git's remotes: an address on any host, a push to a named remote, a delete switch", () => {
    const schema = (properties: Record<string, unknown>) => ({ type: "object", properties });
    const clone: RoleInputTool = {
      name: "git_clone",
      inputSchema: schema({
        url: {
          type: "string",
          description: "Git repository URL: HTTP(S), SSH, git://, or file://",
        },
      }),
    };
    expect(roles(clone)).toContain("network_or_shares");
    // One scheme named in passing is not "any host".
    const link: RoleInputTool = {
      name: "update_item",
      inputSchema: schema({ linkToFile: { type: "string", description: "File link URL" } }),
    };
    expect(roles(link)).not.toContain("network_or_shares");
    const push = (remote: boolean): RoleInputTool => ({
      name: "git_push",
      inputSchema: schema({
        path: { type: "string" },
        ...(remote ? { remote: { type: "string", description: "Remote name" } } : {}),
        delete: { type: "boolean", description: "Delete the specified remote branch." },
      }),
    });
    expect(roles(push(true))).toContain("network_or_shares");
    expect(roles(push(false))).not.toContain("network_or_shares");
    expect(roles(push(true))).toContain("deploys_or_destroys");
    // A permission to delete is not a delete switch.
    const member: RoleInputTool = {
      name: "update_member",
      inputSchema: schema({ deleteAnyCollection: { type: "boolean" } }),
    };
    expect(roles(member)).not.toContain("deploys_or_destroys");
  });

  it("an input naming who is allowed to run or see it hands out access", () => {
    const query = (description: string): RoleInputTool => ({
      name: "create_query",
      inputSchema: {
        type: "object",
        properties: {
          sql: { type: "string" },
          group_ids: { type: "array", items: { type: "integer" }, description },
        },
      },
    });
    expect(roles(query("Group IDs allowed to run this query"))).toContain("network_or_shares");
    expect(roles(query("Group IDs to filter by"))).not.toContain("network_or_shares");
  });

  it("an output field named for what people write, holding anything, says the tool returns that text", () => {
    const out = (items: unknown) => ({
      type: "object",
      properties: { documents: { type: "array", items }, count: { type: "number" } },
    });
    const aggregate = (outputSchema: unknown): RoleInputTool => ({
      name: "aggregate",
      description: "Run an aggregation against a collection",
      outputSchema,
    });
    expect(roles(aggregate(out({})))).toContain("returns_untrusted_text");
    expect(
      suggestRoles(aggregate(out({}))).roles.find((r) => r.role === "returns_untrusted_text")
        ?.reasons[0],
    ).toMatch(/output schema returns "documents"/);
    // Documents listed by id and name carry no one's prose.
    const named = out({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" } },
    });
    expect(roles(aggregate(named))).not.toContain("returns_untrusted_text");
    // A write's output echoes what it wrote.
    expect(roles({ name: "create_documents", outputSchema: out({}) })).not.toContain(
      "returns_untrusted_text",
    );
  });

  it("a privacy setting sets who can see what is written", () => {
    const project: RoleInputTool = {
      name: "create_project",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string" },
          privacy_setting: { type: "string", description: "Can be: public_to_workspace, private" },
        },
      },
    };
    expect(roles(project)).toContain("network_or_shares");
  });

  it("a mode that offers a listing is a choice of operations: each mode is offered", () => {
    const tool = (modes: string[]): RoleInputTool => ({
      name: "git_branch",
      description: "Manage branches.",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string" }, mode: { type: "string", enum: modes } },
      },
    });
    expect(roles(tool(["list", "create", "delete", "rename"]))).toContain("deploys_or_destroys");
    expect(
      suggestRoles(tool(["list", "create", "delete"])).roles.find(
        (r) => r.role === "deploys_or_destroys",
      )?.reasons[0],
    ).toMatch(/input "mode" offers the operation "delete"/);
    // A mode with no listing is a setting (`mode: fast | delete-safe`), not operations.
    expect(roles(tool(["fast", "delete"]))).not.toContain("deploys_or_destroys");
  });
});

describe("confidence", () => {
  it("every suggested role carries reasons and a confidence in 0..1; the tool's is its least certain decision", () => {
    for (const tool of [
      { name: "upload_and_delete", description: "Uploads a file, then deletes it" },
      { name: "get_issue", annotations: RO },
      { name: "do_thing" },
      { name: "delete_branch", annotations: RO },
    ]) {
      const s = suggestRoles(tool);
      for (const r of s.roles) {
        expect(r.reasons.length).toBeGreaterThan(0);
        expect(r.confidence).toBeGreaterThan(0);
        expect(r.confidence).toBeLessThanOrEqual(1);
        expect(s.confidence).toBeLessThanOrEqual(r.confidence);
      }
    }
  });

  it("the uncertain come first: a conflict or an unknown verb is less sure than an annotated read", () => {
    const c = (t: RoleInputTool) => suggestRoles(t).confidence;
    expect(c({ name: "get_issue", annotations: RO })).toBeGreaterThan(c({ name: "get_issue" }));
    expect(c({ name: "get_issue" })).toBeGreaterThan(c({ name: "delete_branch", annotations: RO }));
    expect(c({ name: "delete_branch", annotations: RO })).toBeGreaterThan(c({ name: "do_thing" }));
  });

  it("mapped sources make a tool return their text", () => {
    const s = suggestRoles(
      { name: "x", annotations: { readOnlyHint: true, openWorldHint: false } },
      { sourceIds: ["support-portal" as never], roles: [], rolesConfirmed: false },
    );
    const returned = s.roles.find((r) => r.role === "returns_untrusted_text");
    expect(returned?.confidence).toBe(1);
    expect(returned?.reasons).toContain("returns text from 1 mapped source(s): support-portal");
  });
});

describe("resolveRoles", () => {
  const tool = { name: "trigger_deploy", annotations: { destructiveHint: true } };
  const base = { serverId: "deploy-tools" as never, tool: "trigger_deploy", sourceIds: [] };

  it("a confirmed assessment is authoritative", () => {
    const r = resolveRoles(tool, { ...base, roles: ["deploys_or_destroys"], rolesConfirmed: true });
    expect(r).toMatchObject({ roles: ["deploys_or_destroys"], origin: "confirmed" });
  });

  it("otherwise the suggestion is used and marked as such, including unconfirmed entered roles", () => {
    const r = resolveRoles(
      { name: "lookup", annotations: { readOnlyHint: true, openWorldHint: false } },
      { ...base, roles: ["reads_private_data"], rolesConfirmed: false },
    );
    expect(r.origin).toBe("suggested");
    expect(r.roles).toEqual(["returns_untrusted_text", "reads_private_data"]);
  });
});

describe("the role cache of one analysis", () => {
  it("shares one inference between tools that read alike, and gives each the same suggestion as without a cache", () => {
    const cache = newRoleCache();
    const tools: RoleInputTool[] = [
      { name: "get_thing_7", annotations: RO },
      { name: "get_thing_8", annotations: RO },
      { name: "delete_branch_x", annotations: RO },
      {
        name: "gitlab_fetch",
        inputSchema: { type: "object", properties: { url: { type: "string" } } },
      },
      { name: "thingy", description: "Deletes a thing" },
      { name: "thingy", description: "Lists things" },
    ];
    for (const tool of tools)
      expect(
        resolveRoles(tool, null, cache, { serverName: "GitLab" }).suggestion,
        tool.name,
      ).toEqual(suggestRoles(tool, null, undefined, { serverName: "GitLab" }));
    expect(resolveRoles(tools[0]!, null, cache)).toBe(resolveRoles(tools[1]!, null, cache));
    expect(cache.inferences.size).toBeLessThan(tools.length);
  });

  it("keeps inferences for the next analysis: the same tools in a new cache make no new inference and the same suggestions", () => {
    const tools: RoleInputTool[] = [
      { name: "search_tickets", description: "Searches support tickets", annotations: RO },
      {
        name: "post_message",
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
      },
    ];
    const first = newRoleCache();
    const before = tools.map((t) => resolveRoles(t, null, first, { serverName: "Desk" }));
    const second = newRoleCache();
    const after = tools.map((t) => resolveRoles(t, null, second, { serverName: "Desk" }));
    expect(second.inferences.size).toBe(0);
    expect(after.map((r) => r.suggestion)).toEqual(before.map((r) => r.suggestion));
    // Another server's words are another input: its tools are inferred anew.
    resolveRoles(tools[0]!, null, second, { serverName: "Tickets" });
    expect(second.inferences.size).toBe(1);
  });

  it("keys a kept inference so that no split of a name and a description can pass for another tool", () => {
    const a = { name: "get_page\u0000x", description: "y", annotationCombination: 0 };
    const b = { name: "get_page", description: "x\u0000y", annotationCombination: 0 };
    const c = { name: "get_page", description: 'x","y', annotationCombination: 0 };
    const kept = [a, b, c].map((t) => keptInferenceOf(t, "Pages"));
    expect(new Set(kept).size).toBe(3);
    // Each is found again, by content, in a later analysis (a new memo, new objects).
    expect([a, b, c].map((t) => keptInferenceOf({ ...t }, "Pages"))).toEqual(kept);
    [a, b, c].forEach((t, i) => expect(keptInferenceOf({ ...t }, "Pages")).toBe(kept[i]));
  });

  it("keeps one inference per server words, annotations, description and schema, each in its own place", () => {
    const schema = { type: "object", properties: { url: { type: "string" } } };
    const base = { name: "post_page", description: "Posts a page", annotationCombination: 0 };
    const variants = [
      base,
      { ...base, annotationCombination: 1 },
      { ...base, description: undefined },
      { ...base, description: "" },
      { ...base, inputSchema: schema },
      { ...base, outputSchema: schema },
      { ...base, inputSchema: schema, outputSchema: schema },
      { ...base, inputSchema: {} },
    ];
    const kept = variants.map((t) => keptInferenceOf(t, "Wiki"));
    const otherServer = keptInferenceOf(base, "Pages");
    expect(new Set([...kept, otherServer]).size).toBe(variants.length + 1);
    variants.forEach((t, i) => expect(keptInferenceOf(structuredClone(t), "Wiki")).toBe(kept[i]));
    // A server name with the same words is the same input.
    expect(keptInferenceOf(base, "wiki")).toBe(kept[0]);
    // A schema changed in place between analyses is read anew: kept by content, not by object.
    const changing = { type: "object", properties: { title: { type: "string" } } };
    const before = keptInferenceOf({ ...base, inputSchema: changing }, "Wiki");
    expect(before.roles.has("network_or_shares")).toBe(false);
    (changing.properties as Record<string, unknown>).url = { type: "string" };
    const after = keptInferenceOf({ ...base, inputSchema: changing }, "Wiki");
    expect(after.roles.has("network_or_shares")).toBe(true);
    expect(after).toEqual(
      inferRoles({ ...base, inputSchema: structuredClone(changing), serverWords: ["wiki"] }),
    );
  });

  it("holds a bounded number of characters across analyses, however long the tools a server lists", () => {
    const long = "Lists the notes of a project. ".repeat(35_000); // ~1 MB
    for (let i = 0; i < 20; i++)
      suggestRoles({ name: `list_notes_${i}`, description: long + i }, null, newRoleCache());
    expect(keptInferenceChars()).toBeGreaterThan(0);
    expect(keptInferenceChars()).toBeLessThanOrEqual(KEPT_CHARS_MAX);
    // One tool longer than the whole bound is answered and not kept.
    const huge = { name: "list_notes_huge", description: "x".repeat(KEPT_CHARS_MAX) };
    expect(suggestRoles(huge, null, newRoleCache()).roles).toEqual(suggestRoles(huge).roles);
    expect(keptInferenceChars()).toBeLessThanOrEqual(KEPT_CHARS_MAX);
    // Each kept tool counts its maps too, however short its name: a thousand one-letter tools
    // hold at least a thousand times that.
    const before = keptInferenceChars();
    for (let i = 0; i < 1000; i++)
      keptInferenceOf({ name: String.fromCharCode(0x4e00 + i), annotationCombination: 0 }, "Tiny");
    expect(keptInferenceChars() - before).toBeGreaterThanOrEqual(1000 * KEPT_TOOL_CHARS);
  });

  const assessment = (over: object = {}) => ({
    serverId: "s" as never,
    tool: "t",
    sourceIds: [],
    roles: [],
    rolesConfirmed: false,
    ...over,
  });

  it("gives tools with the same reasons one shared resolution, whose roles cannot be changed", () => {
    const cache = newRoleCache();
    // Nouns the lexicon knows are reasons of their own (issue 32); two unknown ones read alike.
    const a = resolveRoles({ name: "search_pages", description: "Search pages" }, null, cache);
    const b = resolveRoles({ name: "search_gizmos", description: "Search gizmos" }, null, cache);
    const c = resolveRoles({ name: "search_widgets", description: "Search widgets" }, null, cache);
    expect(c).toBe(b);
    expect(a).not.toBe(b);
    expect(Object.isFrozen(a.roles)).toBe(true);
    expect(() => (a.roles as string[]).push("writes")).toThrow(TypeError);
    // Without a cache every call is its own object, equal in content.
    expect(resolveRoles({ name: "search_pages", description: "Search pages" })).not.toBe(a);
    expect(resolveRoles({ name: "search_pages", description: "Search pages" })).toEqual(a);
  });

  it("keeps apart what differs: a hint, a keyword, a confirmation, a tool's own mapped sources", () => {
    const cache = newRoleCache();
    const base = resolveRoles(
      { name: "get_page", annotations: { readOnlyHint: true } },
      null,
      cache,
    );
    expect(
      resolveRoles(
        { name: "get_page", annotations: { readOnlyHint: true, openWorldHint: false } },
        null,
        cache,
      ),
    ).not.toBe(base);
    expect(
      resolveRoles({ name: "read_page", annotations: { readOnlyHint: true } }, null, cache)
        .suggestion.roles,
    ).not.toEqual(base.suggestion.roles);
    const confirmed = resolveRoles(
      { name: "get_page", annotations: { readOnlyHint: true } },
      assessment({ roles: ["writes"], rolesConfirmed: true }),
      cache,
    );
    expect(confirmed.origin).toBe("confirmed");
    expect(confirmed.roles).toEqual(["writes"]);
    expect(confirmed.suggestion).toBe(base.suggestion);
    const one = resolveRoles({ name: "get_page" }, assessment({ sourceIds: ["wiki"] }), cache);
    const other = resolveRoles({ name: "get_page" }, assessment({ sourceIds: ["portal"] }), cache);
    expect(one.reasons[0]?.reasons).toContain("returns text from 1 mapped source(s): wiki");
    expect(other.reasons[0]?.reasons).toContain("returns text from 1 mapped source(s): portal");
  });

  it("keeps a mapped tool's suggestion for the next analysis only while its sources say the same", () => {
    const tool = { name: "get_ticket", description: "Gets a ticket", annotations: RO };
    const mapped = assessment({ sourceIds: ["desk", "wiki"] });
    const sources = (deskName: string, desk: "internal" | "secret") =>
      new Map([
        ["desk", { name: deskName, confidentiality: desk }],
        ["wiki", { name: "Wiki", confidentiality: "internal" as const }],
      ]);
    const analyse = (cache: RoleCache, s: ReturnType<typeof sources>) =>
      resolveRoles(tool, mapped, cache, { serverName: "Desk", sources: s });
    const first = analyse(newRoleCache(), sources("Help desk", "internal"));
    // A new analysis with an equal (new) sources map finds it kept.
    expect(analyse(newRoleCache(), sources("Help desk", "internal"))).toBe(first);
    // A renamed or reclassified source is named anew, as without any cache.
    for (const s of [sources("Support", "internal"), sources("Help desk", "secret")]) {
      const again = analyse(newRoleCache(), s);
      expect(again).not.toBe(first);
      expect(again).toEqual(
        resolveRoles(tool, mapped, undefined, { serverName: "Desk", sources: s }),
      );
    }
    // Analyses with other sources in between do not change what an analysis's cache hands out.
    const cache = newRoleCache();
    const secret = sources("Help desk", "secret");
    const mine = analyse(cache, secret);
    analyse(newRoleCache(), sources("Help desk", "internal"));
    expect(analyse(cache, secret)).toBe(mine);
    expect(mine.roles).toContain("reads_private_data");
  });

  it("holds a bounded number of characters of mapped suggestions across analyses", () => {
    // 1,000 sources with 200-character names: each tool mapped to all of them names them all.
    const ids = Array.from({ length: 1000 }, (_, i) => `src-${i}`);
    const sources = new Map(
      ids.map((id) => [
        id,
        { name: `${id} ${"x".repeat(192)}`, confidentiality: "secret" as const },
      ]),
    );
    for (let i = 0; i < 30; i++) {
      const cache = newRoleCache();
      const r = resolveRoles({ name: `get_doc_${i}` }, assessment({ sourceIds: ids }), cache, {
        sources,
      });
      expect(r.roles).toContain("reads_private_data");
      // At most the bound, and what one analysis adds past it (here one tool: ~410,000 characters).
      expect(keptMappedChars()).toBeLessThanOrEqual(KEPT_MAPPED_CHARS_MAX + 500_000);
    }
  });

  it("role sets and masks agree for every set", () => {
    for (let mask = 0; mask < 32; mask++) expect(roleMask(roleSet(mask))).toBe(mask);
    expect(roleSet(roleMask(["writes", "returns_untrusted_text"]))).toEqual([
      "returns_untrusted_text",
      "writes",
    ]);
  });
});

describe("issue 32, part 3, second pass: names that are not outside text", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");
  const reasonsOf = (t: RoleInputTool) =>
    suggestRoles(t)
      .roles.flatMap((r) => r.reasons)
      .join(" ");

  it("pictures and archives come back as bytes or a link, not text", () => {
    const images = {
      name: "list-images",
      description: "Retrieves a list of image assets.",
      annotations: RO,
    };
    expect(roles(images)).not.toContain("returns_untrusted_text");
    expect(notesOf(images)).toMatch(/returns images: bytes or a download link/);
    const generated = {
      name: "generate-image",
      description: "Generate an image from a text prompt using AI models.",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } } },
    };
    expect(roles(generated)).not.toContain("returns_untrusted_text");
    // A page's text is still text.
    expect(roles({ name: "get_page", description: "Get a page", annotations: RO })).toContain(
      "returns_untrusted_text",
    );
  });

  it("tags applied to records are names; a repository's tags are refs contributors name", () => {
    const applied = {
      name: "list-tags",
      description: "Retrieves a list of tags currently applied to assets in your account",
      annotations: RO,
    };
    expect(roles(applied)).not.toContain("returns_untrusted_text");
    expect(notesOf(applied)).toMatch(/returns tags: names and settings/);
    expect(
      roles({
        name: "list_tags",
        description: "List repository tags for a project",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
    // The tasks a tag groups are still tasks.
    expect(
      roles({
        name: "get_tasks_for_tag",
        description: "Get tasks for a specific tag",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("a chart's events are figures by date, not the milestone's text", () => {
    const burndown = {
      name: "get_milestone_burndown_events",
      description: "Get burndown events for a specific milestone.",
      annotations: RO,
    };
    expect(roles(burndown)).not.toContain("returns_untrusted_text");
    expect(notesOf(burndown)).toMatch(/burndown events: a chart's figures by date/);
    expect(
      roles({
        name: "get_project_events",
        description: "List events for a project",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("a project's labels and states come with descriptions; a board's labels are names", () => {
    const projectLabels = {
      name: "list_labels",
      description: "Get all labels for a specific project",
      inputSchema: { type: "object", properties: { project_id: { type: "string" } } },
      annotations: RO,
    };
    expect(roles(projectLabels)).toContain("returns_untrusted_text");
    expect(reasonsOf(projectLabels)).toMatch(/a project's labels \(input names the project\)/);
    const boardLabels = {
      name: "get_board_labels",
      description: "Get all labels of a specific board",
      inputSchema: { type: "object", properties: { boardId: { type: "string" } } },
      annotations: RO,
    };
    expect(roles(boardLabels)).not.toContain("returns_untrusted_text");
    // Only the labels themselves: an approval state of a merge request is a state.
    expect(
      roles({
        name: "get_merge_request_approval_state",
        description: "Get merge request approval details including approvers.",
        inputSchema: { type: "object", properties: { project_id: { type: "string" } } },
        annotations: RO,
      }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a listing whose description says descriptions come back returns their owners' prose", () => {
    const teams = {
      name: "list_teams",
      description:
        "List all teams the current user is a member of. Returns team names, descriptions, and IDs.",
      annotations: RO,
    };
    expect(roles(teams)).toContain("returns_untrusted_text");
    expect(reasonsOf(teams)).toMatch(/the description says descriptions come back/);
    expect(
      roles({ name: "list_teams", description: "List all teams", annotations: RO }),
    ).not.toContain("returns_untrusted_text");
    // The vendor's own presets come with the vendor's descriptions.
    expect(
      roles({
        name: "list_presets",
        description: "List all available AI triage presets with their descriptions",
        annotations: RO,
      }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a multi-mode git tool that lists stashes or worktrees returns their messages and branches", () => {
    const stash = {
      name: "git_stash",
      description: "Manage stashes: list stashes, save current changes (push), or remove stashes.",
      inputSchema: {
        type: "object",
        properties: { mode: { type: "string", enum: ["list", "push", "pop", "drop"] } },
      },
    };
    expect(roles(stash)).toContain("returns_untrusted_text");
    expect(
      roles({
        ...stash,
        inputSchema: {
          type: "object",
          properties: { mode: { type: "string", enum: ["push", "pop"] } },
        },
      }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a commit's statuses carry CI job names; other statuses are states", () => {
    const commit = {
      name: "list_commit_statuses",
      description: "List statuses for a commit.",
      annotations: RO,
    };
    expect(roles(commit)).toContain("returns_untrusted_text");
    expect(reasonsOf(commit)).toMatch(/a commit's statuses carry the CI jobs' names/);
    expect(
      roles({
        name: "list_order_statuses",
        description: "List statuses for an order.",
        annotations: RO,
      }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a download that can save to a file still returns text when the description says it comes back inline", () => {
    const download = (description: string) => ({
      name: "download_attachment",
      description,
      inputSchema: {
        type: "object",
        properties: {
          id: { type: "string" },
          local_path: { type: "string", description: "Save the file to this local path" },
        },
      },
    });
    expect(
      roles(
        download(
          "Download an uploaded file (images returned as base64; use local_path to save to disk).",
        ),
      ),
    ).toContain("returns_untrusted_text");
    expect(roles(download("Download an uploaded file to disk."))).not.toContain(
      "returns_untrusted_text",
    );
  });

  it("an agent noun after a preposition is what the object is found by, not the action", () => {
    const bySender = {
      name: "search_by_sender",
      description: "Search messages from a specific sender with optional date range.",
    };
    expect(roles(bySender)).not.toContain("network_or_shares");
    expect(roles(bySender)).not.toContain("writes");
    expect(roles(bySender)).toContain("returns_untrusted_text");
    // At the end of a name with no preposition, it is still what the tool does.
    expect(roles({ name: "notification_sender", description: "Sends notifications" })).toContain(
      "network_or_shares",
    );
  });

  it("connecting to or disconnecting from the server's own configured services keeps nothing", () => {
    for (const [name, description] of [
      ["connect_all", "Connect to both IMAP and SMTP servers simultaneously"],
      ["disconnect_all", "Disconnect from both IMAP and SMTP servers."],
    ] as const)
      expect(roles({ name, description })).toEqual([]);
    // A connection to an address the caller names still reaches it.
    expect(
      roles({
        name: "connect",
        description: "Initialize connection to a server",
        inputSchema: { type: "object", properties: { url: { type: "string" } } },
      }),
    ).toContain("network_or_shares");
  });

  it("confirming an issue or a finding is a write, not a read of its text", () => {
    const confirm = {
      name: "confirmIssue",
      description: "Confirm a SonarQube issue",
      annotations: { readOnlyHint: false },
    };
    expect(roles(confirm)).toEqual(["writes"]);
  });

  it("a workflow of status transitions moves an item between states; nothing runs", () => {
    const transitions = {
      name: "jira_workflow",
      description:
        "Manage issue status transitions. Use get_transitions first, then transition with the ID.",
      inputSchema: {
        type: "object",
        properties: { action: { type: "string", enum: ["get_transitions", "transition"] } },
      },
    };
    expect(roles(transitions)).not.toContain("deploys_or_destroys");
    expect(notesOf(transitions)).toMatch(/status transitions/);
    expect(
      roles({ name: "update_workflow", description: "Update an automation workflow's nodes" }),
    ).toContain("deploys_or_destroys");
  });
});

describe("eighth round: sinks, deploys and sharing (issue 32)", () => {
  const reasons = (t: RoleInputTool, role: string) =>
    suggestRoles(t)
      .roles.filter((r) => r.role === role)
      .flatMap((r) => r.reasons)
      .join("; ");
  const obj = (properties: Record<string, unknown>) => ({ type: "object" as const, properties });

  it("switching on tools the session did not list widens what the agent can do: a write, whatever readOnlyHint claims", () => {
    const discover = {
      name: "discover_tools",
      description: "Find and activate additional tool categories for this session.",
      annotations: RO,
      inputSchema: obj({ category: { type: "string" } }),
    };
    expect(roles(discover)).toContain("writes");
    expect(reasons(discover, "writes")).toMatch(/switches on tools/);
    // Describing the tools the server has changes nothing.
    expect(
      sinks({ name: "list_tools", description: "List the tools this server offers." }),
    ).toEqual([]);
  });

  it("a write whose description opens with a removal is a destroy", () => {
    const unlink = {
      name: "disconnect_relation",
      description: "Disconnects related entries from a relation field.",
      inputSchema: obj({ id: { type: "string" }, relatedIds: { type: "array" } }),
    };
    expect(roles(unlink)).toContain("deploys_or_destroys");
    expect(reasons(unlink, "deploys_or_destroys")).toMatch(/opens with "disconnect"/);
    // The reason names the opening the rule read (the description's first 2,000 characters),
    // never the whole description's, which a server's padding can make differ.
    const padded = { ...unlink, description: " ".repeat(1994) + "Detachment of the owner." };
    expect(reasons(padded, "deploys_or_destroys")).toMatch(/opens with "detach"/);
    // Ending the server's own session is still no sink.
    expect(
      sinks({ name: "disconnect_session", description: "Disconnect and remove the session." }),
    ).toEqual([]);
    // A write described as adding is not a destroy.
    expect(
      roles({ name: "assign_story", description: "Add the user as story owner." }),
    ).not.toContain("deploys_or_destroys");
  });

  it("writing the code of a class, trigger or procedure the service runs deploys code that can reach the network", () => {
    const writeClass = {
      name: "write_class",
      description: "Create or update a class in the org.",
      inputSchema: obj({
        className: { type: "string" },
        body: { type: "string", description: "Full body of the class" },
      }),
    };
    expect(roles(writeClass)).toEqual(
      expect.arrayContaining(["writes", "deploys_or_destroys", "network_or_shares"]),
    );
    expect(reasons(writeClass, "deploys_or_destroys")).toMatch(/code of a unit the service/);
    // A body that is prose is not code.
    const comment = {
      name: "update_comment",
      inputSchema: obj({ body: { type: "string", description: "The comment's text" } }),
    };
    expect(roles(comment)).not.toContain("deploys_or_destroys");
  });

  it("an application or service made from a repository the caller names builds and runs that code", () => {
    const fromRepo = {
      name: "create_application",
      inputSchema: obj({
        application: obj({
          spec: obj({ source: obj({ repoURL: { type: "string" }, path: { type: "string" } }) }),
        }),
      }),
    };
    expect(roles(fromRepo)).toEqual(
      expect.arrayContaining(["writes", "deploys_or_destroys", "network_or_shares"]),
    );
    expect(reasons(fromRepo, "network_or_shares")).toMatch(/repository in input "repoURL"/);
    // Managing an integration that lists a repository's branches runs nothing from it.
    const integration = {
      name: "manage_apps",
      inputSchema: obj({
        action: { type: "string", enum: ["list", "list_branches"] },
        repo: { type: "string" },
      }),
    };
    expect(roles(integration)).not.toContain("network_or_shares");
    // A repository named by id on an issue is no deployable.
    expect(
      roles({ name: "create_issue", inputSchema: obj({ repo: { type: "string" } }) }),
    ).not.toContain("deploys_or_destroys");
  });

  it("syncing an application to its source deploys it", () => {
    expect(roles({ name: "sync_application" })).toContain("deploys_or_destroys");
    expect(reasons({ name: "sync_application" }, "deploys_or_destroys")).toMatch(/"sync"/);
    expect(roles({ name: "sync_calendar" })).not.toContain("deploys_or_destroys");
  });

  it("a status choice that merges a pull request or archives a record is a destroy", () => {
    const status = (name: string, choices: string[]) => ({
      name,
      inputSchema: obj({ id: { type: "number" }, status: { type: "string", enum: choices } }),
    });
    expect(roles(status("update_pull_request", ["active", "abandoned", "completed"]))).toContain(
      "deploys_or_destroys",
    );
    expect(roles(status("update_item", ["active", "resolved", "archived"]))).toContain(
      "deploys_or_destroys",
    );
    // "completed" on a task closes it; only a pull request merges.
    expect(roles(status("update_task", ["open", "completed"]))).not.toContain(
      "deploys_or_destroys",
    );
    // A listing filtered by an archived status reads.
    expect(roles(status("list_items", ["active", "archived"]))).not.toContain(
      "deploys_or_destroys",
    );
  });

  it("a local file read by its path and uploaded leaves the machine, even beside a base64 alternative", () => {
    const attach = (description: string, properties: Record<string, unknown>) => ({
      name: "create_attachment",
      description,
      inputSchema: obj(properties),
    });
    const byPath = attach("Upload a file and attach it to a work item.", {
      filePath: { type: "string", description: "The absolute path to the file to upload" },
    });
    expect(roles(byPath)).toContain("network_or_shares");
    expect(reasons(byPath, "network_or_shares")).toMatch(/local file named in input "filePath"/);
    expect(
      roles(
        attach("Upload a file.", {
          file_base64: { type: "string", description: "File content, base64 encoded" },
          file_path: { type: "string", description: "Absolute path to a file" },
        }),
      ),
    ).toContain("network_or_shares");
    // Base64 content with a file name is the caller's data, not a local file.
    expect(
      roles(
        attach("Upload a file to the record.", {
          file: { type: "string", description: "Base64-encoded file content" },
          filename: { type: "string" },
        }),
      ),
    ).not.toContain("network_or_shares");
  });

  it("a proxy or port that exposes a service to outside callers widens who can reach it", () => {
    const proxy = {
      name: "tcp_proxy_create",
      description: "Create a new TCP proxy for a service. Best for: exposing TCP services.",
    };
    expect(roles(proxy)).toContain("network_or_shares");
    expect(reasons(proxy, "network_or_shares")).toMatch(/exposes a service or port/);
    expect(
      roles({ name: "proxy_list", description: "List TCP proxies exposing services." }),
    ).not.toContain("network_or_shares");
  });

  it("an input that grants some kind of access to people or profiles widens who can read", () => {
    const field = {
      name: "update_field",
      inputSchema: obj({
        fieldName: { type: "string" },
        grantAccessTo: {
          type: "array",
          items: { type: "string" },
          description: "Profile names to grant field access to",
        },
      }),
    };
    expect(roles(field)).toContain("network_or_shares");
    expect(reasons(field, "network_or_shares")).toMatch(/input "grantAccessTo" gives/);
  });

  it("a description that lists a removing mode removes in that mode, whatever readOnlyHint claims", () => {
    const manage = {
      name: "manage_list_entry",
      annotations: RO,
      description:
        "Manage list entries.\n\n**Mode 1 - Add Entry:**\nAdd a record to a list.\n\n**Mode 2 - Remove Entry:**\nRemove an entry from a list.",
    };
    expect(roles(manage)).toContain("deploys_or_destroys");
    expect(reasons(manage, "deploys_or_destroys")).toMatch(/mode or action that removes/);
    expect(
      roles({
        ...manage,
        description: "Manage list entries.\n**Mode 1 - Add Entry:** add a record.",
      }),
    ).not.toContain("deploys_or_destroys");
  });

  it("a switch described as dropping or deleting when on is a destroy; one that unlinks is not", () => {
    const rename = (description: string) => ({
      name: "rename_collection",
      inputSchema: obj({
        newName: { type: "string" },
        dropTarget: { type: "boolean", description },
      }),
    });
    expect(roles(rename("If true, drops the target collection if it exists"))).toContain(
      "deploys_or_destroys",
    );
    expect(
      reasons(rename("If true, drops the target collection if it exists"), "deploys_or_destroys"),
    ).toMatch(/input "dropTarget" is a switch/);
    expect(roles(rename("Set to true to remove the parent from hierarchy"))).not.toContain(
      "deploys_or_destroys",
    );
  });

  it("a verification the description says it triggers is a write the service keeps, not a verdict", () => {
    const verify = (description: string) => ({ name: "verify_domain", description });
    expect(
      roles(verify("Trigger domain verification. The status shows pending meanwhile.")),
    ).toEqual(["writes"]);
    expect(sinks(verify("Verify that the domain's DNS records are correct."))).toEqual([]);
  });

  it("closing a session whose command is signalled stops a process on the host", () => {
    const close = (description: string) => ({ name: "close_session", description });
    const signalled = close(
      "Close a named session. A background session's command is signalled on the host before its channel is dropped.",
    );
    expect(sinks(signalled)).toEqual(["writes", "deploys_or_destroys"]);
    expect(reasons(signalled, "deploys_or_destroys")).toMatch(/signals a command or process/);
    // Closing the server's own browser session stays no sink.
    expect(sinks(close("Close the browser session."))).toEqual([]);
  });

  it("marking messages read keeps read state: a write even when the name's verb reads", () => {
    const mark = { name: "read_dialog", description: "Mark dialog messages as read" };
    expect(roles(mark)).toContain("writes");
    expect(reasons(mark, "writes")).toMatch(/marks things read or seen/);
    expect(roles({ name: "read_dialog", description: "Read a dialog's messages" })).not.toContain(
      "writes",
    );
  });

  it("an input that sets who may access a record is an access setting, which can widen who reads", () => {
    const update = {
      name: "update_asset",
      inputSchema: obj({
        asset_id: { type: "string" },
        access_control: {
          type: "array",
          items: obj({ access_type: { type: "string", enum: ["token", "anonymous"] } }),
          description: "Restricts access to the asset by specifying one or more access types.",
        },
      }),
    };
    expect(roles(update)).toContain("network_or_shares");
    expect(reasons(update, "network_or_shares")).toMatch(
      /input "access_control" sets who may access/,
    );
    // An access count or time is no setting.
    expect(
      roles({ name: "update_asset", inputSchema: obj({ last_access: { type: "string" } }) }),
    ).not.toContain("network_or_shares");
  });

  it("every eighth-round description cue keys the shared inference: tools differing only in one do not share it", () => {
    const list = "Manage list entries.\n**Mode 1 - Add Entry:** add a record.\n**Mode 2 - ";
    const pairs: [string, string, string, { readOnlyHint: boolean }?][] = [
      [
        "discover_tools",
        "Find and activate additional tool categories for this session.",
        "Find and describe additional tool categories for this session.",
        RO,
      ],
      [
        "tcp_proxy_create",
        "Create a new TCP proxy for a service. Best for: exposing TCP services.",
        "Create a new TCP proxy for a service. Best for: routing TCP services.",
      ],
      [
        "manage_list_entry",
        `${list}Remove Entry:** remove one.`,
        `${list}Rename Entry:** rename one.`,
        RO,
      ],
      [
        "close_session",
        "Close a named session. Its command is signalled on the host.",
        "Close a named session. Its command is logged on the host.",
      ],
      ["read_dialog", "Mark dialog messages as read", "Mark dialog messages as starred"],
    ];
    for (const [name, withCue, without, annotations] of pairs) {
      const a = { name, description: withCue, annotations };
      const b = { name, description: without, annotations };
      expect(sinks(a)).not.toEqual(sinks(b));
      for (const [first, second] of [
        [a, b],
        [b, a],
      ]) {
        const cache = newRoleCache();
        for (const tool of [first!, second!])
          expect(
            resolveRoles(tool, null, cache).suggestion,
            `${tool.name}: ${tool.description}`,
          ).toEqual(suggestRoles(tool));
      }
    }
  });

  it("a field description's code-unit or drop-switch cue keys the shared inference", () => {
    const writeClass = (description: string) => ({
      name: "write_class",
      description: "Create or update a class in the org.",
      inputSchema: obj({ className: { type: "string" }, body: { type: "string", description } }),
    });
    const rename = (description: string) => ({
      name: "rename_collection",
      inputSchema: obj({
        newName: { type: "string" },
        dropTarget: { type: "boolean", description },
      }),
    });
    // Each pair differs only in one field's description, and only one of the two has the cue.
    const pairs = [
      [writeClass("Full body of the class"), writeClass("Full body of the note")],
      [
        rename("If true, drops the target collection if it exists"),
        rename("If true, keeps the target collection if it exists"),
      ],
    ];
    for (const [cued, plain] of pairs) {
      expect(roles(cued!)).toContain("deploys_or_destroys");
      expect(roles(plain!)).not.toContain("deploys_or_destroys");
      // In either order, the second tool gets its own inference, not the first one's.
      for (const [first, second] of [
        [cued!, plain!],
        [plain!, cued!],
      ]) {
        const cache = newRoleCache();
        for (const tool of [first!, second!])
          expect(resolveRoles(tool, null, cache).suggestion).toEqual(suggestRoles(tool));
      }
    }
  });
});

describe("issue 32, eighth round: returned text", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");

  it("measured values of an object are numbers, not its text", () => {
    for (const [name, description] of [
      ["measures_component", "Get measures for a specific component (project, directory, or file)"],
      ["measures_history", "Get measures history for a component"],
    ] as const) {
      const tool = { name, description, annotations: RO };
      expect(roles(tool)).not.toContain("returns_untrusted_text");
      expect(notesOf(tool)).toMatch(/returns measures: measured values \(numbers\)/);
    }
    // Comments on a metric are still comments.
    expect(
      roles({ name: "list_metric_comments", description: "List comments", annotations: RO }),
    ).toContain("returns_untrusted_text");
  });

  it("quality gates and hosts are what an admin configures, not outside text", () => {
    const gates = {
      name: "quality_gates",
      description: "List available quality gates",
      annotations: RO,
    };
    expect(roles(gates)).not.toContain("returns_untrusted_text");
    expect(notesOf(gates)).toMatch(/returns gates: names and settings/);
    const hosts = { name: "list_hosts", description: "Get list of hosts from Datadog" };
    expect(roles(hosts)).not.toContain("returns_untrusted_text");
    expect(notesOf(hosts)).toMatch(/returns hosts: infrastructure the account configures/);
    // A host's logs are still logs.
    expect(
      roles({ name: "get_host_logs", description: "Get logs of a host", annotations: RO }),
    ).toContain("returns_untrusted_text");
  });

  it('a key after "by" with nothing between it and the verb names no object', () => {
    const byRecipient = {
      name: "search_by_recipient",
      description: "Search messages sent to a specific recipient email address.",
    };
    expect(roles(byRecipient)).toContain("returns_untrusted_text");
    expect(notesOf(byRecipient)).not.toMatch(/returns recipient/);
    // With an object before "by", that object is what comes back.
    expect(
      roles({ name: "get_labels_by_project", description: "Get labels", annotations: RO }),
    ).not.toContain("returns_untrusted_text");
  });

  it("an input asking for a text object's content back inline makes the response carry it", () => {
    const schema = (description: string) => ({
      type: "object",
      properties: {
        uid: { type: "number" },
        savePath: {
          type: "string",
          description: "Absolute path to the directory where attachments will be saved",
        },
        returnBase64: { type: "boolean", description },
      },
    });
    const save = {
      name: "save_attachment",
      description: "Download and save email attachments to local file system.",
      inputSchema: schema("Whether to also return base64-encoded content in the response"),
    };
    expect(roles(save)).toContain("returns_untrusted_text");
    expect(roles(save)).toContain("writes");
    expect(
      suggestRoles(save)
        .roles.flatMap((r) => r.reasons)
        .join(" "),
    ).toMatch(/input "returnBase64" asks for the attachment's content back/);
    // Without such an input the saved file's path is all that comes back.
    expect(roles({ ...save, inputSchema: schema("Overwrite existing files") })).not.toContain(
      "returns_untrusted_text",
    );
  });

  it("a media library's assets are the account's uploads, not text people wrote", () => {
    const videos = {
      name: "list-videos",
      description: "Get video assets. Retrieves a list of video assets.",
      annotations: RO,
    };
    expect(roles(videos)).not.toContain("returns_untrusted_text");
    expect(notesOf(videos)).toMatch(/returns videos of a media library/);
    const similar = {
      name: "visual-search-assets",
      description: "Finds images in your asset library based on visual similarity or content",
      annotations: RO,
    };
    expect(roles(similar)).not.toContain("returns_untrusted_text");
    // A platform's videos, not described as assets, carry their uploaders' titles and descriptions.
    expect(
      roles({ name: "searchVideos", description: "Searches for videos based on a query string." }),
    ).toContain("returns_untrusted_text");
  });

  it("the vendor's official documentation is its own fixed text", () => {
    const docs = {
      name: "get-tx-reference",
      description: "Get transformation rules documentation from official docs",
      annotations: RO,
    };
    expect(roles(docs)).not.toContain("returns_untrusted_text");
    expect(notesOf(docs)).toMatch(/the vendor's official documentation/);
    // A pointer to the docs for a query syntax does not make a search of issues vendor text.
    expect(
      roles({
        name: "search_issues",
        description: "Search issues with JQL. See the official docs for the syntax.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("what a model generates from the caller's prompt is not someone else's text", () => {
    const generate = {
      name: "ai_text_generation",
      description: "Generate text using an AI model",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } } },
    };
    expect(roles(generate)).not.toContain("returns_untrusted_text");
    expect(notesOf(generate)).toMatch(/what a model generates from the caller's own inputs/);
    const task = {
      name: "get-generation-task",
      description: "Get the status of a generation task.",
      inputSchema: { type: "object", properties: { task_id: { type: "string" } } },
      annotations: RO,
    };
    expect(roles(task)).not.toContain("returns_untrusted_text");
    // A generation over a text object the inputs name quotes that text.
    expect(
      roles({
        name: "generate_summary",
        description: "Generate a summary of an issue",
        inputSchema: { type: "object", properties: { issue_id: { type: "string" } } },
      }),
    ).toContain("returns_untrusted_text");
  });

  it("a description that says only names come back withholds returned text", () => {
    const services = {
      name: "get_all_services",
      description: "Extract all unique service names from logs",
    };
    expect(roles(services)).not.toContain("returns_untrusted_text");
    expect(notesOf(services)).toMatch(/the description says it returns names or ids/);
    // Names with descriptions are prose.
    expect(
      roles({
        name: "list_channels",
        description: "List all channels. Returns channel names, descriptions, types, and IDs.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("an allowlist the operator configured is a setting, not what it points at", () => {
    const allowed = {
      name: "list_allowed_directories",
      description: "Returns the list of directories that this server is allowed to access.",
      annotations: RO,
    };
    expect(roles(allowed)).not.toContain("returns_untrusted_text");
    expect(notesOf(allowed)).toMatch(/returns an allowlist: names and settings/);
    expect(
      roles({
        name: "list_directory",
        description: "Get a detailed listing of all files and directories in a specified path.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("links to logs are addresses, not the logs' text", () => {
    const links = {
      name: "apps-get-logs",
      description: "Retrieves app logs for a deployment. Returns both live and historic log URLs.",
      annotations: RO,
    };
    expect(roles(links)).not.toContain("returns_untrusted_text");
    expect(notesOf(links)).toMatch(/returns links to the logs/);
    expect(
      roles({ name: "get_logs", description: "Search and retrieve logs", annotations: RO }),
    ).toContain("returns_untrusted_text");
  });

  it("a read whose operation input offers a text object by name returns that text", () => {
    const search = {
      name: "jira_search",
      description: "Search and discover Jira resources: issues via JQL, projects, users.",
      inputSchema: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["issues", "projects", "users", "create_metadata"] },
        },
      },
    };
    expect(roles(search)).toContain("returns_untrusted_text");
    expect(
      suggestRoles(search)
        .roles.flatMap((r) => r.reasons)
        .join(" "),
    ).toMatch(/input "action" offers "issues": the read then returns issues/);
    // Only names on offer: no returned text.
    expect(
      roles({
        ...search,
        inputSchema: {
          type: "object",
          properties: {
            action: { type: "string", enum: ["projects", "users", "create_metadata"] },
          },
        },
      }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a generic object noun is read by the compound the description makes of it", () => {
    const instances = {
      name: "do_list_objects",
      description: "List Durable Object instances",
    };
    expect(roles(instances)).not.toContain("returns_untrusted_text");
    expect(notesOf(instances)).toMatch(/returns instances: infrastructure the account configures/);
    // Without such a compound the objects are read as they are found.
    expect(
      roles({ name: "r2_get_object", description: "Get an object from an R2 bucket" }),
    ).toContain("returns_untrusted_text");
  });

  it("sends, and the content of a broadcast, are what the account writes to send out", () => {
    const sends = { name: "list_send", description: "List all Sends" };
    expect(roles(sends)).not.toContain("returns_untrusted_text");
    expect(notesOf(sends)).toMatch(/returns send: what the account writes to send/);
    const content = {
      name: "get-tiptap-json-content",
      description: "Retrieve the existing TipTap JSON content of a broadcast or template.",
      annotations: RO,
    };
    expect(roles(content)).not.toContain("returns_untrusted_text");
    expect(notesOf(content)).toMatch(/returns the content of a broadcast/);
    // The content of a page is still the page's text.
    expect(
      roles({
        name: "get_content",
        description: "Retrieve the content of a page.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it('what follows "for" or "to" after the object is its purpose or recipient, not the object', () => {
    const mentions = {
      name: "search_users_for_mentions",
      description: "Search for users to mention in messages.",
    };
    expect(roles(mentions)).not.toContain("returns_untrusted_text");
    expect(notesOf(mentions)).toMatch(/returns users: a directory/);
    // Right after the verb, "for" leads the object itself.
    expect(roles({ name: "search_for_issues", description: "Search for issues" })).toContain(
      "returns_untrusted_text",
    );
    expect(
      roles({ name: "get_comments_for_task", description: "Get comments for a task" }),
    ).toContain("returns_untrusted_text");
  });

  it("a description that says the text is not fetched leaves only its state", () => {
    const state = {
      name: "get_email_status",
      description: "Get the current read/flag/label state of an email without fetching its body.",
      annotations: RO,
    };
    expect(roles(state)).not.toContain("returns_untrusted_text");
    expect(notesOf(state)).toMatch(/the email's text is not fetched/);
    expect(
      roles({ name: "get_email", description: "Get an email with its body", annotations: RO }),
    ).toContain("returns_untrusted_text");
  });

  it("a computation whose result is names, settings or vendor data returns no one's text", () => {
    const contacts = {
      name: "extract_contacts",
      description: "Extract unique contacts from recent email headers.",
      annotations: RO,
    };
    expect(roles(contacts)).not.toContain("returns_untrusted_text");
    expect(notesOf(contacts)).toMatch(/returns contacts: names, settings or the vendor's own data/);
    // Links extracted from a page the tool fetches are the site's.
    expect(
      roles({
        name: "extract_links",
        description: "Extract all links from a web page",
        inputSchema: { type: "object", properties: { url: { type: "string" } } },
      }),
    ).toContain("returns_untrusted_text");
    // A computation over a text object still quotes it.
    expect(
      roles({
        name: "extract_calendar",
        description: "Extract events from an email",
        inputSchema: { type: "object", properties: { email_id: { type: "string" } } },
      }),
    ).toContain("returns_untrusted_text");
  });

  it("how something is set up is configuration", () => {
    const setup = {
      name: "check_notification_setup",
      description: "Diagnose desktop notification support on this platform.",
      annotations: RO,
    };
    expect(roles(setup)).not.toContain("returns_untrusted_text");
    expect(notesOf(setup)).toMatch(/returns setup: names and settings/);
  });

  it("an operation that downloads or receives returns the content of what the tool manages", () => {
    const attachments = {
      name: "manage_attachments",
      description: "Download or delete a repository attachment by numeric id.",
      inputSchema: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["download", "delete"] },
          attachment_id: { type: "string" },
        },
      },
    };
    expect(roles(attachments)).toContain("returns_untrusted_text");
    expect(
      suggestRoles(attachments)
        .roles.flatMap((r) => r.reasons)
        .join(" "),
    ).toMatch(/input "action" offers the operation "download", which returns the content/);
    const socket = {
      name: "socket",
      description: "Manage WebSocket connections - connect, send, receive messages, and close",
      inputSchema: {
        type: "object",
        properties: {
          action: {
            anyOf: [
              { type: "object", properties: { type: { const: "receive" } } },
              { type: "object", properties: { type: { const: "close" } } },
            ],
          },
        },
      },
    };
    expect(roles(socket)).toContain("returns_untrusted_text");
    // Delete alone returns nothing.
    expect(
      roles({
        ...attachments,
        inputSchema: {
          type: "object",
          properties: { action: { type: "string", enum: ["delete"] } },
        },
      }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a computation the description says works from a text object quotes it", () => {
    const extract = {
      name: "stagehand_extract",
      description: "Extract structured data or text from the current page using an instruction.",
      inputSchema: { type: "object", properties: { instruction: { type: "string" } } },
    };
    expect(roles(extract)).toContain("returns_untrusted_text");
    expect(
      suggestRoles(extract)
        .roles.flatMap((r) => r.reasons)
        .join(" "),
    ).toMatch(/from the page \(the description says so\)/);
    // From the caller's own prompt it does not.
    expect(
      roles({
        name: "stagehand_extract",
        description: "Extract fields from a prompt.",
        inputSchema: { type: "object", properties: { instruction: { type: "string" } } },
      }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a status comes with results only when the first sentence says so", () => {
    const indexing = {
      name: "orbit_get_status",
      description:
        "Check indexing status for the enabled scope. Use this to check whether indexing has completed before trusting query results.",
      annotations: RO,
    };
    expect(roles(indexing)).not.toContain("returns_untrusted_text");
    expect(
      roles({
        name: "check_crawl_status",
        description: "Retrieve the current status, progress, and available results for a crawl ID.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("a status's results are read from the title's and the first paragraph's first sentences", () => {
    expect(
      roles({
        name: "check_crawl_status",
        description:
          "Get crawl status\n\nRetrieve the current status, progress, and available results for a crawl ID.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("a page's waterfall is timings, not the page's text", () => {
    const waterfall = {
      name: "get_rum_page_waterfall",
      description: "Retrieve RUM page (view) waterfall data filtered by application name",
    };
    expect(roles(waterfall)).not.toContain("returns_untrusted_text");
    expect(notesOf(waterfall)).toMatch(/returns waterfall: measured values/);
  });

  it("definitions of events are configuration, not events people caused", () => {
    const definitions = {
      name: "list_events",
      description: "List event definitions. Events define named triggers that start automations.",
      annotations: RO,
    };
    expect(roles(definitions)).not.toContain("returns_untrusted_text");
    expect(notesOf(definitions)).toMatch(/returns event definitions/);
    expect(
      roles({ name: "list_events", description: "List events for a project", annotations: RO }),
    ).toContain("returns_untrusted_text");
  });

  it("a callback address is where the service reports later: its answer does not come back", () => {
    const del = {
      name: "delete-asset",
      description: "Deletes an asset using its immutable asset ID.",
      inputSchema: {
        type: "object",
        properties: {
          asset_id: { type: "string" },
          notification_url: { type: "string", description: "URL to notify when done" },
        },
      },
    };
    expect(roles(del)).not.toContain("returns_untrusted_text");
    expect(roles(del)).toContain("network_or_shares");
    // A request to the address itself returns that server's response.
    expect(
      roles({
        name: "delete",
        description: "Send a DELETE request",
        inputSchema: { type: "object", properties: { url: { type: "string" } } },
      }),
    ).toContain("returns_untrusted_text");
  });

  it("only the opening (a title and its paragraph) says what infrastructure holds; later ones are usage notes", () => {
    const search = {
      name: "search-assets",
      description:
        "Filter and retrieve assets and their details\n\nReturns a list of resources.\n\n## Syntax\n\nFilter assets by filename and file details.",
      annotations: RO,
    };
    expect(roles(search)).not.toContain("returns_untrusted_text");
    expect(notesOf(search)).toMatch(/returns assets: infrastructure the account configures/);
    // A title and its paragraph are both the opening.
    expect(
      roles({
        name: "get_worker",
        description: "Get a Worker\n\nReturns the Worker's script content.",
        annotations: RO,
      }),
    ).toContain("returns_untrusted_text");
  });

  it("a file's revisions are versions: who changed it and when", () => {
    const revisions = {
      name: "get_file_revisions",
      description: "Get revision history of a file",
    };
    expect(roles(revisions)).not.toContain("returns_untrusted_text");
    expect(notesOf(revisions)).toMatch(/returns revisions: names and settings/);
    expect(roles({ name: "get_file", description: "Get a file's contents" })).toContain(
      "returns_untrusted_text",
    );
  });

  it("a description that says only ids come back withholds returned text", () => {
    const boards = {
      name: "get_sprints_boards",
      description:
        "Discover sprints boards. Identifies and returns sprints board IDs and tasks board IDs.",
      annotations: RO,
    };
    expect(roles(boards)).not.toContain("returns_untrusted_text");
    expect(notesOf(boards)).toMatch(/the description says it returns names or ids/);
  });

  it("every description cue keys the shared inference: tools differing only in one do not share it", () => {
    const cache = newRoleCache();
    const pairs: [string, string, string][] = [
      ["list_videos", "Retrieves a list of video assets.", "Retrieves a list of videos."],
      ["get_logs", "Returns both live and historic log URLs.", "Returns the logs."],
      ["list_events", "List event definitions.", "List events."],
      [
        "get_email_status",
        "Get the state of an email without fetching its body.",
        "Get an email's state and body.",
      ],
    ];
    for (const [name, withCue, without] of pairs) {
      const a = { name, description: withCue, annotations: RO };
      const b = { name, description: without, annotations: RO };
      expect(resolveRoles(a, null, cache).suggestion).toEqual(suggestRoles(a));
      expect(resolveRoles(b, null, cache).suggestion).toEqual(suggestRoles(b));
      expect(roles(a)).not.toEqual(roles(b));
    }
  });

  it("every field cue keys the shared inference: fields differing only in one do not share it", () => {
    const cache = newRoleCache();
    const withField = (description: string) => ({
      name: "save_attachment",
      description: "Download and save email attachments to local file system.",
      inputSchema: {
        type: "object",
        properties: {
          savePath: { type: "string", description: "Directory where attachments will be saved" },
          returnBase64: { type: "boolean", description },
        },
      },
    });
    const team = (choices: string[]) => ({
      name: "get_team",
      description: "Get a team",
      annotations: RO,
      inputSchema: {
        type: "object",
        properties: { expand: { type: "array", items: { type: "string", enum: choices } } },
      },
    });
    for (const tool of [
      withField("Whether to also return base64-encoded content in the response"),
      withField("Overwrite existing files"),
      team(["comments"]),
      team(["issues"]),
    ])
      expect(resolveRoles(tool, null, cache).suggestion).toEqual(suggestRoles(tool));
  });
});

describe("issue 32, tenth round: returned text the rules missed", () => {
  const reasonsOf = (t: RoleInputTool) =>
    suggestRoles(t)
      .roles.filter((r) => r.role === "returns_untrusted_text")
      .flatMap((r) => r.reasons)
      .join(" ");
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");

  it("an agent that browses the web for a task reports what it read there", () => {
    const agent = {
      name: "stagehand_agent",
      description:
        "Execute a task autonomously using a computer use agent. The agent will navigate and interact with web pages to complete the given task.",
      inputSchema: {
        type: "object",
        properties: { prompt: { type: "string", description: "The task prompt" } },
      },
    };
    expect(roles(agent)).toContain("returns_untrusted_text");
    expect(reasonsOf(agent)).toMatch(/reports what it read on the sites it visits/);
    // Without a browsing description it is no browsing agent.
    expect(
      roles({ ...agent, description: "Execute a task autonomously using an agent." }),
    ).not.toContain("returns_untrusted_text");
  });

  it("a switch that asks for logs or CI jobs in the response returns them, also on a computation", () => {
    const app = (include: string) => ({
      name: "get_app",
      description: "Get an application",
      annotations: RO,
      inputSchema: {
        type: "object",
        properties: { uuid: { type: "string" }, [include]: { type: "boolean" } },
      },
    });
    expect(roles(app("include_logs"))).toContain("returns_untrusted_text");
    expect(reasonsOf(app("include_logs"))).toMatch(/can ask for logs in the response/);
    // The infrastructure note no longer stands beside the suggestion.
    expect(notesOf(app("include_logs"))).not.toMatch(/returns_untrusted_text is not suggested/);
    expect(roles(app("include_tags"))).not.toContain("returns_untrusted_text");
    const lint = {
      name: "validate_ci_lint",
      description: "Validate provided CI/CD YAML content for a project.",
      annotations: RO,
      inputSchema: {
        type: "object",
        properties: {
          project_id: { type: "string" },
          content: { type: "string", description: "CI/CD YAML content to validate" },
          include_jobs: { type: "boolean", description: "Include jobs in the lint response" },
        },
      },
    };
    expect(roles(lint)).toContain("returns_untrusted_text");
    expect(reasonsOf(lint)).toMatch(/can ask for jobs in the response/);
  });

  it("an operation that calls an address the caller gives returns that host's answer", () => {
    const graphql = {
      name: "graphql",
      description: "Execute GraphQL queries and mutations with support for variables",
      inputSchema: {
        type: "object",
        properties: {
          action: {
            anyOf: [
              {
                type: "object",
                properties: {
                  type: { type: "string", const: "execute" },
                  endpoint: { type: "string", description: "The GraphQL endpoint URL" },
                  query: { type: "string" },
                },
              },
            ],
          },
        },
      },
    };
    expect(roles(graphql)).toContain("returns_untrusted_text");
    expect(reasonsOf(graphql)).toMatch(/what comes back is that host's answer/);
    // A webhook's address is where the service delivers later: its answer never comes back.
    const hook = {
      name: "manage_hooks",
      description: "Manage hooks",
      inputSchema: {
        type: "object",
        properties: {
          action: {
            anyOf: [
              {
                type: "object",
                properties: {
                  type: { type: "string", const: "register" },
                  url: {
                    type: "string",
                    description: "The webhook endpoint URL to deliver events to",
                  },
                },
              },
            ],
          },
        },
      },
    };
    expect(roles(hook)).toContain("network_or_shares");
    expect(roles(hook)).not.toContain("returns_untrusted_text");
  });

  it("a form's submissions are text its visitors wrote", () => {
    const forms = {
      name: "manage_forms",
      description: "Manage a site's forms",
      inputSchema: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["get-submissions", "delete-submission"] },
        },
      },
    };
    expect(roles(forms)).toContain("returns_untrusted_text");
    expect(reasonsOf(forms)).toMatch(/"get-submissions"/);
  });

  it("starting a search is the search: it reads and returns what it finds", () => {
    const search = {
      name: "start_search",
      description: "Start a streaming search that can return results progressively.",
      annotations: RO,
    };
    expect(roles(search)).toEqual(["returns_untrusted_text", "reads_private_data"]);
    expect(reasonsOf(search)).toMatch(/"start" begins a search, which reads/);
    // Starting anything else still runs it, a job for another read too.
    expect(sinks({ name: "start_build", annotations: RO })).toContain("deploys_or_destroys");
    expect(sinks({ name: "start_export", annotations: RO })).toContain("deploys_or_destroys");
  });

  it("a tool named for links reads the linked objects its description names", () => {
    const links = (description: string) => ({
      name: "jira_links",
      description,
      inputSchema: {
        type: "object",
        properties: { action: { type: "string", enum: ["list", "add", "remove"] } },
      },
    });
    const issueLinks = links("Manage Jira issue links: add, remove, list relationships.");
    expect(roles(issueLinks)).toContain("returns_untrusted_text");
    expect(reasonsOf(issueLinks)).toMatch(/it returns issue/);
    expect(roles(links("Manage quick links: add, remove, list them."))).not.toContain(
      "returns_untrusted_text",
    );
  });

  it("an input that sets how a text object in the response is presented says it comes back", () => {
    const version = (description: string) => ({
      name: "get_merge_request_version",
      description: "Get a specific version of a merge request.",
      annotations: RO,
      inputSchema: {
        type: "object",
        properties: {
          version_id: { type: "string" },
          unidiff: { type: "boolean", description },
        },
      },
    });
    const diffs = version("Present diffs in the unified diff format.");
    expect(roles(diffs)).toContain("returns_untrusted_text");
    expect(reasonsOf(diffs)).toMatch(/sets how the diffs in the response are presented/);
    expect(notesOf(diffs)).not.toMatch(/returns_untrusted_text is not suggested/);
    expect(roles(version("Present dates in UTC."))).not.toContain("returns_untrusted_text");
    // Results, output or text name whatever the response holds, no text object.
    expect(roles(version("Format results as JSON."))).not.toContain("returns_untrusted_text");
  });

  it("a text object offered by its bare noun drops the note that the operations return none", () => {
    const search = {
      name: "jira_search",
      description: "Search and discover Jira resources: issues via JQL, projects, users.",
      inputSchema: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["issues", "projects", "create_metadata"] },
        },
      },
    };
    expect(reasonsOf(search)).toMatch(/offers "issues": the read then returns issues/);
    expect(notesOf(search)).not.toMatch(/returns_untrusted_text is not suggested/);
  });

  it("a wait on a live page reports what the page then shows", () => {
    const wait = {
      name: "browser_wait_for",
      description: "Wait for text to appear or disappear or a specified time to pass.",
      annotations: RO,
      inputSchema: {
        type: "object",
        properties: {
          time: { type: "number" },
          text: { type: "string", description: "The text to wait for" },
        },
      },
    };
    expect(roles(wait)).toEqual(["returns_untrusted_text", "reads_private_data"]);
    expect(reasonsOf(wait)).toMatch(/"wait" acts on a live page/);
    // A bare wait names no page; a wait on a pipeline is no page's.
    expect(reasonsOf({ name: "wait", description: "Wait for a number of seconds" })).not.toMatch(
      /live page/,
    );
    expect(
      reasonsOf({ name: "wait_for_pipeline", description: "Wait for a pipeline", annotations: RO }),
    ).not.toMatch(/live page/);
  });
});

describe("issue 32, eleventh round: admin-chosen names are not returned text", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");
  const read = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
    name,
    description,
    inputSchema: { type: "object", properties },
  });

  it("a data model's types, attributes and select options are names and settings", () => {
    const contentTypes = read("list_content_types", "List content types in a space.", {
      spaceId: { type: "string" },
    });
    expect(roles(contentTypes)).not.toContain("returns_untrusted_text");
    expect(notesOf(contentTypes)).toMatch(/returns types: names and settings/);
    expect(
      roles(read("get_record_attributes", "Retrieve attribute metadata for a resource type.")),
    ).not.toContain("returns_untrusted_text");
    expect(
      roles(read("get_record_attribute_options", "Get valid options for a select attribute.")),
    ).not.toContain("returns_untrusted_text");
    // A project's types of a text object come with the descriptions and templates its members write.
    const issueTypes = read("list_issue_types", "Get all issue types for a specific project", {
      project_id: { type: "string" },
    });
    expect(roles(issueTypes)).toContain("returns_untrusted_text");
    expect(
      suggestRoles(issueTypes)
        .roles.flatMap((r) => r.reasons)
        .join(" "),
    ).toMatch(/a project's types \(input names the project\) come with descriptions/);
  });

  it("a resource type in the description says which kind is asked for, not that types come back", () => {
    const resource = read(
      "get_resource",
      "Fetch a resource by URL, or by resourceType plus resourceId. Pass a URL directly when possible; the resource type is auto-detected.",
      { resourceType: { type: "string" }, resourceId: { type: "string" } },
    );
    expect(notesOf(resource)).not.toMatch(/returns type/);
  });

  it("a tracker's scales, a store's discounts, actions and data sources are names and settings", () => {
    for (const [name, description] of [
      ["get_priorities", "Returns list of priorities"],
      ["get_resolutions", "Returns list of issue resolutions"],
      ["list_discounts", "List all discount codes/promotions."],
      ["get_resource_actions", "Returns actions for a resource that is managed by an application"],
      ["list-knowledge-sources", "List available data sources in the knowledge base."],
    ] as const) {
      const tool = read(name, description);
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/names and settings chosen by whoever administers/);
    }
  });

  it("a service's volumes and proxies are infrastructure the account configures", () => {
    for (const name of ["volume_list", "tcp_proxy_list"]) {
      const tool = read(name, "List all for a service", { serviceId: { type: "string" } });
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/infrastructure the account configures/);
    }
  });

  it("stock levels, rankings and scores are figures", () => {
    for (const name of ["list_inventory", "get_user_contest_ranking", "get_quality_scores"]) {
      const tool = read(name, "Retrieves them.");
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/measured values \(numbers\)/);
    }
  });

  it("a count of text objects returns how many, not their text", () => {
    const count = read("count_issues", "Returns count of issues", { keyword: { type: "string" } });
    expect(roles(count)).not.toContain("returns_untrusted_text");
    expect(notesOf(count)).toMatch(/"count" returns how many issues match/);
    expect(roles({ ...count, name: "get_issues" })).toContain("returns_untrusted_text");
  });

  it("a help tool returns the vendor's own fixed text", () => {
    const help = read("qql_help", "Read the QQL reference before writing a query.", {
      topic: { type: "string" },
    });
    expect(roles(help)).not.toContain("returns_untrusted_text");
    expect(notesOf(help)).toMatch(/returns help: names and settings/);
  });

  it("an API version at the end of a name hides no object", () => {
    expect(readName("DNS_getDNSRecordsV1").words).toEqual(["dns", "get", "dns", "records"]);
    expect(readName("v2").words).toEqual(["v2"]);
    const records = read(
      "DNS_getDNSRecordsV1",
      "Retrieve DNS zone records for a specific domain.",
      {
        domain: { type: "string" },
      },
    );
    expect(roles(records)).not.toContain("returns_untrusted_text");
    expect(notesOf(records)).toMatch(/returns records: infrastructure the account configures/);
  });

  it("a description that opens by reading settings or configuration reads no prose", () => {
    const store = read("get_store", "Get store settings and configuration.");
    expect(roles(store)).not.toContain("returns_untrusted_text");
    expect(notesOf(store)).toMatch(/the description says it reads settings or configuration/);
    // Not where the same sentence names text people write.
    expect(
      roles(read("get_store", "Get store settings and the welcome message shown to visitors.")),
    ).toContain("returns_untrusted_text");
  });
});

describe("issue 32, eleventh round: recall rules for returned text (not independent)", () => {
  const reasonsOf = (t: RoleInputTool) =>
    suggestRoles(t)
      .roles.filter((r) => r.role === "returns_untrusted_text")
      .flatMap((r) => r.reasons)
      .join(" ");
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");
  const read = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
    name,
    description,
    inputSchema: { type: "object", properties },
  });

  it("a page's or a post's revisions are saved copies of its text; a file's are who changed it", () => {
    for (const name of ["get_page_revisions", "get_post_revisions"]) {
      const tool = read(name, "Retrieves revisions for a specific item.", {
        id: { type: "number" },
      });
      expect(roles(tool), name).toContain("returns_untrusted_text");
      expect(reasonsOf(tool), name).toMatch(/revisions: saved copies of its text/);
      // The names-and-settings note no longer stands beside the suggestion.
      expect(notesOf(tool), name).not.toMatch(/returns_untrusted_text is not suggested/);
    }
    const fileRevisions = read("get_file_revisions", "Get revision history of a file", {
      fileId: { type: "string" },
    });
    expect(roles(fileRevisions)).not.toContain("returns_untrusted_text");
  });

  it("one property of a record the name names is part of that record", () => {
    const pageProperty = read("retrieve_page_property", "Retrieve a page property item", {
      page_id: { type: "string" },
      property_id: { type: "string" },
    });
    expect(roles(pageProperty)).toContain("returns_untrusted_text");
    expect(reasonsOf(pageProperty)).toMatch(/one property of a record the name names/);
    const dashboardProperty = read(
      "get_dashboard_property",
      "Get specific parts of a dashboard using JSONPath expressions",
      { uid: { type: "string" }, jsonPath: { type: "string" } },
    );
    expect(roles(dashboardProperty)).toContain("returns_untrusted_text");
    // A property of names and settings, or a bare property, is a definition an admin sets.
    expect(
      roles(
        read("get_contact_property", "Get a contact property by ID.", { id: { type: "string" } }),
      ),
    ).not.toContain("returns_untrusted_text");
    expect(
      roles(
        read("get_property", "Retrieves a specific property for an object type.", {
          objectType: { type: "string" },
          propertyName: { type: "string" },
        }),
      ),
    ).not.toContain("returns_untrusted_text");
  });

  it("a read whose description says it finds stack traces returns them, whatever figures come too", () => {
    const stats = read(
      "list_group_stats",
      "Find and analyze recurring stack traces in your application, with the number of occurrences.",
      { projectName: { type: "string" } },
    );
    expect(roles(stats)).toContain("returns_untrusted_text");
    expect(reasonsOf(stats)).toMatch(/reads stack traces/);
    expect(
      roles(
        read("list_group_stats", "List statistics for groups, with the number of occurrences.", {
          projectName: { type: "string" },
        }),
      ),
    ).not.toContain("returns_untrusted_text");
  });

  it("a filter on the listed names' description says a free-form description comes with each", () => {
    const policies = (filter: string) =>
      read("list_alert_policies", "List the alerting policies in a project.", {
        name: { type: "string", description: "The project whose alert policies are listed." },
        filter: { type: "string", description: filter },
      });
    const byDescription = policies(
      "Optional. Examples: to return all entries with a non-empty display name or description: (NOT display_name.empty OR NOT description.empty)",
    );
    expect(roles(byDescription)).toContain("returns_untrusted_text");
    expect(reasonsOf(byDescription)).toMatch(/an input filters them by their description/);
    expect(notesOf(byDescription)).not.toMatch(/returns_untrusted_text is not suggested/);
    expect(
      roles(
        policies("Optional. Examples: to return all entries whose description contains 'cloud'"),
      ),
    ).toContain("returns_untrusted_text");
    expect(roles(policies('Optional. Examples: state="OPEN"'))).not.toContain(
      "returns_untrusted_text",
    );
  });

  it("a search engine's results are other sites' text, whatever the verb does", () => {
    const serp = read("track_serp", "Track search engine result page positions for keywords", {
      keywords: { type: "array", items: { type: "string" } },
    });
    expect(roles(serp)).toContain("returns_untrusted_text");
    expect(reasonsOf(serp)).toMatch(/a search engine's results/);
    expect(
      roles(
        read("track_serp", "Track page positions for keywords", {
          keywords: { type: "array", items: { type: "string" } },
        }),
      ),
    ).not.toContain("returns_untrusted_text");
  });
});

describe("issue 32, eleventh round: names and figures on the new servers (not independent)", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");
  const read = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
    name,
    description,
    inputSchema: { type: "object", properties },
  });

  it("a label's values are names its series were labelled with", () => {
    const values = read("list_loki_label_values", "Retrieves all unique values of a label", {
      labelName: { type: "string" },
    });
    expect(roles(values)).not.toContain("returns_untrusted_text");
    expect(notesOf(values)).toMatch(/returns label values: names and settings/);
    // Other values are not names (a secret's or a record's value).
    expect(roles(read("get_field_values", "Retrieves the values of a field"))).toContain(
      "returns_untrusted_text",
    );
  });

  it("billing, budgets and forecasts, passwords, scopes, shifts and sinks are names and settings", () => {
    for (const [name, description] of [
      ["get-billing-info", "Get billing information for the current project"],
      ["get-billing-budget", "Get billing budgets for the current project"],
      ["get-cost-forecast", "Get cost forecast for the current project"],
      ["get_application_passwords", "Lists application passwords for a specific user."],
      ["list_log_scopes", "List the log scopes in a project."],
      ["get_oncall_shift", "Get detailed information for a specific on-call shift"],
      ["list_sinks", "List the log sinks in a project."],
    ] as const) {
      const tool = read(name, description);
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/names and settings chosen by whoever administers/);
    }
  });

  it("a metric's time series are figures", () => {
    const series = read("list_time_series", "Retrieve metric data over a specific time period.", {
      filter: { type: "string" },
    });
    expect(roles(series)).not.toContain("returns_untrusted_text");
    expect(notesOf(series)).toMatch(/returns series: measured values/);
  });
});

describe("issue 32, twelfth round: what the description and inputs say comes back", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");
  const read = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
    name,
    description,
    inputSchema: { type: "object", properties },
  });

  it("a listed set of returned fields that are ids, names, kinds, states and dates is not prose", () => {
    for (const [name, description] of [
      [
        "list-logs",
        "**Purpose:** List API request logs for the account.\n\n**Returns:** For each log: id, created_at, endpoint, method, response_status, user_agent.",
      ],
      [
        "list_contact_points",
        "Lists notification contact points, returning a summary including UID, name, and type",
      ],
      [
        "list_users_by_org",
        "List users by organization. Returns a list of users with details like userid, email, role etc",
      ],
      [
        "get_user",
        "Get detailed information about a specific user. Returns profile information including name, email, job title, and department.",
      ],
    ] as const) {
      const tool = read(name, description);
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/lists the fields that come back/);
    }
  });

  it("a listed field that is prose, or of no known shape, keeps the returned text", () => {
    for (const [name, description] of [
      // A body in the list: the request's text comes back.
      [
        "get-log",
        "**Returns:** Log details: id, created_at, endpoint, method, response_status, user_agent, request_body, response_body.",
      ],
      // A title is what someone wrote (only a job title is a directory field).
      ["search_boards", "Search boards. Returns id, title, url, and workspaceId."],
      // "details" could hold anything.
      ["list_messages", "List messages. Returns id, created_at, and details."],
      // Two fields are not a list of what comes back.
      ["list_posts", "List posts. Returns id and status."],
    ] as const)
      expect(roles(read(name, description)), name).toContain("returns_untrusted_text");
    // The names of files count as outside text, ids or not.
    const files = read(
      "search_files",
      "Search files. Returns matching files with id, name, size, and type.",
    );
    expect(roles(files)).toContain("returns_untrusted_text");
  });

  it("performance figures are measured values", () => {
    for (const [name, description] of [
      ["wp_performance_history", "Get historical performance data and trends"],
      ["wp_performance_optimize", "Get optimization recommendations and insights"],
    ] as const) {
      const tool = read(name, description);
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/returns performance: measured values/);
    }
  });

  it("a domain's DNS snapshots are its settings as they were, whatever they are said to contain", () => {
    for (const [name, description] of [
      ["DNS_getDNSSnapshotListV1", "Retrieve DNS snapshots for a domain."],
      [
        "DNS_getDNSSnapshotV1",
        "Retrieve particular DNS snapshot with contents of DNS zone records.",
      ],
    ] as const) {
      const tool = read(name, description);
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/infrastructure the account configures/);
    }
    // A browser's snapshot is still the page's text.
    expect(roles(read("browser_snapshot", "Capture a snapshot of the current page"))).toContain(
      "returns_untrusted_text",
    );
  });

  it("a service's deployments and environments are infrastructure; a project's come from its CI file", () => {
    for (const [name, properties] of [
      ["TwilioServerlessV1--ListDeployment", { ServiceSid: {}, EnvironmentSid: {} }],
      ["TwilioServerlessV1--FetchEnvironment", { ServiceSid: {}, Sid: {} }],
      ["deployment_list", { projectId: {}, serviceId: {}, environmentId: {} }],
    ] as const) {
      const tool = read(name, "Retrieve them.", properties);
      expect(roles(tool), name).not.toContain("returns_untrusted_text");
      expect(notesOf(tool), name).toMatch(/infrastructure the account configures/);
    }
    for (const name of ["list_environments", "list_deployments"])
      expect(
        roles(read(name, "List them for a project.", { project_id: { type: "string" } })),
        name,
      ).toContain("returns_untrusted_text");
  });

  it("a read the description says needs no authentication reaches only what anyone can read", () => {
    const privateOf = (description: string) =>
      roles(read("get_problem", description, { titleSlug: { type: "string" } })).includes(
        "reads_private_data",
      );
    expect(privateOf("Retrieves a single problem by titleSlug (read-only, no auth).")).toBe(false);
    expect(
      privateOf("Browse posts; without credentials, results come from the public RSS feed."),
    ).toBe(false);
    expect(privateOf("Retrieves a single problem by titleSlug.")).toBe(true);
    // A download link an authenticated call hands out is not a read without authentication.
    expect(
      privateOf("Fetch the item; the URL streams the bytes with no Authorization header."),
    ).toBe(true);
    expect(notesOf(read("get_problem", "Get a problem (no auth)."))).toMatch(
      /needs no authentication: it reaches only what anyone can read/,
    );
  });
});

describe("issue 32, twelfth round: rules from the held-out servers' mistakes (not independent)", () => {
  const reasonsOf = (t: RoleInputTool, role: string) =>
    suggestRoles(t)
      .roles.filter((r) => r.role === role)
      .flatMap((r) => r.reasons)
      .join(" ");
  const tool = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
    name,
    description,
    inputSchema: { type: "object", properties },
  });

  it("a push of a message or a notification delivers it to people", () => {
    const push = tool("push_text_message", "Push a simple text message to a user.", {
      userId: { type: "string" },
      message: { type: "object", properties: { text: { type: "string" } } },
    });
    expect(roles(push)).toContain("network_or_shares");
    expect(reasonsOf(push, "network_or_shares")).toMatch(/"push" delivers the message/);
    // A push of anything else is not a message to people.
    expect(
      roles(tool("push_changes", "Push local changes.", { branch: { type: "string" } })),
    ).not.toContain("network_or_shares");
  });

  it("an address the service adds or embeds from, one level into the inputs, is fetched", () => {
    for (const description of [
      "URL of the image to be added to the board",
      "URL to be embedded on the board",
    ]) {
      const item = tool("create-embed-item", "Create a new item on a board", {
        boardId: { type: "string" },
        data: { type: "object", properties: { url: { type: "string", description } } },
      });
      expect(roles(item), description).toContain("network_or_shares");
      expect(reasonsOf(item, "network_or_shares")).toMatch(/an address the tool fetches/);
    }
    const plain = tool("create-card-item", "Create a new item on a board", {
      data: {
        type: "object",
        properties: { url: { type: "string", description: "A link shown on the card" } },
      },
    });
    expect(roles(plain)).not.toContain("network_or_shares");
  });

  it("a tool that connects with credentials to the base URL the caller gives sends them there", () => {
    const auth = tool(
      "_internal_jira_set_auth",
      "Use when the user wants to connect Jira using Basic Auth (email + API token).",
      { baseUrl: { type: "string" }, email: { type: "string" }, apiToken: { type: "string" } },
    );
    expect(roles(auth)).toContain("network_or_shares");
    expect(reasonsOf(auth, "network_or_shares")).toMatch(
      /sets up a connection to the address in input "baseUrl"/,
    );
  });

  it("a pull request's comment thread is a tracker's, not a chat's", () => {
    const content = {
      action: { type: "string", enum: ["create", "reply", "update"] },
      threadId: { type: "string" },
      content: { type: "string" },
    };
    expect(
      roles(
        tool("repo_pull_request_thread_write", "Write operations for comment threads.", content),
      ),
    ).not.toContain("network_or_shares");
    expect(
      roles(tool("channel_thread_write", "Write operations for channel threads.", content)),
    ).toContain("network_or_shares");
  });

  it("watchers are people, a job's progress is a state, and ids the caller passes are not what comes back", () => {
    for (const t of [
      tool("jira_get_watchers", "Get the list of users watching an issue."),
      tool(
        "jira_get_bulk_operation_progress",
        "Check the progress of an async bulk operation using its taskId.",
      ),
      tool("get_follower_ids", "Get a list of user IDs of users who follow the account."),
    ])
      expect(roles(t), t.name).not.toContain("returns_untrusted_text");
    expect(
      roles(
        tool("jira_get_worklogs_by_ids", "Get full worklog details for a list of worklog IDs."),
      ),
    ).toContain("returns_untrusted_text");
  });
});

describe("issue 32, thirteenth round: rules from the held-out servers' mistakes (not independent)", () => {
  const notesOf = (t: RoleInputTool) => suggestRoles(t).notes.join(" ");
  const tool = (
    name: string,
    description: string,
    properties: Record<string, unknown> = {},
    annotations?: RoleInputTool["annotations"],
  ): RoleInputTool => ({
    name,
    description,
    inputSchema: { type: "object", properties },
    ...(annotations ? { annotations } : {}),
  });

  it("a 'tool' suffix is a naming habit: the object is the word before it", () => {
    expect(readName("search_tickets_tool").objects).toEqual(["tickets"]);
    expect(roles(tool("search_tickets_tool", "Search support tickets by text."))).toContain(
      "returns_untrusted_text",
    );
    // A tool that runs tools acts on a tool.
    expect(readName("execute_sentry_tool").objects).toContain("tool");
    // Two words: the suffix is all the object there is.
    expect(readName("get_tool").objects).toEqual(["tool"]);
  });

  it("an API version inside the name marks service_version_resource_method: the last word is the method", () => {
    const search = readName("bitable_v1_appTableRecord_search");
    expect(search.verbs.map((v) => v.verb)).toEqual(["search"]);
    expect(search.objects).toContain("record");
    const records = tool(
      "bitable_v1_appTableRecord_search",
      "Query existing records in the table.",
    );
    expect(roles(records)).not.toContain("writes");
    expect(roles(records)).toContain("returns_untrusted_text");
    // Writes stay writes.
    expect(roles(tool("im_v1_message_create", "Send a message to a chat."))).toContain("writes");
  });

  it("a tool that says it works offline computes on its inputs: no sink, no private data", () => {
    const buffer = tool(
      "buffer_zone",
      "Create a buffer zone (polygon) around a point at a distance. Works offline without API calls.",
      { geometry: { type: "object" }, distance: { type: "number" } },
      { readOnlyHint: true },
    );
    expect(roles(buffer)).toEqual([]);
    // Without the statement, "Create" is a write the read-only claim cannot take back.
    const online = tool(
      "buffer_zone",
      "Create a buffer zone (polygon) around a point at a distance.",
      { geometry: { type: "object" }, distance: { type: "number" } },
      { readOnlyHint: true },
    );
    expect(roles(online)).toContain("writes");
  });

  it("a web search returns the public web, not private data", () => {
    const web = tool("acme_search", "Search the web for current information on any topic.", {
      query: { type: "string" },
    });
    expect(roles(web)).toContain("returns_untrusted_text");
    expect(roles(web)).not.toContain("reads_private_data");
    expect(notesOf(web)).toMatch(/searches the web/);
    // A search of the account's own records stays private.
    expect(
      roles(
        tool("acme_search", "Search the workspace for documents.", { query: { type: "string" } }),
      ),
    ).toContain("reads_private_data");
  });

  it("a vendor's public store, marketplace or registry is what anyone can read", () => {
    const store = tool(
      "find_plugins",
      "Search the plugin marketplace for plugins matching a query.",
      {
        query: { type: "string" },
      },
    );
    expect(roles(store)).not.toContain("reads_private_data");
    expect(notesOf(store)).toMatch(/public store, marketplace or registry/);
    // The account's own stores are not a store front.
    expect(
      roles(tool("list_key_value_stores", "List the key-value stores owned by the user.")),
    ).toContain("reads_private_data");
  });

  it("research and display are reads; research reads public sources", () => {
    const research = tool("deep_research", "Perform comprehensive research on a topic.", {
      input: { type: "string" },
    });
    expect(roles(research)).not.toContain("writes");
    expect(roles(research)).not.toContain("reads_private_data");
    const info = tool(
      "pipeline_info",
      "Displays detailed pipeline configuration, stages, and connected applications",
      { pipeline: { type: "string" } },
    );
    expect(roles(info)).not.toContain("writes");
    expect(roles(info)).toContain("reads_private_data");
  });

  it("maps are public geographic data", () => {
    const map = tool("get_map", "Get a map of the area around the coordinates.", {
      lat: { type: "number" },
      lon: { type: "number" },
    });
    expect(roles(map)).not.toContain("reads_private_data");
  });

  it("add-ons, field definitions and ids are names and states, not prose", () => {
    for (const t of [
      tool("list_addons", "List add-ons: all apps or specific app, detailed metadata"),
      tool("table_field_list", "Get all fields of a table", { table_id: { type: "string" } }),
      tool("get_user_ids", "Obtain user IDs via email or mobile number", {
        emails: { type: "array", items: { type: "string" } },
      }),
    ]) {
      expect(roles(t), t.name).not.toContain("returns_untrusted_text");
      expect(roles(t), t.name).toContain("reads_private_data");
    }
  });

  it("an input that confirms a destructive operation says the call destroys", () => {
    const upgrade = tool(
      "pg_upgrade",
      "Upgrade PostgreSQL: version migration, compatibility, safety",
      {
        app: { type: "string" },
        confirm: { type: "string", description: "Confirmation for destructive operation" },
      },
    );
    expect(roles(upgrade)).toContain("deploys_or_destroys");
    expect(
      suggestRoles(upgrade)
        .roles.find((r) => r.role === "deploys_or_destroys")
        ?.reasons.join(" "),
    ).toMatch(/input "confirm" confirms a destructive operation/);
    // A confirmation of nothing destructive says nothing.
    const ok = tool("db_info", "Show database settings", {
      confirm: { type: "boolean", description: "Confirm that you want to see the settings" },
    });
    expect(roles(ok)).not.toContain("deploys_or_destroys");
  });
});
