#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { stringify as toYaml } from "yaml";
import { ConfigError, loadConfig, redactConfig } from "./config/index.js";
import { intFlag, parseArgs, UsageError } from "./cli-args.js";
import { startHvx } from "./main.js";
import { setGarbageCollectorFlags } from "./server/garbage-collector-flags.js";
import { runReportCommand } from "./report-commands.js";
import { createLogger } from "./observability/logger.js";
import { mockPorts, scenarioPathsOf } from "./mock-vcenter-args.js";
import { wrongScenarioForSimulate } from "./scenario-kind.js";
import path from "node:path";
import { explainUrlFromEnv } from "./config/explain-url.js";
import { demoHelp } from "./demo-help.js";
import { parseExplainArgs, runExplain } from "./explain-cli.js";
import { commandHelp, COMMAND_USAGE } from "./command-usage.js";
import { hvxVersion } from "./build-info.js";

const USAGE = `hvx: hypervisor-aware kube-scheduler extender for Kubernetes on VMware ESXi

Usage (hvx COMMAND --help: that command's usage; hvx --version):
${Object.values(COMMAND_USAGE)
  .map((u) => `  ${u.replaceAll("\n", "\n  ")}`)
  .join("\n")}
`;

const COMMANDS = {
  serve: ["config", "print-config?"],
  "mock-vcenter": ["port", "scenario"],
  simulate: ["scenario", "seed", "seeds", "physics", "out", "config", "drs"],
} as const;

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "--version" || argv[0] === "version") {
    process.stdout.write(`hvx ${hvxVersion()} (Node.js ${process.version})\n`);
    return 0;
  }
  // Before anything else: help never reads a config nor touches the network.
  const help = commandHelp(argv);
  if (help !== undefined) {
    process.stdout.write(help);
    return 0;
  }
  if (argv[0] === "report" || argv[0] === "advise") return runReportCommand(argv, (t) => process.stdout.write(t));
  if (argv[0] === "explain") {
    process.stdout.write(await runExplain(parseExplainArgs(argv.slice(1), explainUrlFromEnv())));
    return 0;
  }
  const { command, flags } = parseArgs(argv, COMMANDS);
  switch (command) {
    case "help":
      process.stdout.write(USAGE);
      return 0;
    case "serve":
      return serve(flags.get("config") as string | undefined, flags.has("print-config"));
    case "mock-vcenter": {
      const { demoScenarioPath, loadScenario, startMockVcenter } = await importMockVcenter();
      // Several --scenario files: one mock per file, on ports N, N+1, ... (several vCenters).
      const given = scenarioPathsOf(argv.slice(1));
      const paths = given.length > 0 ? given : [demoScenarioPath()];
      const ports = mockPorts(intFlag(flags, "port", 8989), paths.length);
      const scenarios = paths.map((p) => loadScenario(p));
      const mocks = [];
      for (const [i, scenario] of scenarios.entries()) {
        const mock = await startMockVcenter({ scenario, port: ports[i]! });
        mocks.push(mock);
        process.stderr.write(
          `mock vCenter serving ${paths[i]} at ${mock.url} (user administrator@vsphere.local / hvx-demo unless the scenario says otherwise)\n`,
        );
      }
      await untilSignal();
      await Promise.all(mocks.map((m) => m.close()));
      return 0;
    }
    case "simulate": {
      const { runSimulation, parseSimulateArgs, writtenFilesMessage } = await import("./simulate/index.js");
      const options = parseSimulateArgs(argv.slice(1));
      const wrong = wrongScenarioForSimulate(options.scenarioPath);
      if (wrong !== undefined) throw new UsageError(wrong);
      const startedMs = Date.now();
      const summary = await runSimulation(options, ({ done, total, seed, physics }) => {
        if (total < 2) return;
        const eta = done === 0 ? "" : `, about ${Math.ceil((((Date.now() - startedMs) / done) * (total - done)) / 1000)} s left`;
        process.stderr.write(`simulate: seed ${seed}, ${physics} physics (${done + 1} of ${total}${eta})\n`);
      });
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      process.stderr.write(writtenFilesMessage(options.outDir));
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
  setGarbageCollectorFlags();
  const running = await startHvx(config, log);
  if (running.demo) process.stderr.write(printDemoHelp(running));
  const signal = await untilSignal();
  // A second signal while draining stops at once.
  const forced = untilSignal().then((again) => {
    log.warn({ signal: again }, "second signal: exiting without waiting");
    process.exit(1);
  });
  void forced;
  if (signal === "SIGTERM") {
    // Kubernetes: stop receiving traffic first (readiness 503), then close (server.shutdownDrainSeconds).
    await running.shutdown();
  } else {
    log.info({ signal }, "shutting down");
    await running.stop();
  }
  return 0;
}

/** The mocks ship with the source tree, not with the production image (Dockerfile): say so plainly there. */
async function importMockVcenter(): Promise<typeof import("../mocks/vcenter/index.js")> {
  try {
    return await import("../mocks/vcenter/index.js");
  } catch (err) {
    const missing = fileURLToPath(new URL("../mocks/vcenter/index.js", import.meta.url));
    if ((err as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND" || !String((err as Error).message).includes(missing)) throw err;
    throw new Error(
      "the mock vCenter is not installed here (production image, built without mocks/): run `npx hvx mock-vcenter` from a source checkout",
      { cause: err },
    );
  }
}

/** What `npm start` prints: the demo's commands, with paths as typed from the source tree. */
function printDemoHelp(running: Awaited<ReturnType<typeof startHvx>>): string {
  const examples = fileURLToPath(new URL("../../examples", import.meta.url));
  const inRepo = path.relative(process.cwd(), examples) === "examples";
  const ports = {
    extender: `${running.extenderTls ? "https" : "http"}://localhost:${running.extenderPort}`,
    admin: `http://localhost:${running.adminPort}`,
    ...(running.admissionPort !== undefined ? { admission: `http://localhost:${running.admissionPort}` } : {}),
  };
  return demoHelp(running.vcenterUrl, ports, inRepo ? "examples" : examples);
}

function untilSignal(): Promise<"SIGINT" | "SIGTERM"> {
  return new Promise((resolve) => {
    const on = (signal: "SIGINT" | "SIGTERM") => () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      resolve(signal);
    };
    const onInt = on("SIGINT");
    const onTerm = on("SIGTERM");
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
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
