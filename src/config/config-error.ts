/** The configuration is unusable; `issues` lists every problem as `key.path: message`. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly issues: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`invalid configuration:\n  - ${issues.join("\n  - ")}`, options);
  }
}
