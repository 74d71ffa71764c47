import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside the react-server condition; unit tests run the Node files directly.
      "server-only": path.resolve(import.meta.dirname, "tests/support/server-only-stub.ts"),
    },
  },
  test: {
    environment: "node",
    include: ["lib/**/*.test.ts", "tests/**/*.test.ts", "cli/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores, which on a 2-core CI machine is one:
    // every file in series, while most of the suite's time is spent waiting on child processes,
    // sandboxes, loopback servers and watch intervals rather than on the CPU. The files are
    // independent (each store suite gets its own PGlite folder or PostgreSQL database, servers
    // listen on port 0), so two run at once there; larger machines keep the default.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
