// Module resolve hook for the CLI: `server-only` resolves under the `react-server` condition, as it
// does inside Next's server bundles, so lib/mcp/node/* (which import it) load in a plain Node CLI.
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only") {
    return nextResolve(specifier, {
      ...context,
      conditions: [...context.conditions, "react-server"],
    });
  }
  return nextResolve(specifier, context);
}
