#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { stringify as toYaml } from "yaml";
import { ConfigError, loadConfig, redactConfig } from "./config/index.js";
import { intFlag, parseArgs, UsageError } from "./cli-args.js";
import { startHvx } from "./main.js";
import { createLogger } from "./observability/logger.js";

const USAGE = `hvx: hypervisor-aware kube-scheduler extender for Kubernetes on VMware ESXi

Usage:
  hvx serve [--config FILE] [--print-config]   run the extender (no vcenter.url: bundled mock vCenter, demo scenario)
  hvx mock-vcenter [--port N] [--scenario FILE] run the mock vCenter alone (default port 8989, demo scenario)
  hvx simulate --scenario FILE --seed N --out DIR [--config FILE]   replay a cluster under each placement strategy
`;

const COMMANDS = {
  serve: ["config", "print-config?"],
  "mock-vcenter": ["port", "scenario"],
  simulate: ["scenario", "seed", "out", "config"],
} as const;

async function main(argv: readonly string[]): Promise<number> {
  const { command, flags } = parseArgs(argv, COMMANDS);
  switch (command) {
    case "help":
      process.stdout.write(USAGE);
      return 0;
    case "serve":
      return serve(flags.get("config") as string | undefined, flags.has("print-config"));
    case "mock-vcenter": {
      const { demoScenarioPath, loadScenario, startMockVcenter } = await importMockVcenter();
      const scenarioPath = (flags.get("scenario") as string | undefined) ?? demoScenarioPath();
      const mock = await startMockVcenter({ scenario: loadScenario(scenarioPath), port: intFlag(flags, "port", 8989) });
      process.stderr.write(`mock vCenter serving ${scenarioPath} at ${mock.url} (user administrator@vsphere.local / hvx-demo unless the scenario says otherwise)\n`);
      await untilSignal();
      await mock.close();
      return 0;
    }
    case "simulate": {
      const { runSimulation, parseSimulateArgs } = await import("./simulate/index.js");
      const summary = await runSimulation(parseSimulateArgs(argv.slice(1)));
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

async function serve(configPath: string | undefined, printConfig: boolean): Promise<number> {
  const config = loadConfig(configPath);
  if (printConfig) {
    process.stdout.write(toYaml(redactConfig(config)));
    return 0;
  }
  const log = createLogger(config.log.level);
  const running = await startHvx(config, log);
  if (running.demo) {
    const sample = fileURLToPath(new URL("../../examples/filter-nodenames.json", import.meta.url));
    process.stderr.write(
      `\nhvx is serving the demo (mock vCenter at ${running.vcenterUrl}). Try:\n\n` +
        `  curl -s -X POST http://localhost:${running.extenderPort}/filter -H 'Content-Type: application/json' -d @${sample}\n` +
        `  curl -s http://localhost:${running.extenderPort}/debug/hosts\n` +
        (running.admissionPort !== undefined
          ? `  curl -s -X POST http://localhost:${running.admissionPort}/mutate -H 'Content-Type: application/json' -d @${fileURLToPath(new URL("../../examples/admissionreview-pod-create.json", import.meta.url))}   # plain HTTP in the demo\n`
          : "") +
        "\n",
    );
  }
  await untilSignal();
  log.info("shutting down");
  await running.stop();
  return 0;
}

/** The mocks ship with the source tree, not with the production image (Dockerfile): say so plainly there. */
async function importMockVcenter(): Promise<typeof import("../mocks/vcenter/index.js")> {
  try {
    return await import("../mocks/vcenter/index.js");
  } catch (err) {
    const missing = fileURLToPath(new URL("../mocks/vcenter/index.js", import.meta.url));
    if ((err as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND" || !String((err as Error).message).includes(missing)) throw err;
    throw new Error("the mock vCenter is not installed here (production image, built without mocks/): run `npx hvx mock-vcenter` from a source checkout", { cause: err });
  }
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) process.stderr.write(`hvx: ${err.message}\n\n${USAGE}`);
    else if (err instanceof ConfigError) process.stderr.write(`hvx: ${err.message}\n`);
    else process.stderr.write(`hvx: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 64 : 1);
  },
);
