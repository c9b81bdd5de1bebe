/** A scenario file that is not valid YAML or does not match the schema; `issues` name the path. */
export class ScenarioError extends Error {
  override name = "ScenarioError";
  constructor(
    readonly issues: readonly string[],
    options?: { cause?: unknown; source?: string },
  ) {
    super(`invalid mock vCenter inventory scenario${options?.source ? ` ${options.source}` : ""}:\n  ${issues.join("\n  ")}`, options);
  }
}
