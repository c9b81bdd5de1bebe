import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { generateScenario, loadScenario } from "../vcenter/index.js";
import type { ExporterFlavour } from "./render-exposition.js";
import { startFakeExporter } from "./start-fake-exporter.js";

/**
 * The fake exporter in its own Node.js process, so a large scenario's exposition (4000 VMs:
 * ~9 MB a scrape) is rendered off the measuring process's event loop, as a real exporter is.
 * `node serve-exporter.js <telegraf|vmware_exporter> <scenario.yaml | generated:HOSTSxVMS_PER_HOST>`
 * prints `{"target":"127.0.0.1:PORT"}` and serves until killed.
 */
export interface ExporterProcess {
  readonly target: string;
  close(): Promise<void>;
}

export function spawnExporter(flavour: ExporterFlavour, scenario: string): Promise<ExporterProcess> {
  const child: ChildProcess = spawn(process.execPath, [fileURLToPath(import.meta.url), flavour, scenario], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    child.once("exit", (code) => reject(new Error(`fake exporter exited (${code})`)));
    lines.once("line", (line) => {
      const { target } = JSON.parse(line) as { target: string };
      resolve({
        target,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

async function main(flavour: string, scenarioArg: string): Promise<void> {
  if (flavour !== "telegraf" && flavour !== "vmware_exporter") throw new Error("flavour must be telegraf or vmware_exporter");
  const generated = /^generated:(\d+)x(\d+)$/.exec(scenarioArg);
  const scenario = generated
    ? generateScenario({ hosts: Number(generated[1]), vmsPerHost: Number(generated[2]) })
    : loadScenario(scenarioArg);
  const exporter = await startFakeExporter({ scenario, flavour });
  process.stdout.write(`${JSON.stringify({ target: exporter.target })}\n`);
  process.once("SIGTERM", () => void exporter.close().then(() => process.exit(0)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv[2] ?? "", process.argv[3] ?? "").catch((err: unknown) => {
    process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  });
}
