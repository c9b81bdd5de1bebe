import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { endsWithThisProcess } from "./child-processes.js";

/**
 * Runs a benchmark module again as a child Node.js process (`--expose-gc`), so that what it
 * measures (resident memory above all) is its own and not the mock servers' in this process.
 * The child is started as `node --expose-gc <module> <flag> <arg>` and must print its result
 * as one JSON line last.
 */
export function runBenchChild<T>(moduleUrl: string, flag: string, arg: string): Promise<T> {
  const file = fileURLToPath(moduleUrl);
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ["--expose-gc", file, flag, arg],
      { maxBuffer: 1 << 20, timeout: 300_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`bench child ${flag} failed: ${err.message} ${stderr.slice(0, 500)}`));
        try {
          resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as T);
        } catch {
          reject(new Error(`bench child ${flag} printed no result: ${stdout.slice(0, 200)} ${stderr.slice(0, 500)}`));
        }
      },
    );
    endsWithThisProcess(child);
  });
}

/** In the child: runs `main(arg)` when this process was started for `flag`; exits 1 on failure. */
export function whenBenchChild(flag: string, main: (arg: string) => Promise<void>): void {
  const arg = process.argv[3];
  if (process.argv[2] !== flag || !arg) return;
  main(arg).catch((err: unknown) => {
    process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  });
}
