import type { MemStateName, MemStateSeries, NumberSeries } from "./scenario-schema.js";

/**
 * Value of a scenario series at `atSeconds` after the mock's start. Steps hold until the
 * next step (before the first one: the first value); ramps interpolate linearly between
 * points and hold flat outside them.
 */
export function seriesValue(series: NumberSeries, atSeconds: number): number {
  if (typeof series === "number") return series;
  if (Array.isArray(series)) return stepValue(series, atSeconds);
  const pts = series.ramp;
  const first = pts[0];
  if (first === undefined || atSeconds <= first.atSeconds) return first?.value ?? 0;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1]!;
    const b = pts[i]!;
    if (atSeconds <= b.atSeconds) return a.value + ((b.value - a.value) * (atSeconds - a.atSeconds)) / (b.atSeconds - a.atSeconds);
  }
  return pts[pts.length - 1]!.value;
}

/** Memory state at `atSeconds` (step semantics). */
export function memStateValue(series: MemStateSeries, atSeconds: number): MemStateName {
  return typeof series === "string" ? series : stepValue(series, atSeconds);
}

function stepValue<T>(steps: ReadonlyArray<{ atSeconds: number; value: T }>, atSeconds: number): T {
  let current = steps[0]!.value;
  for (const s of steps) {
    if (s.atSeconds > atSeconds) break;
    current = s.value;
  }
  return current;
}
