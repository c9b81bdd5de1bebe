#!/usr/bin/env node
// kubectl plugin: `kubectl hvx explain NAMESPACE/NAME` runs `kubectl-hvx explain NAMESPACE/NAME`.
import { UsageError } from "./cli-args.js";
import { explainUrlFromEnv } from "./config/explain-url.js";
import { parseExplainArgs, runExplain } from "./explain-cli.js";

const USAGE = `Usage: kubectl hvx explain NAMESPACE/NAME [--url URL] [--json]
       kubectl hvx explain --file ARGS.json [--url URL] [--json]
hvx's admin port: --url, else HVX_URL, else http://localhost:9090
(e.g. kubectl -n hvx-system port-forward deploy/hvx 9090)
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || argv.some((a) => a === "--help" || a === "-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command !== "explain") throw new UsageError(`unknown command '${command}'`);
  process.stdout.write(await runExplain(parseExplainArgs(rest, explainUrlFromEnv())));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`kubectl hvx: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof UsageError) process.stderr.write(`\n${USAGE}`);
    process.exit(err instanceof UsageError ? 64 : 1);
  },
);
