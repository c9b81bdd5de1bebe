import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";

/**
 * hvx reads two scenario formats that are easy to mix up:
 * - an *inventory scenario* (`mocks/vcenter/scenarios/`, format `mocks/vcenter/README.md`): the
 *   hosts, VMs and metrics the mock vCenter serves (`hvx mock-vcenter --scenario`, the demo);
 * - a *simulation scenario* (`examples/scenarios/`, format `docs/simulation.md`): a cluster
 *   and its workloads for the digital twin (`hvx simulate --scenario`).
 */
export type ScenarioKind = "inventory" | "simulation" | "unknown";

/** Tells the two formats apart by their top-level keys (no validation). */
export function scenarioKindOf(raw: unknown): ScenarioKind {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return "unknown";
  const o = raw as Record<string, unknown>;
  if ("durationHours" in o || "nodeVms" in o || "workloads" in o) return "simulation";
  if (Array.isArray(o.hosts) || "vms" in o || "credentials" in o || "counterKeyOffset" in o) return "inventory";
  return "unknown";
}

export const SIMULATION_SCENARIO_HINT =
  "a simulation scenario (examples/scenarios/, format docs/simulation.md), for `hvx simulate --scenario`";
export const INVENTORY_SCENARIO_HINT =
  "an inventory scenario (mocks/vcenter/scenarios/, format mocks/vcenter/README.md), for `hvx mock-vcenter --scenario`";

/**
 * Undefined when the file at `path` may be a simulation scenario; else the message saying it
 * is the mock vCenter's inventory scenario. Unreadable or invalid YAML: undefined (the
 * simulator's own loader says what is wrong).
 */
export function wrongScenarioForSimulate(path: string): string | undefined {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  if (scenarioKindOf(raw) !== "inventory") return undefined;
  return `${path} is ${INVENTORY_SCENARIO_HINT}; hvx simulate expects ${SIMULATION_SCENARIO_HINT}`;
}
