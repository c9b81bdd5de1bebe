export { buildWorld, type World } from "./build-world.js";
export { balancedAllocationScore, leastAllocatedScore, leastRequestedScore } from "./default-scores.js";
export type { RunResult, StrategyFigures } from "./figures.js";
export { loadScenario, parseScenario } from "./load-scenario.js";
export { parseSimulateArgs, type SimulateOptions } from "./parse-simulate-args.js";
export { headlineTable } from "./render-report.js";
export {
  drsSettingsFor,
  productionPolicy,
  renderFiles,
  runSimulation,
  simulateAll,
  simulateRuns,
  summaryOf,
  type RunKey,
  type SimulationSummary,
  type StrategyRuns,
  type SummaryFigures,
} from "./run-simulation.js";
export type { Scenario } from "./scenario.js";
export { ScenarioError } from "./scenario-error.js";
export { simulateStrategy } from "./simulate-strategy.js";
export { STRATEGY_NAMES, type StrategyName } from "./strategy.js";
export { targetLoadPackingScore } from "./target-load-packing.js";
export { SIMULATION_FILES, writtenFilesMessage } from "./written-files-message.js";
