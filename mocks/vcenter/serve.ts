/**
 * Runs the mock vCenter by hand:
 *   node dist/mocks/vcenter/serve.js [--scenario path.yaml] [--port 8989] [--host 127.0.0.1]
 * Default scenario: the bundled demo. Stops on SIGINT/SIGTERM.
 */
import { demoScenarioPath } from "./demo-scenario-path.js";
import { loadScenario } from "./parse-scenario.js";
import { startMockVcenter } from "./start-mock-vcenter.js";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const scenarioFile = arg("scenario") ?? demoScenarioPath();
  const port = Number(arg("port") ?? "8989");
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${arg("port")}`);
  const vc = await startMockVcenter({ scenario: loadScenario(scenarioFile), port, host: arg("host") ?? "127.0.0.1" });
  process.stdout.write(`mock vCenter on ${vc.url} (scenario ${scenarioFile})\n`);
  const stop = () => void vc.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
