// `npx drizzle-kit generate` writes SQL migrations for lib/store/tables.ts into drizzle/.
// Generation needs no database; the pglite driver is named only so the kit can run `push`
// against a scratch data folder when someone wants to poke at the schema.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  driver: "pglite",
  schema: "./lib/store/tables.ts",
  out: "./drizzle",
  dbCredentials: { url: "./.data/drizzle-kit" },
});
