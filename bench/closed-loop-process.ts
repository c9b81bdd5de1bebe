import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { endsWithThisProcess } from "./child-processes.js";
import { closedLoopRound, type RoundOptions, type RoundResult } from "./closed-loop.js";

/**
 * Runs one closed-loop round in a process of its own, so that nothing else the benchmark's
 * process serves (the mock vCenters hvx polls, the fake API server's 50 000 pods) pauses the
 * generator and lands in a round trip. Both sides of a comparison get the same generator.
 * The request body goes through a file; the result comes back as one JSON line.
 */
export function closedLoopRoundInProcess(
  opts: Omit<RoundOptions, "filterBody" | "prioritizeBody"> & { bodyFile: string },
): Promise<RoundResult> {
  return new Promise((resolve, reject) => {
    const child = endsWithThisProcess(
      spawn(process.execPath, [fileURLToPath(import.meta.url), JSON.stringify(opts)], { stdio: ["ignore", "pipe", "inherit"] }),
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as RoundResult) : reject(new Error(`load generator exited with ${code}`)),
    );
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const opts = JSON.parse(process.argv[2]!) as Omit<RoundOptions, "filterBody" | "prioritizeBody"> & { bodyFile: string };
  const body = readFileSync(opts.bodyFile);
  const result = await closedLoopRound({ ...opts, filterBody: body, prioritizeBody: body });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
