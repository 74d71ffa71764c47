/**
 * knowledge-mcp: the seed's demo server. Four read tools over seeded tickets and wiki pages, a
 * resource template `atlas://spaces/{key}`, no prompts. Tool descriptions equal the
 * `declaredTools` of lib/review/demo.ts. `KNOWLEDGE_MCP_VARIANT=4.2` serves the v4.2 surface, in
 * which knowledge_search also fetches linked external pages (its description says so) — the
 * change a surface pin must catch.
 *   node --import tsx servers/knowledge-mcp.ts stdio | http --port N
 */
import { pathToFileURL } from "node:url";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { z } from "zod";
import { runServer } from "./shared/run";
import { COMMENTS, PAGES, SPACES, TICKETS } from "./knowledge-data";

export const KNOWLEDGE_DESCRIPTIONS = {
  knowledge_search:
    "Search tickets and wiki pages; returns matching ticket bodies and page excerpts.",
  knowledge_search_v4_2:
    "Search tickets and wiki pages; returns matching ticket bodies and page excerpts, and fetches linked external pages to include their text.",
  read_page: "Read a wiki page, including its comment thread.",
  list_spaces: "List the wiki spaces the service identity can read.",
  get_comment: "Fetch one comment from a ticket or a wiki page.",
} as const;

export const KNOWLEDGE_INSTRUCTIONS =
  "knowledge-mcp searches the Atlas issue tracker (projects PAY, INFRA, SUP) and the Atlas wiki (spaces ENG, OPS, PARTNER). All tools are read-only. Ticket and comment text is written by their authors, including external support-portal accounts.";

const text = (value: unknown) => ({
  content: [{ type: "text" as const, text: JSON.stringify(value, null, 2) }],
});
const readOnly = { readOnlyHint: true };

export function createKnowledgeServer(
  variant = process.env.KNOWLEDGE_MCP_VARIANT ?? "",
): McpServer {
  const isV42 = variant === "4.2";
  const server = new McpServer(
    { name: "knowledge-mcp", version: isV42 ? "4.2.0" : "4.1.3" },
    { instructions: KNOWLEDGE_INSTRUCTIONS },
  );
  const commentsOf = (ids: string[]) => COMMENTS.filter((c) => ids.includes(c.id));

  server.registerTool(
    "knowledge_search",
    {
      description: isV42
        ? KNOWLEDGE_DESCRIPTIONS.knowledge_search_v4_2
        : KNOWLEDGE_DESCRIPTIONS.knowledge_search,
      inputSchema: z.object({
        query: z.string().min(1).describe("Words to look for"),
        limit: z.number().int().min(1).max(50).optional(),
      }),
      annotations: readOnly,
    },
    ({ query, limit }) => {
      const q = query.toLowerCase();
      const hit = (s: string) => s.toLowerCase().includes(q);
      const tickets = TICKETS.filter(
        (t) => hit(t.title) || hit(t.body) || commentsOf(t.commentIds).some((c) => hit(c.body)),
      ).map((t) => ({
        kind: "ticket",
        key: t.key,
        title: t.title,
        body: t.body,
        comments: commentsOf(t.commentIds).map((c) => ({
          id: c.id,
          author: c.author,
          body: c.body,
        })),
      }));
      const pages = PAGES.filter((p) => hit(p.title) || hit(p.body)).map((p) => ({
        kind: "page",
        id: p.id,
        space: p.space,
        title: p.title,
        excerpt: p.body.slice(0, 200),
      }));
      return text({
        results: [...tickets, ...pages].slice(0, limit ?? 10),
        ...(isV42
          ? { external: "linked external pages are fetched in v4.2 (not in this offline demo)" }
          : {}),
      });
    },
  );
  server.registerTool(
    "read_page",
    {
      description: KNOWLEDGE_DESCRIPTIONS.read_page,
      inputSchema: z.object({ page_id: z.string().describe("Page id, e.g. ENG-1") }),
      annotations: readOnly,
    },
    ({ page_id }) => {
      const page = PAGES.find((p) => p.id === page_id);
      if (!page)
        return { isError: true, content: [{ type: "text" as const, text: `no page ${page_id}` }] };
      return text({ ...page, comments: commentsOf(page.commentIds) });
    },
  );
  server.registerTool(
    "list_spaces",
    {
      description: KNOWLEDGE_DESCRIPTIONS.list_spaces,
      inputSchema: z.object({}),
      annotations: readOnly,
    },
    () => text({ spaces: SPACES }),
  );
  server.registerTool(
    "get_comment",
    {
      description: KNOWLEDGE_DESCRIPTIONS.get_comment,
      inputSchema: z.object({ comment_id: z.string().describe("Comment id, e.g. c-3") }),
      annotations: readOnly,
    },
    ({ comment_id }) => {
      const c = COMMENTS.find((x) => x.id === comment_id);
      return c
        ? text(c)
        : { isError: true, content: [{ type: "text" as const, text: `no comment ${comment_id}` }] };
    },
  );
  server.registerResource(
    "space",
    new ResourceTemplate("atlas://spaces/{key}", { list: undefined }),
    { description: "A wiki space: its pages and their titles.", mimeType: "application/json" },
    (uri, { key }) => {
      const space = SPACES.find((s) => s.key === key);
      const pages = PAGES.filter((p) => p.space === key).map((p) => ({ id: p.id, title: p.title }));
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: "application/json",
            text: JSON.stringify({ space: space ?? null, pages }),
          },
        ],
      };
    },
  );
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  runServer("knowledge-mcp", () => createKnowledgeServer());
