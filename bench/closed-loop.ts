import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";

export interface RoundResult {
  /** filter+prioritize pairs completed. */
  readonly pairs: number;
  /** Every request's round trip, ms, sorted. */
  readonly roundTripsMs: readonly number[];
  readonly elapsedMs: number;
  /** User + system CPU of the server process over the round, ms. */
  readonly serverCpuMs: number;
}

export interface RoundOptions {
  readonly port: number;
  readonly pid: number;
  readonly filterBody: Buffer;
  readonly prioritizeBody: Buffer;
  readonly durationMs: number;
  /** Load before the clock starts, ms: both processes' JIT and young generations settle in it. */
  readonly warmMs: number;
  readonly connections: number;
}

/** User + system CPU time of a process so far, ms, from `/proc/<pid>/stat` (fields 14 and 15, in clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function post(agent: Agent, port: number, path: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": body.length },
      },
      (res) => {
        res.on("data", () => undefined);
        res.on("end", () =>
          res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`POST ${path}: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A closed-loop load generator: `connections` keep-alive connections, each sending a filter
 * then a prioritize request and the next pair as soon as the answer is in, for `warmMs`
 * unmeasured and then `durationMs` measured.
 */
export async function closedLoopRound(opts: RoundOptions): Promise<RoundResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const loop = async (until: number, roundTrips?: number[]): Promise<number> => {
    let pairs = 0;
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (performance.now() < until) {
          const f = await post(agent, opts.port, "/filter", opts.filterBody);
          const p = await post(agent, opts.port, "/prioritize", opts.prioritizeBody);
          roundTrips?.push(f, p);
          pairs++;
        }
      }),
    );
    return pairs;
  };
  await loop(performance.now() + opts.warmMs);
  const roundTrips: number[] = [];
  const cpu0 = processCpuMs(opts.pid);
  const t0 = performance.now();
  const pairs = await loop(t0 + opts.durationMs, roundTrips);
  const elapsedMs = performance.now() - t0;
  const serverCpuMs = processCpuMs(opts.pid) - cpu0;
  agent.destroy();
  return { pairs, roundTripsMs: roundTrips.sort((a, b) => a - b), elapsedMs, serverCpuMs };
}
