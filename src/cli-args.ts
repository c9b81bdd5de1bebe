/** A command line that cannot be run; the message says what to type instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface ParsedArgs {
  readonly command: string;
  readonly flags: ReadonlyMap<string, string | true>;
}

/**
 * Parses `hvx <command> [--flag value | --flag=value | --switch]...` against the flags a
 * command accepts (`name` takes a value, `name?` is a switch).
 */
export function parseArgs(argv: readonly string[], accepted: Readonly<Record<string, readonly string[]>>): ParsedArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") return { command: "help", flags: new Map() };
  const allowed = accepted[command];
  if (!allowed) throw new UsageError(`unknown command '${command}'`);
  const takesValue = new Set(allowed.filter((f) => !f.endsWith("?")));
  const switches = new Set(allowed.filter((f) => f.endsWith("?")).map((f) => f.slice(0, -1)));
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--help" || arg === "-h") return { command: "help", flags: new Map() };
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument '${arg}' for '${command}'`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (switches.has(name)) {
      flags.set(name, true);
    } else if (takesValue.has(name)) {
      const value = inline ?? rest[++i];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else {
      throw new UsageError(`unknown option --${name} for '${command}'`);
    }
  }
  return { command, flags };
}

/** An integer flag within [min, max], or the fallback when absent. */
export function intFlag(flags: ReadonlyMap<string, string | true>, name: string, fallback: number, min = 0, max = 65535): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw === true || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}
