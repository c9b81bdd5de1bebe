/**
 * Prometheus text exposition, written as prom-client writes it (registry.js): a label value
 * escapes backslash, newline and double quote; HELP text backslash and newline. For the families
 * hvx renders itself (`TextFamilyRegistry`), so that their series read exactly as prom-client's.
 */

const NEEDS_ESCAPE = /[\\\n"]/;

export function escapeLabelValue(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

/** `{a="1",b="2"}` for the label names and values in order (no braces without labels). */
export function labelsText(labels: ReadonlyArray<readonly [string, string]>): string {
  if (labels.length === 0) return "";
  return `{${labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
}

/** One sample line with its newline: `name{labels} value`. */
export function sampleLine(name: string, labels: ReadonlyArray<readonly [string, string]>, value: number): string {
  return `${name}${labelsText(labels)} ${valueText(value)}\n`;
}

/** As prom-client's `getValueAsString`: `Nan` (sic), `+Inf`, `-Inf`, else the number. */
export function valueText(value: number): string {
  if (Number.isNaN(value)) return "Nan";
  if (!Number.isFinite(value)) return value < 0 ? "-Inf" : "+Inf";
  return `${value}`;
}

/** `# HELP` and `# TYPE` lines of a gauge family, each with its newline. */
export function gaugeHeader(name: string, help: string): string {
  return `# HELP ${name} ${help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}\n# TYPE ${name} gauge\n`;
}
