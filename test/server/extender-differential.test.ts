import { expect } from "chai";
import fc from "fast-check";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import type { ClusterView } from "../../src/model/cluster.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { createLogger } from "../../src/observability/logger.js";
import { IN_FLIGHT_TTL_MS, InFlightLedger } from "../../src/placement/in-flight-ledger.js";
import { inFlightEnrichment } from "../../src/server/in-flight-enrichment.js";
import { createExtenderHandlers, type ExtenderDeps, type ExtenderHandlers, type HandlerReply } from "../../src/server/extender-handlers.js";
import {
  BARE,
  CANDIDATE_NAMES,
  DifferentialWorld,
  HOSTS,
  NODE_VMS,
  nodeWire,
  POD_DEFAULTS,
  TEMPLATE_COUNT,
} from "../fixtures/differential-world.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

/**
 * Issue 29 §4: a long-lived extender (its caches warm from every earlier request) and a cold one
 * (a fresh `createExtenderHandlers` built for each request from copies of the same snapshots, and
 * the same clock) must answer every request with the same bytes. Whatever a cache keeps, it may only make the
 * answer faster, never different.
 *
 * The in-flight ledger is state that the answers themselves write (src/main.ts records each
 * prioritize answer), so it belongs to the "snapshot": before each request the cold instance gets
 * a ledger holding the long-lived one's entries as they stand at that moment (same pods, nodes and
 * times), and none of its memory (the merged view it keeps). Both then record into their own.
 */

/** Steps per generated sequence; `HVX_DIFFERENTIAL_STEPS` (default 10 000) steps in all. */
const SEQUENCE_STEPS = 100;
const TOTAL_STEPS = Number(process.env.HVX_DIFFERENTIAL_STEPS ?? 10_000);
if (!Number.isInteger(TOTAL_STEPS) || TOTAL_STEPS < 1)
  throw new Error(`HVX_DIFFERENTIAL_STEPS must be a positive whole number, got ${process.env.HVX_DIFFERENTIAL_STEPS}`);

type Verb = "filter" | "prioritize";
type Step =
  | { kind: Verb; pod: number; nodesMode: boolean; names: number[]; identities: number[] }
  /** Preemption: each candidate with its first `victims[k]` pods as the informer lists them. */
  | { kind: "preempt"; pod: number; names: number[]; victims: number[] }
  /** The last request's bytes again (kube-scheduler's prioritize after its filter; a retry). */
  | { kind: "again"; verb: Verb }
  /** The last request's candidates for another pod (the next replica), or for one the informer lists on a candidate. */
  | { kind: "sibling"; verb: Verb; pod: number; listed: boolean }
  /** The last request's pod with some of its candidates (kube-scheduler's prioritize sends only the nodes that passed). */
  | { kind: "narrowed"; verb: Verb; keep: number[] }
  | { kind: "create"; template: number }
  | { kind: "recreate"; pod: number }
  | { kind: "bind"; pod: number; node: number }
  | { kind: "delete"; pod: number }
  | { kind: "toggleNode"; node: number }
  | { kind: "bookmark" }
  | { kind: "heat"; host: number; ready: number | undefined; usage: number; balloon: number }
  | { kind: "vmotion"; vm: number; host: number }
  | { kind: "toggleHost"; host: number }
  | { kind: "poll"; lagMs: number }
  | { kind: "forecast" }
  | { kind: "clock"; ms: number }
  /** To the next half-second edge (where a printed age changes) of a sample or poll time, +- 1 ms. */
  | { kind: "edge"; of: number; deltaMs: number }
  /** To the in-flight TTL's edge of the last prioritize answer, +- 1 ms. */
  | { kind: "ttlEdge"; deltaMs: number }
  /** A poll whose first sample is taken the burst guard's settle time after the last binding, +- 1 ms. */
  | { kind: "settleEdge"; deltaMs: number };

type PlacementPolicy = ExtenderDeps["policy"];
type WhenAllRejected = NonNullable<ExtenderDeps["whenAllRejected"]>;

interface RunOptions {
  readonly informer: boolean;
  readonly staleMetrics: PlacementPolicy["staleMetrics"];
  readonly whenAllRejected: WhenAllRejected;
}

const nat = (n: number) => fc.nat(n);
const verb = fc.constantFrom<Verb>("filter", "prioritize");
const edgeDelta = fc.constantFrom(-1, 0, 1);
const request = fc.record({
  kind: verb,
  pod: nat(200),
  nodesMode: fc.boolean(),
  names: fc.uniqueArray(nat(CANDIDATE_NAMES.length - 1), { maxLength: 8 }),
  identities: fc.array(nat(5), { maxLength: 8 }),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: request },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("again"), verb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("preempt"),
      pod: nat(200),
      names: fc.uniqueArray(nat(CANDIDATE_NAMES.length - 1), { maxLength: 4 }),
      victims: fc.array(nat(3), { maxLength: 4 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("sibling"), verb, pod: nat(200), listed: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("narrowed"), verb, keep: fc.uniqueArray(nat(7), { maxLength: 8 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("create"), template: nat(TEMPLATE_COUNT - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("recreate"), pod: nat(200) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("bind"), pod: nat(200), node: nat(20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete"), pod: nat(200) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("toggleNode"), node: nat(20) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "bookmark" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("heat"),
      host: nat(HOSTS - 1),
      ready: fc.constantFrom(undefined, 0.5, 4.9, 5, 9.9, 10, 14),
      usage: fc.constantFrom(10, 60, 89, 90, 99),
      balloon: fc.constantFrom(0, 0, 1, 3),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("vmotion"), vm: nat(NODE_VMS - 1), host: nat(HOSTS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("toggleHost"), host: nat(HOSTS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("poll"), lagMs: nat(25_000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "forecast" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("clock"),
      // The one-second edges, and past the in-flight TTL, the burst guard's settle time, maxMetricAgeSeconds and the cluster view's age.
      ms: fc.constantFrom(1, 499, 500, 501, 999, 1_000, 1_001, 29_999, 30_000, 60_001, 120_500, 300_001),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edge"), of: nat(40), deltaMs: edgeDelta }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("ttlEdge"), deltaMs: edgeDelta }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("settleEdge"), deltaMs: edgeDelta }) },
);
const optionsArb: fc.Arbitrary<RunOptions> = fc.record({
  // Mostly with the informer (cluster cache, in-flight ledger), sometimes extender-only.
  informer: fc.constantFrom(true, true, true, false),
  staleMetrics: fc.constantFrom<PlacementPolicy["staleMetrics"]>("pass", "reject"),
  whenAllRejected: fc.constantFrom<WhenAllRejected>("reject", "pass-coolest"),
});

/**
 * The in-flight ledger wired as src/main.ts wires it (the one place this test uses its API):
 * `inFlightEnrichment` adds the informer's view merged with the ledger and offers each
 * prioritize answer to it; the ledger records only pods the informer holds as pending.
 * `from`: start with a copy of that ledger's entries at `nowMs` (the cold instance's).
 */
function wireLedger(
  world: DifferentialWorld,
  cluster: () => ClusterView,
  from?: { readonly ledger: InFlightLedger; readonly nowMs: number },
) {
  const copied = new Map((from?.ledger.current(from.nowMs) ?? []).map(({ pod }) => [pod.uid, pod]));
  const ledger = new InFlightLedger({ pendingPod: (uid) => copied.get(uid) ?? world.pendingPod(uid) });
  for (const pod of copied.values()) ledger.record(pod.uid, pod.nodeName, pod.boundAtMs);
  copied.clear();
  const deps: Pick<ExtenderDeps, "enrich" | "onPrioritized"> = inFlightEnrichment({ latest: cluster }, ledger, POD_DEFAULTS);
  const entries = (nowMs: number) => ledger.current(nowMs).map(({ pod }) => `${pod.uid} on ${pod.nodeName} at ${pod.boundAtMs}`);
  return { ledger, deps, entries };
}

/** A copy of `view` made of new objects (no cache keyed by one of the originals answers it). */
function copyOfView(view: ClusterView): ClusterView {
  const copy = <T>(x: T): T => structuredClone(x);
  return {
    ...view,
    nodes: new Map([...view.nodes].map(([k, v]) => [k, copy(v)])),
    podsByNode: new Map([...view.podsByNode].map(([k, list]) => [k, list.map(copy)])),
    namespaces: new Map([...view.namespaces].map(([k, v]) => [k, copy(v)])),
  };
}

type Wired = ReturnType<typeof wireLedger>;

/** Drives a long-lived and, per request, a cold instance over `world`; `ask` answers a request from both. */
class Rig {
  readonly world = new DifferentialWorld((uid, how) => this.wired?.ledger.settled(uid, how));
  readonly errors: string[] = [];
  private readonly policy: PlacementPolicy;
  private readonly source = new FakeMetricsSource(this.world.inventory);
  private readonly wired: Wired | undefined;
  private readonly long: ExtenderHandlers;
  lastAnswerMs = this.world.nowMs;

  constructor(private readonly options: RunOptions = { informer: true, staleMetrics: "pass", whenAllRejected: "reject" }) {
    this.policy =
      options.staleMetrics === DEFAULT_POLICY.staleMetrics ? DEFAULT_POLICY : policyWith({ staleMetrics: options.staleMetrics });
    this.wired = options.informer ? wireLedger(this.world, () => this.world.cluster) : undefined;
    this.long = this.handlers(this.source, this.wired);
  }

  private handlers(source: FakeMetricsSource, wired: Wired | undefined) {
    const log = createLogger("error", { write: (line: string) => void this.errors.push(line) });
    return createExtenderHandlers({
      source,
      policy: this.policy,
      metrics: new ExtenderMetrics(new Registry()),
      log,
      clock: () => this.world.nowMs,
      whenAllRejected: this.options.whenAllRejected,
      ...wired?.deps,
    });
  }

  /** The long-lived instance's reply and the cold one's to the same bytes, with both ledgers after it. */
  ask(verb: Verb | "preempt", text: string): { long: HandlerReply; cold: HandlerReply; ledgers: [string[], string[]] } {
    const nowMs = this.world.nowMs;
    this.source.set(this.world.inventory);
    // Copies, so that no cache keyed by a snapshot object (per instance or per module) answers the cold instance;
    // but the forecasts, whose correlated groups are learnt once per poll from the view of the first request
    // that needs them (src/placement/snapshot-correlated-groups.ts): state of the snapshot, as the ledger's entries are.
    const inventory = { ...structuredClone(this.world.inventory), forecasts: this.world.inventory.forecasts };
    const cluster = copyOfView(this.world.cluster);
    const coldWired = this.wired && wireLedger(this.world, () => cluster, { ledger: this.wired.ledger, nowMs });
    const cold = this.handlers(new FakeMetricsSource(inventory), coldWired)[verb](Buffer.from(text));
    const long = this.long[verb](Buffer.from(text));
    if (verb === "prioritize") this.lastAnswerMs = nowMs;
    return { long, cold, ledgers: [this.wired?.entries(nowMs) ?? [], coldWired?.entries(nowMs) ?? []] };
  }
}

/** ExtenderArgs for pod `p` of the world: names only, or full Node objects (identity variants below). */
function requestBody(world: DifferentialWorld, p: number, nodesMode: boolean, names: readonly number[], identities: readonly number[]) {
  const picked = names.map((i) => CANDIDATE_NAMES[i % CANDIDATE_NAMES.length]!);
  const Pod = world.podWire(p);
  if (!nodesMode) return JSON.stringify({ Pod, Nodes: null, NodeNames: picked });
  const items = picked.map((name, k) => {
    const i = name === "node-x" ? 99 : Number(name.slice("node-".length));
    // 0-2: the Node as the informer holds it; 3: a Node without providerID or systemUUID (mapped by name);
    // 4-5: a Node whose identity names another VM than the informer's Node of that name (a VM rebuilt, the informer behind).
    const variant = identities[k] ?? 0;
    if (variant === 3) return { metadata: { name } };
    const wire = nodeWire(i, variant < 3 ? i : (i + variant) % NODE_VMS);
    return { ...wire, metadata: { ...wire.metadata, name } };
  });
  return JSON.stringify({ Pod, Nodes: { metadata: {}, items }, NodeNames: null });
}

/** ExtenderPreemptionArgs (nodeCacheCapable: victims by UID) for pod `p`. */
function preemptBody(world: DifferentialWorld, p: number, names: readonly number[], victims: readonly number[]) {
  const candidates = names.map((i, k) => {
    const name = CANDIDATE_NAMES[i % CANDIDATE_NAMES.length]!;
    const pods = (world.cluster.podsByNode.get(name) ?? []).slice(0, victims[k] ?? 1);
    return [name, { Pods: pods.map((v) => ({ UID: v.uid })), NumPDBViolations: 0 }];
  });
  return JSON.stringify({ Pod: world.podWire(p), NodeNameToVictims: null, NodeNameToMetaVictims: Object.fromEntries(candidates) });
}

/** Runs `steps`; throws at the first request the two instances answer differently. Returns the number of steps run. */
function runSteps(steps: readonly Step[], options: RunOptions): number {
  const rig = new Rig(options);
  const world = rig.world;
  let lastBindMs = world.nowMs;
  let last: { verb: Verb; text: string; pod: number; nodesMode: boolean; names: number[]; identities: number[] } | undefined;
  const ask = (i: number, v: Verb | "preempt", text: string) => {
    const { long, cold, ledgers } = rig.ask(v, text);
    const where = `step ${i} (${v} at ${world.nowMs}): ${text}`;
    expect(long.status, where).to.equal(cold.status);
    if (long.body !== cold.body) expect.fail(`${where}\n${firstDifference(long.body, cold.body)}`);
    if (long.bytes) expect(long.bytes().toString("utf8"), where).to.equal(long.body);
    expect(ledgers[0], `in-flight ledger after ${where}`).to.deep.equal(ledgers[1]);
    expect(rig.errors, where).to.deep.equal([]);
  };
  steps.forEach((step, i) => {
    switch (step.kind) {
      case "filter":
      case "prioritize":
        last = { ...step, verb: step.kind, text: requestBody(world, step.pod, step.nodesMode, step.names, step.identities) };
        return ask(i, step.kind, last.text);
      case "preempt":
        return ask(i, "preempt", preemptBody(world, step.pod, step.names, step.victims));
      case "again":
        return last && ask(i, step.verb, last.text);
      case "sibling": {
        if (!last) return;
        const listed = step.listed ? last.names.flatMap((n) => world.podsOn(CANDIDATE_NAMES[n]!)) : [];
        const pod = listed.length > 0 ? listed[step.pod % listed.length]! : step.pod;
        last = { ...last, pod, verb: step.verb, text: requestBody(world, pod, last.nodesMode, last.names, last.identities) };
        return ask(i, step.verb, last.text);
      }
      case "narrowed": {
        if (!last) return;
        const kept = last.names.map((_, k) => k).filter((k) => step.keep.includes(k));
        const names = kept.map((k) => last!.names[k]!);
        const identities = kept.map((k) => last!.identities[k] ?? 0);
        last = { ...last, names, identities, verb: step.verb, text: requestBody(world, last.pod, last.nodesMode, names, identities) };
        return ask(i, step.verb, last.text);
      }
      case "create":
        return void world.create(step.template);
      case "recreate":
        return void world.recreate(step.pod);
      case "bind":
        lastBindMs = world.nowMs;
        return world.bind(step.pod, step.node, world.nowMs);
      case "delete":
        return world.delete(step.pod);
      case "toggleNode":
        return world.toggleNode(step.node);
      case "bookmark":
        return world.informerEvent();
      case "heat":
        return world.heat(step.host, step.ready, step.usage, step.balloon);
      case "vmotion":
        return world.vmotion(step.vm, step.host);
      case "toggleHost":
        return world.toggleHost(step.host);
      case "poll":
        return world.poll(step.lagMs);
      case "forecast":
        return world.refreshForecasts();
      case "clock":
        world.nowMs += step.ms;
        return;
      case "edge": {
        const times = world.sampleTimes();
        const t = times[step.of % times.length]!;
        // ageSeconds rounds: the printed age changes where nowMs - t crosses k * 1000 + 500.
        const edge = t + 500 + 1000 * Math.ceil((world.nowMs - t - 500 + 1) / 1000) + step.deltaMs;
        world.nowMs = Math.max(world.nowMs, edge);
        return;
      }
      case "ttlEdge":
        world.nowMs = Math.max(world.nowMs, rig.lastAnswerMs + IN_FLIGHT_TTL_MS + step.deltaMs);
        return;
      case "settleEdge": {
        const sampledAtMs = lastBindMs + DEFAULT_POLICY.burstGuard.settleSeconds * 1000 + step.deltaMs;
        world.nowMs = Math.max(world.nowMs, sampledAtMs);
        return world.poll(world.nowMs - sampledAtMs);
      }
    }
  });
  return steps.length;
}

/** Where two replies part, with some text before: `long ...` against `cold ...`. */
function firstDifference(long: string, cold: string): string {
  let i = 0;
  while (i < long.length && long[i] === cold[i]) i++;
  const from = Math.max(0, i - 60);
  return `long-lived: ...${long.slice(from, i + 100)}\ncold:       ...${cold.slice(from, i + 100)}`;
}

describe("extender differential: a long-lived instance answers as a cold one (issue 29 §4)", () => {
  it(`given ${TOTAL_STEPS} random steps (HVX_DIFFERENTIAL_STEPS), answers every request with the cold instance's bytes`, function () {
    this.timeout(Math.max(120_000, TOTAL_STEPS * 20));
    let done = 0;
    while (done < TOTAL_STEPS) {
      const numRuns = Math.ceil((TOTAL_STEPS - done) / (SEQUENCE_STEPS / 2));
      fc.assert(
        fc.property(optionsArb, fc.array(stepArb, { minLength: 1, maxLength: SEQUENCE_STEPS, size: "max" }), (options, steps) => {
          done += runSteps(steps, options);
        }),
        { numRuns },
      );
    }
  });
});

describe("extender differential: the cases issue 29 names", () => {
  const filterOf = (reply: HandlerReply) =>
    JSON.parse(reply.body) as { Nodes: unknown; NodeNames: string[] | null; FailedNodes: Record<string, string> };

  it("(A) given a Nodes-mode filter, then a NodeNames filter for the same pod and name-only nodes, answers in NodeNames form", () => {
    const rig = new Rig();
    const Pod = rig.world.podWire(rig.world.create(0));
    // A Node without providerID or systemUUID is mapped by its name, as a name in NodeNames mode is.
    rig.ask("filter", JSON.stringify({ Pod, Nodes: { items: [{ metadata: { name: "node-4" } }] }, NodeNames: null }));
    const { long, cold } = rig.ask("filter", JSON.stringify({ Pod, Nodes: null, NodeNames: ["node-4"] }));
    expect(filterOf(long)).to.deep.include({ Nodes: null, NodeNames: ["node-4"] });
    expect(long.body).to.equal(cold.body);
  });

  it("(A) given a Nodes-mode filter with no nodes, then a NodeNames filter with none, answers in NodeNames form", () => {
    const rig = new Rig({ informer: false, staleMetrics: "pass", whenAllRejected: "reject" });
    const Pod = rig.world.podWire(rig.world.create(0));
    rig.ask("filter", JSON.stringify({ Pod, Nodes: { items: [] }, NodeNames: null }));
    const { long, cold } = rig.ask("filter", JSON.stringify({ Pod, Nodes: null, NodeNames: [] }));
    expect(filterOf(long)).to.deep.include({ Nodes: null, NodeNames: [] });
    expect(long.body).to.equal(cold.body);
  });

  it("(B) given pod Y judged on a node whose Nodes-mode identity names a VM on another host, answers pod Z running there by its own limits", () => {
    const rig = new Rig();
    const { world } = rig;
    // The world starts with four bare 2-CPU-limit pods on node-11 (allocatable 4 CPU): 8 / 4 = 2.0, at maxCpuOvercommit; one more is 2.5.
    const y = world.create(BARE);
    const z = world.podsOn("node-11")[0]!;
    // The informer maps node-11 to vm-11 (host-5); the Node sent names vm-8 (host-4), e.g. its VM rebuilt, the informer behind.
    const Nodes = { items: [nodeWire(11, 8)] };
    const forY = rig.ask("filter", JSON.stringify({ Pod: world.podWire(y), Nodes, NodeNames: null }));
    expect(filterOf(forY.long).FailedNodes["node-11"]).to.match(/limit overcommit/);
    const forZ = rig.ask("filter", JSON.stringify({ Pod: world.podWire(z), Nodes, NodeNames: null }));
    expect(filterOf(forZ.long).FailedNodes, "Z is already counted on node-11: 8 / 4 = 2.0 passes").to.deep.equal({});
    expect(forZ.long.body).to.equal(forZ.cold.body);
  });
});
