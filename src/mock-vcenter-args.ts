import { UsageError } from "./cli-args.js";

/**
 * Every `--scenario FILE` (or `--scenario=FILE`) of `hvx mock-vcenter`, in order: one mock
 * vCenter per file (issue 11 §2, several vCenters). Empty: the caller uses the demo scenario.
 */
export function scenarioPathsOf(argv: readonly string[]): string[] {
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("--scenario=")) paths.push(arg.slice("--scenario=".length));
    else if (arg === "--scenario" && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) paths.push(argv[++i]!);
  }
  return paths;
}

/** Ports of `count` mocks from `first`: N, N+1, ...; 0 stays 0 (a free port for each). */
export function mockPorts(first: number, count: number): number[] {
  if (first !== 0 && first + count - 1 > 65535)
    throw new UsageError(`--port ${first} leaves no room for ${count} mock vCenters (ports ${first}..${first + count - 1})`);
  return Array.from({ length: count }, (_, i) => (first === 0 ? 0 : first + i));
}
