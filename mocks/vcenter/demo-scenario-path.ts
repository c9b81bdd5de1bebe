import { fileURLToPath } from "node:url";

/**
 * Absolute path of mocks/vcenter/scenarios/demo.yaml. The YAML is not copied by tsc, so
 * from the compiled file (dist/mocks/vcenter/) it is three levels up, then back down.
 */
export function demoScenarioPath(): string {
  return scenarioPath("demo.yaml");
}

/** Absolute path of a bundled scenario (`demo.yaml`, `faulty.yaml`). */
export function scenarioPath(fileName: string): string {
  const here = import.meta.url;
  const fromDist = /\/dist\/mocks\/vcenter\/[^/]+$/.test(here);
  const rel = fromDist ? `../../../mocks/vcenter/scenarios/${fileName}` : `./scenarios/${fileName}`;
  return fileURLToPath(new URL(rel, here));
}
