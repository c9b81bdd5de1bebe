import type { EffectiveRatios, RatioDecision, RatioLimit } from "./effective-ratios.js";
import type { RatioSource } from "./namespace-ratios.js";

/** `2` -> "2", `1.6` -> "1.6", `1.2346` -> "1.235". For ratios shown to users. */
export function formatRatio(ratio: number): string {
  return String(Number(ratio.toFixed(3)));
}

/**
 * Caps and fleet ratios as the design's examples write them (`4.0`, `2.5`), with up to three
 * decimals when they have them (`0.604`): the same rounding as `formatRatio`, so that the
 * arithmetic a warning shows adds up (`4.0 / 0.604 = 6.623`, not `4.0 / 0.6 = 6.621`).
 */
function oneDecimal(value: number): string {
  const text = formatRatio(value);
  return text.includes(".") ? text : value.toFixed(1);
}

/** `4.0 / vCPU:pCPU 0.604 = 6.623`: the quotient of the numbers as shown, so the line checks out by hand. */
function shownQuotient(maxStacked: number, ratioName: string, fleetRatio: number): string {
  const a = oneDecimal(maxStacked);
  const b = oneDecimal(fleetRatio);
  return `${a} / ${ratioName} ${b} = ${formatRatio(Number(a) / Number(b))}`;
}

const FLEET_RATIO_NAME = { cpu: "vCPU:pCPU", memory: "vRAM:pRAM" } as const;
const SOURCE_WORDS: Readonly<Record<RatioSource, string>> = {
  default: "configured",
  namespace_config: "namespace config",
  namespace_label: "namespace label",
};

function limitWords(d: RatioDecision, limit: RatioLimit = d.limit): string {
  switch (limit.code) {
    case "no_host_data":
      return "no vCenter host data since hvx started, so no oversell";
    case "cap_not_binding":
      return `stacked cap not binding${lastKnownWords(limit)}`;
    case "stacked_cap":
      return `stacked cap ${oneDecimal(limit.maxStacked)} / ${FLEET_RATIO_NAME[d.resource]} ${oneDecimal(limit.fleetRatio)}${lastKnownWords(limit)}`;
    case "hot_brake":
      return `hot-host brake: ${Math.round(limit.hotPercent)}% of hosts hot > ${limit.brakePercent}%${lastKnownWords(limit)}`;
  }
}

/** Said when the cap or the brake comes from the last known host data (current data missing or stale). */
function lastKnownWords(limit: { readonly lastKnown?: true }): string {
  return limit.lastKnown ? ", last known host data" : "";
}

/**
 * The user-facing warning for one resource, e.g.
 * `hvx: cpu requests scaled by 1/1.6 (stacked cap 4.0 / vCPU:pCPU 2.5)` or
 * `hvx: cpu requests scaled by 1/2 (configured ratio; stacked cap 4.0 / vCPU:pCPU 1.6 = 2.5 not binding)`.
 * `changed`: whether any request of this resource was actually lowered.
 * Undefined when there is nothing worth saying (ratio 1 as configured, or nothing changed).
 */
export function ratioWarning(d: RatioDecision, changed: boolean): string | undefined {
  const limit = d.limit;
  if (d.ratio <= 1) {
    if (d.configured <= 1) return undefined;
    return `hvx: ${d.resource} requests not scaled (${limitWords(d)})`;
  }
  if (!changed) return undefined;
  const head = `hvx: ${d.resource} requests scaled by 1/${formatRatio(d.ratio)}`;
  const source = `${SOURCE_WORDS[d.source]} ratio`;
  switch (limit.code) {
    case "stacked_cap":
      return `${head} (${limitWords(d)})`;
    case "cap_not_binding":
      return `${head} (${source}; stacked cap ${shownQuotient(limit.maxStacked, FLEET_RATIO_NAME[d.resource], limit.fleetRatio)} not binding${lastKnownWords(limit)})`;
    default:
      return `${head} (${source}; ${limitWords(d)})`;
  }
}

/**
 * Value of the `hvx.io/oversell` annotation: the applied ratios and why, e.g.
 * `cpu=2,memory=1 (configured; stacked cap not binding)` or
 * `cpu=1.6,memory=1 (configured; cpu stacked cap 4.0 / vCPU:pCPU 2.5, memory stacked cap not binding)`.
 */
export function oversellAnnotationValue(r: EffectiveRatios): string {
  const sources = pairWords(SOURCE_WORDS[r.cpu.source], SOURCE_WORDS[r.memory.source]);
  const limits = pairWords(limitWords(r.cpu), limitWords(r.memory));
  return `cpu=${formatRatio(r.cpu.ratio)},memory=${formatRatio(r.memory.ratio)} (${sources}; ${limits})`;
}

function pairWords(cpu: string, memory: string): string {
  return cpu === memory ? cpu : `cpu ${cpu}, memory ${memory}`;
}
