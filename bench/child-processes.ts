import type { ChildProcess } from "node:child_process";
import { constants } from "node:os";

const children = new Set<ChildProcess>();
let handlersInstalled = false;

/**
 * Ends `child` (hvx serve, the floor, a load generator, a benchmark module run as a child) when
 * this process ends, by its own exit or by SIGINT, SIGTERM or SIGHUP: a benchmark stopped by a
 * signal sent to it alone (`kill`, a CI job's timeout, Ctrl-C in a runner that does not signal the
 * whole group) otherwise leaves its children serving on their ports, and the next run measures
 * beside them. A child of a process killed with SIGKILL is left; nothing in that process runs.
 */
export function endsWithThisProcess<C extends ChildProcess>(child: C): C {
  children.add(child);
  child.once("exit", () => children.delete(child));
  if (!handlersInstalled) installHandlers();
  return child;
}

function installHandlers(): void {
  handlersInstalled = true;
  process.once("exit", () => {
    for (const child of children) child.kill("SIGTERM");
  });
  // The shell's convention for a death by signal: 128 + its number. process.exit runs the "exit" handler above.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => process.exit(128 + constants.signals[signal]));
}
