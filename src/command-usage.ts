import { EXPLAIN_USAGE } from "./explain-cli.js";

const ADMIN_URL = "URL: hvx's admin port (server.adminPort); default http://localhost:9090";

/** Each subcommand's usage: `hvx COMMAND --help` prints its own, `hvx --help` all of them. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  serve: [
    "hvx serve [--config FILE] [--print-config]",
    "    run the extender, the admin port and the webhook (no vcenter.url: the bundled mock vCenter, demo scenario)",
    "    --config FILE     YAML configuration (ports: server.port, server.adminPort, admission.port); `npm start -- --config FILE`",
    "    --print-config    print the effective configuration (secrets redacted) and exit",
  ].join("\n"),
  "mock-vcenter": [
    "hvx mock-vcenter [--port N] [--scenario FILE]...",
    "    run the mock vCenter alone (default port 8989; FILE: an inventory scenario, mocks/vcenter/scenarios/;",
    "    several: one mock per file on N, N+1, ...)",
  ].join("\n"),
  simulate: [
    "hvx simulate --scenario FILE [--seed N] [--seeds K] [--physics overflow|queueing|both] [--out DIR] [--config FILE] [--drs off|on|both]",
    "    replay a cluster under each placement strategy and the clairvoyant oracle (a reference, not a scheduler)",
    "    (FILE: a simulator scenario, examples/scenarios/; --seed default 1; --seeds default 10; --physics default both;",
    "    --out default simulation-out; --config default: hvx's defaults; --drs default both)",
  ].join("\n"),
  explain: [
    EXPLAIN_USAGE,
    "    why each node passes or fails, as a table (--json: the whole answer)",
    `    ${ADMIN_URL.replace("default", "default HVX_URL, else")}`,
  ].join("\n"),
  report: ["hvx report oversell [--url URL] [--json]", "    the oversell ledger of a running hvx", `    ${ADMIN_URL}`].join("\n"),
  advise: [
    "hvx advise [--url URL] [--json]",
    "    findings on both layers, riskiest first (hvx changes none of them)",
    `    ${ADMIN_URL}`,
  ].join("\n"),
};

/** `hvx COMMAND ... --help` (or `-h`): that command's usage; undefined when no help was asked for a known command. */
export function commandHelp(argv: readonly string[]): string | undefined {
  const [command, ...rest] = argv;
  const usage = command === undefined ? undefined : COMMAND_USAGE[command];
  if (usage === undefined || !rest.some((a) => a === "--help" || a === "-h")) return undefined;
  return `Usage: ${usage}\n`;
}
