import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { FreshPods } from "./fresh-pods.js";

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
  /** Every pair a new pod cut from `filterBody` (fresh-pods.ts), pods `firstPod`, `firstPod + 1`, ...; else the same bytes every time. */
  readonly fresh?: FreshOptions;
}

export interface FreshOptions {
  readonly firstPod: number;
  /**
   * The API server hvx watches: each pod is created there (pending) before its filter and
   * bound to the best-scored node after its prioritize, as its ReplicaSet and kube-scheduler do.
   */
  readonly kube?: { readonly url: string; readonly token: string };
  /** kube-scheduler's window of candidate nodes, moving on with every pod (`candidateWindow`); else the body's `NodeNames`. */
  readonly candidates?: CandidateWindow;
  /**
   * With `kube`: pods the round keeps bound at once. Each binding past it deletes the round's
   * oldest pod, as pods end in a cluster in its steady state, and the round deletes the rest
   * after its measured time; else every pod stays, and the cluster fills round after round.
   */
  readonly keepBound?: number;
}

/** The nodes `${prefix}${(i x stride) mod nodes}`, i = 0..nodes-1, in that order, as kube-scheduler lists them. */
export interface CandidateWindow {
  readonly prefix: string;
  readonly nodes: number;
  /** Coprime with `nodes`, so that the order visits every node. */
  readonly stride: number;
  /** Candidates per pod (kube-scheduler's numFeasibleNodesToFind: 10 % of 5000 nodes is 500). */
  readonly size: number;
}

/**
 * The candidates kube-scheduler sends for its `pod`-th pod: it searches its node list from where
 * the last search stopped (nextStartNodeIndex), so pod k gets the `size` nodes from k x size on,
 * and a full cluster is not the same 500 nodes every time.
 */
export function candidateWindow(w: CandidateWindow, pod: number): string[] {
  const start = (pod * w.size) % w.nodes;
  return Array.from({ length: Math.min(w.size, w.nodes) }, (_, i) => `${w.prefix}${(((start + i) % w.nodes) * w.stride) % w.nodes}`);
}

/** User + system CPU time of a process so far, ms, from `/proc/<pid>/stat` (fields 14 and 15, in clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Target {
  readonly agent: Agent;
  readonly port: number;
  readonly headers?: Record<string, string>;
}

/** POSTs `body` (or sends it with `method`); resolves with the round trip (ms) and, with `keep`, the answer's text. */
function post(
  to: Target,
  path: string,
  body: Buffer | string,
  ok = 200,
  keep = false,
  method = "POST",
): Promise<{ ms: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const req = request(
      {
        host: "127.0.0.1",
        port: to.port,
        path,
        method,
        agent: to.agent,
        headers: { ...to.headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.on("data", (c: Buffer) => keep && chunks.push(c));
        res.on("end", () =>
          res.statusCode === ok
            ? resolve({ ms: performance.now() - started, text: keep ? Buffer.concat(chunks).toString("utf8") : "" })
            : reject(new Error(`${method} ${path}: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * The node kube-scheduler would pick from a prioritize answer: the highest score, one of equals
 * at random, each as likely (its `selectHost` samples the tied nodes). Picking the first of
 * equals piled every pod onto the same few nodes once their scores levelled.
 */
export function bestHost(
  scores: ReadonlyArray<{ readonly Host: string; readonly Score: number }>,
  random: () => number = Math.random,
): string | undefined {
  let best: { Host: string; Score: number } | undefined;
  let ties = 0;
  for (const s of scores) {
    if (!best || s.Score > best.Score) {
      best = s;
      ties = 1;
    } else if (s.Score === best.Score && random() * ++ties < 1) best = s;
  }
  return best?.Host;
}

/**
 * The prioritize ExtenderArgs kube-scheduler sends after a filter answer: the filter's arguments
 * with only the nodes that passed (`NodeNames` in cache mode, `Nodes.items` otherwise).
 */
export function passedOnly(filterArgs: string, filterReply: string): string {
  const args = JSON.parse(filterArgs) as { NodeNames?: string[] | null; Nodes?: { items: Array<{ metadata: { name: string } }> } | null };
  const reply = JSON.parse(filterReply) as { NodeNames?: string[] | null; Nodes?: { items: unknown[] } | null };
  if (args.NodeNames) return JSON.stringify({ ...args, NodeNames: reply.NodeNames ?? [] });
  return JSON.stringify({ ...args, Nodes: { ...args.Nodes, items: reply.Nodes?.items ?? [] } });
}

function withNodeNames(args: string, names: readonly string[]): string {
  return JSON.stringify({ ...(JSON.parse(args) as object), NodeNames: names });
}

/** One filter+prioritize pair as its sender makes it: the bodies, and what happens before and after. */
interface PairSource {
  next(): {
    filter: Buffer | string;
    /** The prioritize body, or how to make it from the filter's answer (kube-scheduler sends only the nodes that passed). */
    prioritize: Buffer | string | ((filtered: string) => string);
    before?: () => Promise<unknown>;
    after?: (prioritized: string) => Promise<unknown>;
  };
  /** Whether the prioritize answer is needed (a binding follows). */
  readonly keepScores: boolean;
  close(): Promise<void>;
}

function pairSource(opts: RoundOptions): PairSource {
  if (!opts.fresh)
    return { next: () => ({ filter: opts.filterBody, prioritize: opts.prioritizeBody }), keepScores: false, close: async () => {} };
  const pods = new FreshPods(opts.filterBody.toString("utf8"));
  const kube = opts.fresh.kube;
  const api = kube && {
    agent: new Agent({ keepAlive: true, maxSockets: opts.connections }),
    port: Number(new URL(kube.url).port),
    headers: { authorization: `Bearer ${kube.token}` },
  };
  let index = opts.fresh.firstPod;
  const keepBound = opts.fresh.keepBound ?? Number.POSITIVE_INFINITY;
  const bound: string[] = [];
  const remove = (path: string) => post(api!, path, "", 200, false, "DELETE");
  return {
    keepScores: api !== undefined,
    close: async () => {
      await Promise.all(bound.splice(0).map(remove));
      api?.agent.destroy();
    },
    next: () => {
      const window = opts.fresh?.candidates;
      const at = pods.at(index);
      const pod = window ? { ...at, argsJson: withNodeNames(at.argsJson, candidateWindow(window, index)) } : at;
      index++;
      const prioritize = (filtered: string) => passedOnly(pod.argsJson, filtered);
      if (!api) return { filter: pod.argsJson, prioritize };
      const podsPath = `/api/v1/namespaces/${pod.namespace}/pods`;
      return {
        filter: pod.argsJson,
        prioritize,
        before: () => post(api, podsPath, pod.podJson, 201),
        after: (prioritized) => {
          const node = bestHost(JSON.parse(prioritized) as Array<{ Host: string; Score: number }>);
          // No node scored: kube-scheduler would not bind it either.
          if (node === undefined) return Promise.resolve();
          const binding = {
            apiVersion: "v1",
            kind: "Binding",
            metadata: { namespace: pod.namespace, name: pod.name, uid: pod.uid },
            target: { kind: "Node", name: node },
          };
          return post(api, `${podsPath}/${pod.name}/binding`, JSON.stringify(binding), 201).then(() => {
            bound.push(`${podsPath}/${pod.name}`);
            return bound.length > keepBound ? remove(bound.shift()!) : undefined;
          });
        },
      };
    },
  };
}

/**
 * A closed-loop load generator: `connections` keep-alive connections, each sending a filter
 * then a prioritize request and the next pair as soon as the answer is in, for `warmMs`
 * unmeasured and then `durationMs` measured. With `fresh.kube`, each pair's pod creation and
 * binding go to the API server in line with it (not counted in the round trips).
 */
export async function closedLoopRound(opts: RoundOptions): Promise<RoundResult> {
  const server: Target = { agent: new Agent({ keepAlive: true, maxSockets: opts.connections }), port: opts.port };
  const source = pairSource(opts);
  const loop = async (until: number, roundTrips?: number[]): Promise<number> => {
    let pairs = 0;
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (performance.now() < until) {
          const pair = source.next();
          await pair.before?.();
          const fromFilter = typeof pair.prioritize === "function" ? pair.prioritize : undefined;
          const f = await post(server, "/filter", pair.filter, 200, fromFilter !== undefined);
          const p = await post(
            server,
            "/prioritize",
            fromFilter ? fromFilter(f.text) : (pair.prioritize as Buffer | string),
            200,
            source.keepScores,
          );
          await pair.after?.(p.text);
          roundTrips?.push(f.ms, p.ms);
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
  server.agent.destroy();
  await source.close();
  return { pairs, roundTripsMs: roundTrips.sort((a, b) => a - b), elapsedMs, serverCpuMs };
}
