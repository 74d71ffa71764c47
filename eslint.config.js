// Flat config, type-aware. Style rules live here, not in prose.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "public/**",
      ".data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "drizzle/**",
      // Compiled demo servers (scripts/build-servers.mjs), built from servers/*.ts.
      "servers/dist/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: "Server-sent text renders as text. Never use dangerouslySetInnerHTML.",
        },
      ],
    },
  },
  {
    // The domain stays plain TypeScript: nothing in lib/ may reach React, Next or the UI layers.
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["react", "react/*", "react-dom", "react-dom/*"],
              message: "lib/ is plain TypeScript: no React.",
            },
            { group: ["next", "next/*"], message: "lib/ is plain TypeScript: no Next.js." },
            {
              group: ["@/app/*", "@/components/*", "**/app/*", "**/components/*"],
              message: "lib/ must not import app/ or components/.",
            },
            {
              group: ["@tanstack/*", "d3", "d3-*", "monaco-editor", "@monaco-editor/*"],
              message: "lib/ is UI-free.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
