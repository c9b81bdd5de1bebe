import { PHYSICS_NAMES, type PhysicsName } from "./physics.js";
import { ScenarioError } from "./scenario-error.js";

/** `--drs`: every strategy with DRS off, on (the scenario's settings, enabled), or both. */
export type DrsMode = "off" | "on" | "both";
/** `--physics`: one CPU model, or both (the detailed tables use the first, `overflow`). */
export type PhysicsMode = PhysicsName | "both";

/** `--seeds` on the command line when absent: ten seeds, `--seed` and the nine after it. */
export const DEFAULT_SEEDS = 10;
const MAX_SEEDS = 100;

export interface SimulateOptions {
  readonly scenarioPath: string;
  readonly seed: number;
  readonly outDir: string;
  /** An `hvx serve` config file whose placement settings the hvx strategy uses (default: production defaults). */
  readonly configPath?: string;
  /** Default both. */
  readonly drs?: DrsMode;
  /** How many seeds from `seed` on the across-seeds table runs (default here 1; the CLI's default is DEFAULT_SEEDS). */
  readonly seeds?: number;
  /** Default `overflow` here; the CLI's default is both. */
  readonly physics?: PhysicsMode;
}

export const SIMULATE_USAGE =
  "hvx simulate --scenario FILE [--seed N (default 1)] [--seeds K (default 10)] [--physics overflow|queueing|both (default both)] [--out DIR (default simulation-out)] [--config FILE (default: hvx's defaults)] [--drs off|on|both (default both)]";

/**
 * Parses `hvx simulate --scenario FILE [--seed N] [--seeds K] [--physics overflow|queueing|both] [--out DIR] [--config FILE]
 * [--drs off|on|both]` (a leading `simulate` is skipped; `--flag=value` works too). Seed defaults to 1, seeds to 10,
 * physics to both, out to `simulation-out`.
 */
export function parseSimulateArgs(argv: readonly string[]): SimulateOptions {
  const args = argv[0] === "simulate" ? argv.slice(1) : [...argv];
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--(scenario|seeds|seed|out|config|drs|physics)(?:=(.*))?$/.exec(arg);
    if (!m) throw new ScenarioError([`unknown argument '${arg}' (usage: ${SIMULATE_USAGE})`]);
    const value = m[2] ?? args[++i];
    if (value === undefined || value === "") throw new ScenarioError([`--${m[1]} needs a value`]);
    values.set(m[1]!, value);
  }
  const scenarioPath = values.get("scenario");
  if (scenarioPath === undefined) throw new ScenarioError(["--scenario FILE is required"]);
  const seedText = values.get("seed") ?? "1";
  if (!/^\d+$/.test(seedText) || Number(seedText) > 0xffffffff)
    throw new ScenarioError([`--seed must be an integer 0..4294967295, got '${seedText}'`]);
  const configPath = values.get("config");
  const drs = values.get("drs") ?? "both";
  if (drs !== "off" && drs !== "on" && drs !== "both") throw new ScenarioError([`--drs must be off, on or both, got '${drs}'`]);
  const seedsText = values.get("seeds") ?? String(DEFAULT_SEEDS);
  if (!/^\d+$/.test(seedsText) || Number(seedsText) < 1 || Number(seedsText) > MAX_SEEDS)
    throw new ScenarioError([`--seeds must be an integer 1..${MAX_SEEDS}, got '${seedsText}'`]);
  const physics = values.get("physics") ?? "both";
  if (physics !== "both" && !(PHYSICS_NAMES as readonly string[]).includes(physics))
    throw new ScenarioError([`--physics must be ${PHYSICS_NAMES.join(", ")} or both, got '${physics}'`]);
  return {
    scenarioPath,
    seed: Number(seedText),
    outDir: values.get("out") ?? "simulation-out",
    ...(configPath !== undefined ? { configPath } : {}),
    drs,
    seeds: Number(seedsText),
    physics: physics as PhysicsMode,
  };
}
