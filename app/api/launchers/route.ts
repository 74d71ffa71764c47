import { jsonResponse, withRoute } from "@/lib/http/route";
import { loadLauncherFiles } from "@/lib/mcp/node/resolve-target";
import { activeLaunchers } from "@/lib/sandbox/launchers";
import { launcherChoices, type ListLaunchersResponse } from "@/lib/sandbox/launcher-choices";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The launcher allowlist as the register form offers it: command lines, variable names, egress. */
export const GET = withRoute(() => {
  const loaded = loadLauncherFiles(process.env);
  const body: ListLaunchersResponse = loaded.ok
    ? {
        launchers: launcherChoices(
          activeLaunchers(loaded.files, process.env.RELAY_REVIEW_ALLOW_FIXTURES === "1"),
        ),
        problem: null,
      }
    : { launchers: [], problem: loaded.message };
  return Promise.resolve(jsonResponse(body));
});
