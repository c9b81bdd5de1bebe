export { startMockVcenter, type MockVcenterHandle, type MockVcenterOptions } from "./start-mock-vcenter.js";
export type { MockVcenterControls } from "./mock-controls.js";
export type { MockVcenterStats } from "./mock-state.js";
export { parseScenario, loadScenario, validateScenario } from "./parse-scenario.js";
export { generateScenario } from "./generate-scenario.js";
export { demoScenarioPath, scenarioPath } from "./demo-scenario-path.js";
export { ScenarioError } from "./scenario-error.js";
export { MAX_QUERY_METRICS } from "./vi-perf-query.js";
export { MAX_VMS, MAX_HOSTS, MAX_CLUSTERS } from "./automation-inventory-routes.js";
export { COUNTERS, counterFullName } from "./counter-catalogue.js";
export {
  MEM_STATES,
  type Scenario,
  type ScenarioInput,
  type NumberSeries,
  type MemStateSeries,
  type FaultsSpec,
} from "./scenario-schema.js";
