import { describe, expect, it } from "vitest";
import { annotationCombination } from "@/lib/tools/annotations";
import { inferRoles, inferRolesShared, type InferInput, type InferenceMemo } from "./infer";
import { suggestRoles, type RoleInputTool } from "./suggest";

/**
 * Issue 32, fifth round: where a write reaches and what it runs. Each case is general vocabulary or
 * schema shape (no tool or server name), and the rule shows as a reason or a note on the suggestion.
 */
const SINKS = ["writes", "deploys_or_destroys", "network_or_shares"];
const suggest = (t: RoleInputTool) => suggestRoles(t);
const sinks = (t: RoleInputTool) =>
  suggest(t)
    .roles.map((r) => r.role)
    .filter((r) => SINKS.includes(r));
const reasonsFor = (t: RoleInputTool, role: string) =>
  suggest(t)
    .roles.find((r) => r.role === role)
    ?.reasons.join(" | ") ?? "";
const schema = (properties: Record<string, unknown>) => ({ type: "object", properties });
const str = (description = "") => ({ type: "string", description });

describe("network edges", () => {
  it("making a route, a DNS record, a custom domain or a peering shares; deleting one does not", () => {
    const routeIn = schema({ zoneId: str(), pattern: str(), scriptName: str() });
    expect(sinks({ name: "route_create", inputSchema: routeIn })).toEqual([
      "writes",
      "network_or_shares",
    ]);
    expect(reasonsFor({ name: "route_create", inputSchema: routeIn }, "network_or_shares")).toMatch(
      /where traffic goes/,
    );
    expect(sinks({ name: "route_delete", inputSchema: routeIn })).not.toContain(
      "network_or_shares",
    );
    expect(sinks({ name: "domain-record-create", inputSchema: schema({ Data: str() }) })).toContain(
      "network_or_shares",
    );
    expect(sinks({ name: "vpc-peering-create", inputSchema: schema({ Vpc1: str() }) })).toContain(
      "network_or_shares",
    );
    // A domain alone (a sending domain) is no edge.
    expect(sinks({ name: "create-domain", inputSchema: schema({ name: str() }) })).toEqual([
      "writes",
    ]);
  });

  it("inbound or outbound rules open paths; removing them only narrows", () => {
    const rules = schema({ ID: str(), InboundRules: { type: "array", items: { type: "object" } } });
    expect(sinks({ name: "firewall-add-rules", inputSchema: rules })).toContain(
      "network_or_shares",
    );
    expect(sinks({ name: "firewall-remove-rules", inputSchema: rules })).not.toContain(
      "network_or_shares",
    );
  });

  it("a database user is a login", () => {
    expect(
      sinks({ name: "create-db-user", inputSchema: schema({ username: str(), password: str() }) }),
    ).toContain("network_or_shares");
  });
});

describe("code that is built, deployed or scheduled", () => {
  it("a Git repository named anywhere in the input is built and deployed", () => {
    const spec = schema({
      spec: {
        type: "object",
        properties: {
          services: {
            type: "array",
            items: {
              type: "object",
              properties: {
                git: { type: "object", properties: { repo_clone_url: str(), branch: str() } },
              },
            },
          },
        },
      },
    });
    expect(sinks({ name: "apps-create-app-from-spec", inputSchema: spec })).toEqual([
      "writes",
      "deploys_or_destroys",
      "network_or_shares",
    ]);
  });

  it("a script's content put in place runs; a script named by reference does not", () => {
    expect(
      sinks({
        name: "worker_put",
        inputSchema: schema({ name: str(), script: str("The Worker script content") }),
      }),
    ).toEqual(["writes", "deploys_or_destroys", "network_or_shares"]);
    expect(
      sinks({
        name: "create_namespace",
        inputSchema: schema({ name: str(), script: str("The Worker script that implements it") }),
      }),
    ).toEqual(["writes"]);
  });

  it("a caller's command or init script runs on the service's machines", () => {
    expect(
      sinks({
        name: "create_server",
        inputSchema: schema({ name: str(), cloud_init_script: str() }),
      }),
    ).toEqual(["writes", "deploys_or_destroys", "network_or_shares"]);
  });

  it("a CRON schedule and a build run; a deployment of a named build goes live", () => {
    expect(
      sinks({
        name: "cron_create",
        inputSchema: schema({ scriptName: str(), cronExpression: str() }),
      }),
    ).toContain("deploys_or_destroys");
    expect(sinks({ name: "CreateBuild", inputSchema: schema({ ServiceSid: str() }) })).toContain(
      "deploys_or_destroys",
    );
    expect(sinks({ name: "CreateDeployment", inputSchema: schema({ BuildSid: str() }) })).toContain(
      "network_or_shares",
    );
  });

  it("a deployment written with its status records one made elsewhere", () => {
    const status = schema({
      deployment_id: str(),
      status: { type: "string", enum: ["running", "success", "failed"] },
    });
    const tool = { name: "update_deployment", inputSchema: status };
    expect(sinks(tool)).toEqual(["writes"]);
    expect(suggest(tool).notes.join(" ")).toMatch(/records the status of a deployment/);
  });
});

describe("what stays inside the account", () => {
  it("SQL runs (writes, deletes) but reaches no network by itself; read-only SQL only reads", () => {
    expect(
      sinks({ name: "d1_query", inputSchema: schema({ query: str("SQL query to execute") }) }),
    ).toEqual(["writes", "deploys_or_destroys"]);
    expect(
      sinks({
        name: "query_logs",
        inputSchema: schema({ sql: str("A read-only SQL query to run against the logs") }),
      }),
    ).toEqual([]);
  });

  it("a message put on the account's own queue is no message to people", () => {
    const tool = {
      name: "queue_send_message",
      inputSchema: schema({ queueId: str(), message: str() }),
    };
    expect(sinks(tool)).toEqual(["writes"]);
    expect(suggest(tool).notes.join(" ")).toMatch(/read by the account's own consumers/);
  });

  it("publishing a draft or template stays inside; a published workflow runs", () => {
    expect(sinks({ name: "publish_draft_note", inputSchema: schema({ id: str() }) })).toEqual([
      "writes",
    ]);
    expect(sinks({ name: "publish_workflow", inputSchema: schema({ id: str() }) })).toEqual([
      "writes",
      "deploys_or_destroys",
    ]);
    expect(sinks({ name: "publish_post", inputSchema: schema({ id: str() }) })).toContain(
      "network_or_shares",
    );
  });

  it("a visibility timeout, a private key and a key's permission are no audience", () => {
    expect(
      sinks({
        name: "update_message_visibility",
        inputSchema: schema({ messageId: str(), visibilityTimeout: { type: "number" } }),
      }),
    ).not.toContain("network_or_shares");
    expect(
      sinks({ name: "certificate-create", inputSchema: schema({ PrivateKey: str() }) }),
    ).not.toContain("network_or_shares");
    expect(
      sinks({
        name: "create-api-key",
        inputSchema: schema({
          name: str(),
          permission: { type: "string", enum: ["full_access", "sending_access"] },
        }),
      }),
    ).not.toContain("network_or_shares");
  });

  it("an open kind opens a space to the account", () => {
    expect(
      sinks({
        name: "create_workspace",
        inputSchema: schema({
          name: str(),
          workspaceKind: { type: "string", enum: ["closed", "open", "template"] },
        }),
      }),
    ).toContain("network_or_shares");
    // An issue's state is no audience.
    expect(
      sinks({
        name: "update_issue",
        inputSchema: schema({ state: { type: "string", enum: ["open", "closed"] } }),
      }),
    ).toEqual(["writes"]);
  });
});

describe("finality and lifecycle", () => {
  it("restoring or pausing a project, finalizing an invoice and rebasing a branch are not undone by one call", () => {
    const id = schema({ id: str() });
    expect(sinks({ name: "restore_project", inputSchema: id })).toEqual([
      "writes",
      "deploys_or_destroys",
    ]);
    expect(sinks({ name: "finalize_invoice", inputSchema: id })).toEqual([
      "writes",
      "deploys_or_destroys",
    ]);
    expect(sinks({ name: "rebase_branch", inputSchema: id })).toContain("deploys_or_destroys");
    // Restoring an item from the trash is a write.
    expect(sinks({ name: "restore_item", inputSchema: id })).toEqual(["writes"]);
  });
});

describe("names and members", () => {
  it("a domain made with an IP address points it there; assigning a member grants nothing", () => {
    expect(
      sinks({ name: "domain-create", inputSchema: schema({ Name: str(), IPAddress: str() }) }),
    ).toContain("network_or_shares");
    const assign = { name: "assign_member_to_card", inputSchema: schema({ memberId: str() }) };
    expect(sinks(assign)).toEqual(["writes"]);
    expect(suggest(assign).notes.join(" ")).toMatch(/grants no access/);
    expect(sinks({ name: "add_member", inputSchema: schema({ memberId: str() }) })).toContain(
      "network_or_shares",
    );
  });
});

describe("deploys and firewalls", () => {
  it("a deploy by id or tag runs configured code; a deploy handed code reaches the network", () => {
    const byId = {
      name: "deploy",
      inputSchema: schema({ tag_or_uuid: str(), force: { type: "boolean" } }),
    };
    expect(sinks(byId)).toEqual(["writes", "deploys_or_destroys"]);
    expect(suggest(byId).notes.join(" ")).toMatch(/no input hands over code/);
    expect(
      sinks({ name: "deploy_site", inputSchema: schema({ siteId: str(), directory: str() }) }),
    ).toContain("network_or_shares");
  });

  it("deleting a firewall or taking machines out of it widens access; removing its rules narrows", () => {
    const ids = schema({ ID: str(), DropletIDs: { type: "array", items: { type: "number" } } });
    expect(sinks({ name: "firewall-delete", inputSchema: schema({ ID: str() }) })).toContain(
      "network_or_shares",
    );
    expect(sinks({ name: "firewall-remove-droplets", inputSchema: ids })).toContain(
      "network_or_shares",
    );
    expect(sinks({ name: "firewall-remove-rules", inputSchema: ids })).not.toContain(
      "network_or_shares",
    );
  });
});

describe("addresses the tool goes to", () => {
  it("a URL the tool navigates to reaches any host, even among other operations", () => {
    const tabs = schema({
      action: { type: "string", enum: ["list", "new", "close", "select"] },
      url: str("URL to navigate to in the new tab, used for new."),
    });
    expect(sinks({ name: "browser_tabs", inputSchema: tabs })).toContain("network_or_shares");
    expect(reasonsFor({ name: "browser_tabs", inputSchema: tabs }, "network_or_shares")).toMatch(
      /navigates to/,
    );
    // A URL that is only stored (a bookmark's address) is not visited.
    expect(
      sinks({
        name: "create_bookmark",
        inputSchema: schema({ url: str("The address to store") }),
      }),
    ).toEqual(["writes"]);
  });
});

/**
 * Issue 32, network round: sends, shares, connections and steps that reach any address, each case
 * general vocabulary or schema shape (the corpus README, "Network round").
 */
describe("network round: where data can leave", () => {
  const roles = (t: RoleInputTool) => suggest(t).roles.map((r) => r.role);
  const taskIn = schema({ task: str("The task to perform") });

  it("an agent that browses the web for a task reaches any site; one that interacts also writes", () => {
    const agent = {
      name: "research_agent",
      description: "An agent that navigates web pages to complete the task.",
      inputSchema: taskIn,
    };
    expect(reasonsFor(agent, "network_or_shares")).toMatch(/browses the web for the task/);
    expect(roles(agent)).not.toContain("writes");
    const acting = {
      ...agent,
      description: "Completes browser tasks autonomously, handling complex interactions.",
    };
    expect(sinks(acting)).toEqual(["writes", "network_or_shares"]);
    // An agent of the service that is not a browser (it browses a catalogue) reaches nothing.
    expect(
      roles({
        name: "describe_agent",
        description: "Agents of the platform. Browse the catalogue first.",
        inputSchema: taskIn,
      }),
    ).not.toContain("network_or_shares");
  });

  it("a connection set up to the caller's address reaches that host", () => {
    const init = {
      name: "init_client",
      description: "Initialize connection to the instance.",
      inputSchema: schema({ url: str(), apiKey: str() }),
    };
    expect(reasonsFor(init, "network_or_shares")).toMatch(/sets up a connection to the address/);
    expect(roles({ ...init, description: "Initialize the client." })).not.toContain(
      "network_or_shares",
    );
  });

  it("an operation of a union that calls an endpoint reaches it; a branch with a stored URL does not", () => {
    const union = (description: string) =>
      schema({
        action: {
          anyOf: [
            { type: "object", properties: { type: { const: "list" } } },
            {
              type: "object",
              properties: { type: { const: "execute" }, endpoint: str(description) },
            },
          ],
        },
      });
    const client = { name: "graph_client", inputSchema: union("The GraphQL endpoint URL") };
    expect(reasonsFor(client, "network_or_shares")).toMatch(
      /one of its operations takes an address/,
    );
    expect(
      roles({ name: "graph_client", inputSchema: union("Where the record was found") }),
    ).not.toContain("network_or_shares");
  });

  it("a workflow written from steps of no declared shape can call any address", () => {
    const steps = schema({ name: str(), nodes: { type: "array", items: { type: "object" } } });
    expect(
      reasonsFor({ name: "create_workflow", inputSchema: steps }, "network_or_shares"),
    ).toMatch(/declares none of their fields/);
    const nested = schema({
      id: str(),
      workflow: { type: "object", properties: { nodes: { type: "array" } } },
    });
    expect(roles({ name: "update_workflow", inputSchema: nested })).toContain("network_or_shares");
    // Steps whose fields are declared say what they do; a label is no step.
    const typed = schema({
      nodes: { type: "array", items: { type: "object", properties: { label: str() } } },
    });
    expect(roles({ name: "create_workflow", inputSchema: typed })).not.toContain(
      "network_or_shares",
    );
  });

  it("making users gives people a login; deleting one does not", () => {
    const users = schema({ users: { type: "array", items: { type: "object" } } });
    expect(reasonsFor({ name: "create_users", inputSchema: users }, "network_or_shares")).toMatch(
      /a person gets a login/,
    );
    expect(roles({ name: "delete_user", inputSchema: schema({ id: str() }) })).not.toContain(
      "network_or_shares",
    );
  });

  it("approving a request for access grants it; approving a change does not", () => {
    const approve = {
      name: "approve_request",
      description: "Approve a pending device authorization request",
      inputSchema: schema({ requestId: str() }),
    };
    expect(sinks(approve)).toEqual(["writes", "network_or_shares"]);
    expect(
      roles({ ...approve, description: "Approve a merge request", name: "approve_change" }),
    ).not.toContain("network_or_shares");
  });

  it("moving an item to an organisation shares it; moving it to a folder does not", () => {
    const move = (description: string) => ({
      name: "move_item",
      description,
      inputSchema: schema({ itemId: str(), targetId: str() }),
    });
    expect(reasonsFor(move("Move an item to an organization"), "network_or_shares")).toMatch(
      /moves it to an organisation/,
    );
    expect(roles(move("Move an item to a folder"))).not.toContain("network_or_shares");
  });

  it("setting or removing an access password changes who can open it", () => {
    const remove = {
      name: "remove_link_password",
      description: "Remove the access password from a link",
      inputSchema: schema({ id: str() }),
    };
    expect(reasonsFor(remove, "network_or_shares")).toMatch(/access password/);
    const edit = {
      name: "edit_link",
      inputSchema: schema({ id: str(), password: str("New access password") }),
    };
    expect(roles(edit)).toContain("network_or_shares");
    expect(
      roles({
        name: "edit_link",
        inputSchema: schema({ id: str(), password: str("The user's password") }),
      }),
    ).not.toContain("network_or_shares");
  });

  it("a base URL, or content given as a URL, is fetched from any host", () => {
    expect(
      reasonsFor(
        { name: "select_site", inputSchema: schema({ site: str("Base URL of the site") }) },
        "network_or_shares",
      ),
    ).toMatch(/base URL of the site/);
    expect(
      reasonsFor(
        {
          name: "compress_file",
          inputSchema: schema({ data: str("URL or data URI of the file") }),
        },
        "network_or_shares",
      ),
    ).toMatch(/can be a URL/);
    expect(
      roles({ name: "compress_file", inputSchema: schema({ data: str("The file's bytes") }) }),
    ).not.toContain("network_or_shares");
  });

  it("an untyped change that can set a webhook, and an embeddable link, reach outside", () => {
    const patch = (description: string) => ({
      name: "update_monitor",
      description,
      inputSchema: schema({ id: str(), body: { type: "object" } }),
    });
    expect(
      reasonsFor(
        patch("Patch a monitor: its schedule, webhook or retention."),
        "network_or_shares",
      ),
    ).toMatch(/can set a webhook/);
    expect(roles(patch("Patch a monitor: its schedule or retention."))).not.toContain(
      "network_or_shares",
    );
    expect(
      reasonsFor(
        {
          name: "create_preview",
          description: "Generate an embeddable preview URL for a file.",
          inputSchema: schema({ fileId: str() }),
        },
        "network_or_shares",
      ),
    ).toMatch(/embeddable link/);
  });

  it("a custom domain added to a service is an edge; a command given when opening a session runs", () => {
    const domains = {
      name: "manage_domains",
      description: "Manage custom domains for a service",
      inputSchema: schema({ action: { type: "string", enum: ["add", "list"] }, domain: str() }),
    };
    expect(reasonsFor(domains, "network_or_shares")).toMatch(/custom domain/);
    const open = {
      name: "open_session",
      inputSchema: schema({ name: str(), command: str("Command for background sessions") }),
    };
    expect(sinks(open)).toEqual(["writes", "deploys_or_destroys", "network_or_shares"]);
    expect(sinks({ name: "open_session", inputSchema: schema({ name: str() }) })).toEqual([]);
  });

  it("a signal sent to a process stays on the machine but can stop it", () => {
    const signal = {
      name: "signal_process",
      description: "Send a signal (INT, TERM, KILL) to a process by PID.",
      inputSchema: schema({
        pid: { type: "integer" },
        signal: { type: "string", enum: ["INT", "TERM", "KILL"] },
      }),
    };
    expect(sinks(signal)).toEqual(["writes", "deploys_or_destroys"]);
    expect(suggest(signal).notes.join(" ")).toMatch(/stays on the machine/);
  });

  it("activating a workflow puts it live; a deploy by id inside a declared wrapper hands over no code", () => {
    expect(
      reasonsFor(
        { name: "activate-workflow", inputSchema: schema({ id: str() }) },
        "deploys_or_destroys",
      ),
    ).toMatch(/puts the workflow live/);
    const byId = schema({
      params: { type: "object", properties: { serviceId: str(), clearCache: { type: "boolean" } } },
    });
    expect(sinks({ name: "deploy_service", inputSchema: byId })).not.toContain("network_or_shares");
    expect(
      sinks({ name: "deploy_service", inputSchema: schema({ params: { type: "object" } }) }),
    ).toContain("network_or_shares");
  });

  it("a path on the far side is where an upload lands, not a local file", () => {
    const upload = (key: string) => ({
      name: "upload_file",
      inputSchema: schema({ [key]: str("File path"), content: str("File content to upload") }),
    });
    expect(roles(upload("remotePath"))).not.toContain("network_or_shares");
    expect(
      roles({ name: "upload_file", inputSchema: schema({ localPath: str("Local file") }) }),
    ).toContain("network_or_shares");
  });

  it("a browser profile kept between sessions can be logged in", () => {
    const scrape = {
      name: "scrape_webpage",
      inputSchema: schema({
        url: str(),
        sessionOptions: {
          type: "object",
          properties: {
            profile: { type: "object", description: "Options for using a persistent profile" },
          },
        },
      }),
    };
    expect(reasonsFor(scrape, "reads_private_data")).toMatch(/kept between sessions/);
    expect(suggest(scrape).notes.join(" ")).not.toMatch(/reads_private_data is not suggested/);
  });
});

describe("network round, from the held-out servers' misses", () => {
  const roles = (t: RoleInputTool) => suggest(t).roles.map((r) => r.role);
  it("a notification address is called whatever the verb; the job it reports is kept", () => {
    const generate = {
      name: "generate-image",
      inputSchema: schema({
        request: {
          type: "object",
          properties: { prompt: str(), notification_url: str("A URL to notify when ready") },
        },
      }),
    };
    expect(reasonsFor(generate, "network_or_shares")).toMatch(/notifies when the work is done/);
    expect(roles(generate)).toContain("writes");
    expect(
      roles({
        name: "generate-image",
        inputSchema: schema({ request: { type: "object", properties: { prompt: str() } } }),
      }),
    ).not.toContain("network_or_shares");
  });

  it("public ids name records; they set no audience", () => {
    const tags = schema({
      tags_update_request: {
        type: "object",
        properties: {
          public_ids: { type: "array", items: { type: "string" } },
          tags: { type: "array" },
        },
      },
    });
    expect(roles({ name: "manage-asset-tags", inputSchema: tags })).not.toContain(
      "network_or_shares",
    );
    expect(
      roles({
        name: "update-asset",
        inputSchema: schema({ visibility: str("public or private") }),
      }),
    ).toContain("network_or_shares");
  });
});

describe("the shared inference's key", () => {
  const tool = (name: string, description: string, inputSchema: unknown): InferInput => ({
    name,
    description,
    inputSchema,
    annotationCombination: annotationCombination(undefined),
  });

  it("holds every cue these rules read: tools differing only in one do not share an inference", () => {
    // Each pair differs only in what reachFindings reads from a description, a field's description
    // or choices, or the schema's depth; every other part of the key is the same for both.
    const pairs: [string, InferInput, InferInput][] = [
      [
        "an embeddable link",
        tool("create_widget", "Creates an embeddable widget.", schema({ title: str() })),
        tool("create_widget", "Creates a widget.", schema({ title: str() })),
      ],
      [
        "a webhook set through an opaque body",
        tool(
          "update_settings",
          "Update settings; can set a webhook.",
          schema({ body: { type: "object" } }),
        ),
        tool("update_settings", "Update settings.", schema({ body: { type: "object" } })),
      ],
      [
        "an access request approved",
        tool("confirm_device", "Approve the access request of a device.", schema({ id: str() })),
        tool("confirm_device", "Approve the device.", schema({ id: str() })),
      ],
      [
        "a connection set up",
        tool("init", "Initialize connection to the instance.", schema({ url: str() })),
        tool("init", "Initialize the instance.", schema({ url: str() })),
      ],
      [
        "a base URL",
        tool(
          "set_config",
          "Set the client configuration.",
          schema({ base: str("Base URL of the wiki site") }),
        ),
        tool("set_config", "Set the client configuration.", schema({ base: str("The wiki site") })),
      ],
      [
        "a URL or data URI",
        tool("create_file", "Create a file.", schema({ data: str("URL or data URI of the file") })),
        tool("create_file", "Create a file.", schema({ data: str("Contents of the file") })),
      ],
      [
        "a kept browser profile",
        tool(
          "open_browser",
          "Open a browser.",
          schema({ profile: str("Use a persistent profile") }),
        ),
        tool("open_browser", "Open a browser.", schema({ profile: str("Profile name") })),
      ],
      [
        "a stopping signal among the choices",
        tool(
          "send_input",
          "Send input.",
          schema({ signal: { type: "string", enum: ["INT", "KILL"] } }),
        ),
        tool(
          "send_input",
          "Send input.",
          schema({ signal: { type: "string", enum: ["INT", "HUP"] } }),
        ),
      ],
      [
        "an address in one branch of a union",
        tool(
          "run_action",
          "Runs an action.",
          schema({ action: { oneOf: [schema({ url: str("The WebSocket URL to connect to") })] } }),
        ),
        tool(
          "run_action",
          "Runs an action.",
          schema({ action: { oneOf: [schema({ url: str("A URL") })] } }),
        ),
      ],
    ];
    for (const [cue, a, b] of pairs) {
      // The cue changes the inference...
      expect(inferRoles(a), cue).not.toEqual(inferRoles(b));
      // ...so a fresh memo keeps the two apart and each gets its own.
      const memo: InferenceMemo = new Map();
      expect(inferRolesShared(a, memo), cue).toEqual(inferRoles(a));
      expect(inferRolesShared(b, memo), cue).toEqual(inferRoles(b));
      expect(memo.size, cue).toBe(2);
    }
  });

  it("keeps its parts apart: server text containing a separator cannot make two tools' keys equal", () => {
    // Joined with "|" and ">", these two outputs' private fields read the same: `|>password|>apiKey`.
    const a: InferInput = {
      name: "get_account",
      annotationCombination: annotationCombination(undefined),
      outputSchema: schema({ password: str(), apiKey: str() }),
    };
    const b: InferInput = {
      ...a,
      outputSchema: schema({ "password|>apiKey": str() }),
    };
    const memo: InferenceMemo = new Map();
    expect(inferRolesShared(a, memo)).toEqual(inferRoles(a));
    expect(inferRolesShared(b, memo)).toEqual(inferRoles(b));
    expect(memo.size).toBe(2);
    expect(inferRoles(b).roles.get("reads_private_data")?.reasons[0]).toBe(
      'its output schema returns "password|>apiKey"',
    );
  });
});
