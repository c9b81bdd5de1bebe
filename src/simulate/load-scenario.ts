import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { scenarioSchema, type Scenario } from "./scenario.js";
import { ScenarioError } from "./scenario-error.js";

/** Parses and validates scenario text (YAML or JSON). Throws ScenarioError naming each key. */
export function parseScenario(text: string): Scenario {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ScenarioError([`not valid YAML: ${(err as Error).message.split("\n")[0]}`], { cause: err });
  }
  const result = scenarioSchema.safeParse(raw);
  if (!result.success) {
    throw new ScenarioError(result.error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "(top level)"}: ${i.message}`));
  }
  return result.data;
}

/** Reads and validates the scenario file at `path`. */
export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ScenarioError([`cannot read scenario file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`], { cause: err });
  }
  return parseScenario(text);
}
