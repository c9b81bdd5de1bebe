import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { compareTraceNames, parseGwaTrace, sampleTrace, TraceError } from "./gwa-trace.js";
import { isTracedCpu, type Scenario, type TraceSpec } from "./scenario.js";
import { ScenarioError } from "./scenario-error.js";

/** One trace file sampled at every step of the run. */
export interface TraceSeries {
  readonly file: string;
  /** CPU usage, percent 0..100. */
  readonly cpuPercent: Float32Array;
  /** Memory touched, share of capacity 0..1. */
  readonly memShare: Float32Array;
}

/** The trace files a scenario uses, per trace spec, sampled for the run. */
export interface ScenarioTraces {
  /** Per noisy VM group (index in `noisyVms`): its files in numeric-then-lexical order, or undefined. */
  readonly noisyGroups: ReadonlyArray<readonly TraceSeries[] | undefined>;
  /** Per workload: its files, or undefined. */
  readonly workloads: ReadonlyArray<readonly TraceSeries[] | undefined>;
  /** Rows skipped (unparsable or zero capacity), each file counted once. */
  readonly skippedRows: number;
}

export const NO_TRACES: ScenarioTraces = { noisyGroups: [], workloads: [], skippedRows: 0 };

/**
 * Reads the trace directories the scenario names (relative to `baseDir`, the scenario
 * file's directory). Throws ScenarioError naming the directory or file at fault.
 */
export function loadTraces(s: Scenario, baseDir: string): ScenarioTraces {
  const steps = Math.round((s.durationHours * 3600) / s.stepSeconds);
  const cache = new Map<string, { series: TraceSeries[]; skipped: number }>();
  let skippedRows = 0;
  const counted = new Set<string>();
  const load = (spec: TraceSpec, where: string): TraceSeries[] => {
    const dir = resolve(baseDir, spec.dir);
    const key = `${dir}\0${spec.startHour}`;
    let entry = cache.get(key);
    if (entry === undefined) {
      let names: string[];
      try {
        names = readdirSync(dir)
          .filter((f) => f.toLowerCase().endsWith(".csv"))
          .sort(compareTraceNames);
      } catch (err) {
        throw new ScenarioError([`${where}.trace.dir: cannot read ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`], {
          cause: err,
        });
      }
      if (names.length === 0) throw new ScenarioError([`${where}.trace.dir: no .csv file in ${dir}`]);
      let skipped = 0;
      const series = names.map((name) => {
        const file = join(dir, name);
        try {
          const trace = parseGwaTrace(readFileSync(file, "utf8"), file);
          if (!counted.has(file)) {
            counted.add(file);
            skipped += trace.skippedRows;
          }
          return { file, ...sampleTrace(trace, spec.startHour, steps, s.stepSeconds) };
        } catch (err) {
          throw new ScenarioError(
            [
              `${where}.trace: ${err instanceof TraceError ? err.message : `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`}`,
            ],
            { cause: err },
          );
        }
      });
      entry = { series, skipped };
      cache.set(key, entry);
      skippedRows += skipped;
    }
    return entry.series;
  };
  const noisyGroups = s.noisyVms.map((g, i) => (g.trace ? load(g.trace, `noisyVms.${i}`) : undefined));
  const workloads = s.workloads.map((w, i) => (isTracedCpu(w.cpu) ? load(w.cpu.trace, `workloads.${i}.cpu`) : undefined));
  return { noisyGroups, workloads, skippedRows };
}

/** Whether the scenario reads any trace file. */
export function usesTraces(s: Scenario): boolean {
  return s.noisyVms.some((g) => g.trace !== undefined) || s.workloads.some((w) => isTracedCpu(w.cpu));
}
