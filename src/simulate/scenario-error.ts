/** A scenario file that cannot be read or does not validate; lists every problem. */
export class ScenarioError extends Error {
  override name = "ScenarioError";
  constructor(
    readonly problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`invalid scenario: ${problems.join("; ")}`, options);
  }
}
