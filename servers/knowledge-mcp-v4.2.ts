/**
 * knowledge-mcp's v4.2 surface as its own launch command, so a review can switch to it by editing
 * the server's stdio args (an allowlisted launcher), without setting KNOWLEDGE_MCP_VARIANT on the
 * workbench. In v4.2 knowledge_search also fetches linked external pages: the change a pin catches.
 *   node --import tsx servers/knowledge-mcp-v4.2.ts stdio | http --port N
 */
import { createKnowledgeServer } from "./knowledge-mcp";
import { runServer } from "./shared/run";

runServer("knowledge-mcp", () => createKnowledgeServer("4.2"));
