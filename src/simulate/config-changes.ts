import { redactConfig, type Config } from "../config/index.js";

export interface ConfigChange {
  /** Dotted key, e.g. `thresholds.cpuReadyPercent`. */
  readonly key: string;
  readonly value: string;
  readonly defaultValue: string;
}

/**
 * The keys whose values differ between a loaded configuration and the defaults, sorted by
 * key. Secrets are redacted first, so a password never reaches the report.
 */
export function configChanges(config: Readonly<Config>, defaults: Readonly<Config>): ConfigChange[] {
  const a = flatten(redactConfig(config));
  const b = flatten(redactConfig(defaults));
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys
    .filter((k) => a.get(k) !== b.get(k))
    .map((key) => ({ key, value: a.get(key) ?? "(unset)", defaultValue: b.get(key) ?? "(unset)" }));
}

function flatten(value: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix === "" ? k : `${prefix}.${k}`, out);
  } else if (value !== undefined) {
    out.set(prefix, JSON.stringify(value));
  }
  return out;
}
