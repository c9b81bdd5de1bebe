// ESLint flat config (`npm run lint`). Type-aware (typescript-eslint's project service reads
// tsconfig.json); formatting is Prettier's job (.prettierrc.json), so no style rules here.
import tseslint from "typescript-eslint";

/** The decision core: plain data in, plain data out (see docs/architecture.md). */
const CORE = ["src/placement", "src/oversell", "src/quantity", "src/model", "src/random"];
/** Adapters and everything around them; the core imports none of these (test/architecture.test.ts). */
const EDGES = ["vsphere", "cluster", "server", "observability", "config", "simulate", "prometheus", "http-client"];
/** Modules that do I/O or hold process-wide state. */
const IMPURE_MODULES = [
  "express",
  "node-cache",
  "prom-client",
  "pino",
  "@kubernetes/client-node",
  "node:fs",
  "node:fs/promises",
  "node:http",
  "node:https",
  "node:net",
  "node:child_process",
  "fs",
  "http",
  "https",
];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "out/**", "simulation-out/**", "**/*.cjs", "**/*.js"] },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection stops nothing, but the
      // error is gone): await it, handle it, or mark a deliberate fire-and-forget with `void`.
      "@typescript-eslint/no-floating-promises": "error",
      // Prettier wraps code at 140 (.prettierrc.json); this catches the comments it leaves alone.
      "max-len": ["error", { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The import boundary of test/architecture.test.ts: the core imports no adapter and no I/O module.
    files: CORE.map((dir) => `${dir}/**/*.ts`),
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: IMPURE_MODULES.map((name) => ({ name, message: "the decision core does no I/O: take plain data from the caller" })),
          patterns: [
            {
              regex: `^(\\.\\./)+(${EDGES.join("|")})/`,
              message: "the decision core imports no adapter: the adapter calls the core, never the other way round",
            },
            { regex: "^(\\.\\./)+(mocks|main|cli)\\b", message: "the decision core imports no mock and no entry point" },
          ],
        },
      ],
    },
  },
  {
    files: ["mocks/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+src/simulate/",
              message: "mocks do not import the simulator: shared pieces live in src/random or the core",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and benchmarks: chai's property assertions (`expect(x).to.be.true`) are expression
    // statements, and reading into loosely typed wire objects (`any`) is what a test does.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-unused-expressions": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
);
