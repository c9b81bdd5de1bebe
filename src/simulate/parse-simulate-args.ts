import { ScenarioError } from "./scenario-error.js";

/** `--drs`: every strategy with DRS off, on (the scenario's settings, enabled), or both. */
export type DrsMode = "off" | "on" | "both";

export interface SimulateOptions {
  readonly scenarioPath: string;
  readonly seed: number;
  readonly outDir: string;
  /** An `hvx serve` config file whose placement settings the hvx strategy uses (default: production defaults). */
  readonly configPath?: string;
  /** Default both. */
  readonly drs?: DrsMode;
}

/**
 * Parses `hvx simulate --scenario FILE [--seed N] [--out DIR] [--config FILE] [--drs off|on|both]` (a leading `simulate` is
 * skipped; `--flag=value` works too). Seed defaults to 1, out to `simulation-out`.
 */
export function parseSimulateArgs(argv: readonly string[]): SimulateOptions {
  const args = argv[0] === "simulate" ? argv.slice(1) : [...argv];
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--(scenario|seed|out|config|drs)(?:=(.*))?$/.exec(arg);
    if (!m)
      throw new ScenarioError([
        `unknown argument '${arg}' (usage: hvx simulate --scenario FILE [--seed N (default 1)] [--out DIR (default simulation-out)] [--config FILE (default: hvx's defaults)] [--drs off|on|both (default both)])`,
      ]);
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
  return {
    scenarioPath,
    seed: Number(seedText),
    outDir: values.get("out") ?? "simulation-out",
    ...(configPath !== undefined ? { configPath } : {}),
    drs,
  };
}
