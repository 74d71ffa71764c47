import { describe, expect, it } from "vitest";
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
