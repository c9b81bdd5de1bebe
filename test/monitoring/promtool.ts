import { execFileSync, spawnSync } from "node:child_process";

/** Path of `promtool` on the PATH (Debian's `prometheus` package; scripts/install-prometheus.sh), or undefined. */
export function findPromtool(): string | undefined {
  try {
    const path = execFileSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" }).trim();
    return path === "" ? undefined : path;
  } catch {
    return undefined;
  }
}

export const PROMTOOL_MISSING =
  "promtool is not installed (Debian package `prometheus`: scripts/install-prometheus.sh); skipping the promtool checks";

/**
 * In a mocha test or hook: skips it with the reason printed when promtool is absent, or fails
 * under HVX_PROMTOOL_REQUIRED=1 (CI, which installs it). Returns promtool's path.
 */
export function requirePromtool(ctx: Mocha.Context): string {
  const promtool = findPromtool();
  if (promtool) return promtool;
  if (process.env.HVX_PROMTOOL_REQUIRED === "1") throw new Error(`${PROMTOOL_MISSING} (but HVX_PROMTOOL_REQUIRED=1)`);
  console.log(`      ${PROMTOOL_MISSING}`);
  return ctx.skip();
}

/** Runs promtool in `cwd` (with `input` on its stdin); returns its exit code and combined output. */
export function runPromtool(
  promtool: string,
  args: readonly string[],
  cwd: string,
  input?: string,
): { status: number | null; output: string } {
  const r = spawnSync(promtool, args, { cwd, encoding: "utf8", timeout: 15_000, ...(input === undefined ? {} : { input }) });
  return { status: r.status, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}
