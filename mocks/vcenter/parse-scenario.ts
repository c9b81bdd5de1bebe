import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { ScenarioSchema, type Scenario } from "./scenario-schema.js";
import { ScenarioError } from "./scenario-error.js";

/** Validates an already-parsed object; issues read `hosts.2.cpuCores: Expected number, received string`. */
export function validateScenario(raw: unknown, source?: string): Scenario {
  if (looksLikeSimulationScenario(raw)) {
    throw new ScenarioError(
      [
        "this is a simulation scenario (examples/scenarios/, format docs/simulation.md), for `hvx simulate --scenario`; the mock vCenter expects an inventory scenario (mocks/vcenter/scenarios/, format mocks/vcenter/README.md)",
      ],
      source === undefined ? {} : { source },
    );
  }
  const r = ScenarioSchema.safeParse(raw ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "(root)"}: ${i.message}`);
  throw new ScenarioError(issues, source === undefined ? {} : { source });
}

/** Parses scenario YAML (JSON is YAML too). Throws ScenarioError naming each bad path. */
export function parseScenario(text: string, source?: string): Scenario {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ScenarioError([`YAML: ${err instanceof Error ? err.message : String(err)}`], { cause: err, ...(source ? { source } : {}) });
  }
  return validateScenario(raw, source);
}

/** Reads and parses a scenario file. */
export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ScenarioError([`cannot read file: ${err instanceof Error ? err.message : String(err)}`], { cause: err, source: path });
  }
  return parseScenario(text, path);
}

/** The simulator's scenario format (`durationHours`, `nodeVms`, `workloads`), which is easy to pass here by mistake. */
function looksLikeSimulationScenario(raw: unknown): boolean {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return false;
  return "durationHours" in raw || "nodeVms" in raw || "workloads" in raw;
}
