// Copies Monaco's AMD build into public/ so the editor loads from our own origin, never a CDN.
import { cpSync, existsSync, rmSync } from "node:fs";
import path from "node:path";

const source = path.resolve("node_modules/monaco-editor/min/vs");
const target = path.resolve("public/monaco/vs");
if (!existsSync(source)) {
  console.error(`copy-monaco: ${source} not found; is monaco-editor installed?`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
console.log(`copy-monaco: copied Monaco to ${path.relative(process.cwd(), target)}`);
