import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../mocks/fake-metrics-source.js";
import type { PodView } from "../src/model/cluster.js";
import { parseConfig } from "../src/config/index.js";
import { ExtenderMetrics } from "../src/observability/extender-metrics.js";
import { silentLogger } from "../src/observability/logger.js";
import { createExtenderHandlers } from "../src/server/extender-handlers.js";
import { InFlightLedger, recordAnswer } from "../src/placement/in-flight-ledger.js";
import { syntheticCluster, syntheticInventory } from "./extender.bench.js";

/**
 * `node --cpu-prof dist/bench/extender-profile.js [plain|cluster|typical|ledger|forged] [N] [SECONDS]`: drives the
 * extender handlers in process (the extender benchmark's synthetic 5000-node world) for a CPU
 * profile of the decision path alone. `forged` is `ledger` after 1000 forged prioritize calls
 * (unknown uids, 1000 CPUs each), which the ledger must refuse: compare its ms/pair with `ledger`'s.
 */
const mode = process.argv[2] ?? "plain";
const n = Number(process.argv[3] ?? 500);
const seconds = Number(process.argv[4] ?? 5);
const nowMs = Date.now();
const config = parseConfig(undefined);
const withLedger = mode === "ledger" || mode === "forged";
const cluster = syntheticCluster(nowMs, mode === "typical" || withLedger ? "typical" : "worst");
const incoming: PodView = {
  namespace: "payments",
  name: "payments-api-x",
  uid: "incoming",
  ownerKey: "ReplicaSet/apps/w-3",
  requests: { cpuMilli: 250, memoryBytes: 2 ** 29 },
  limits: { cpuMilli: 2000, memoryBytes: 2 ** 30 },
  expectedDemand: { cpuMilli: 250, memoryBytes: 2 ** 29 },
  terminal: false,
};
// ledger: a new pod per pair, each recorded by the in-flight ledger after its prioritize, as `hvx serve` wires it (src/main.ts).
let pairs = 0;
let forging: number | undefined;
const huge = { cpuMilli: 1_000_000, memoryBytes: 2 ** 40 };
const podOf = (): PodView =>
  forging !== undefined
    ? { ...incoming, uid: `forged-${forging}`, requests: huge, limits: huge, expectedDemand: huge }
    : withLedger
      ? { ...incoming, uid: `incoming-${pairs}` }
      : incoming;
// The informer knows the pod being asked about as pending; nothing here binds it, so entries stay until a bound drops them.
const ledger = new InFlightLedger({ pendingPod: (uid) => (uid === `incoming-${pairs}` ? podOf() : undefined) });
const handlers = createExtenderHandlers({
  source: new FakeMetricsSource(syntheticInventory(nowMs, mode !== "plain")),
  policy: config,
  metrics: new ExtenderMetrics(new Registry()),
  log: silentLogger(),
  clock: () => nowMs,
  ...(mode !== "plain"
    ? {
        enrich: (ctx) => {
          const p = podOf();
          return { ...ctx, cluster: { view: withLedger ? ledger.viewWith(cluster, ctx.nowMs, p.uid) : cluster, pod: p } };
        },
      }
    : {}),
  ...(withLedger ? { onPrioritized: (scores, ctx) => recordAnswer(ledger, scores, ctx) } : {}),
});
const pod = JSON.parse(readFileSync(new URL("../../test/fixtures/wire/filter-args-nodenames.json", import.meta.url), "utf8")).Pod;
const body = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: Array.from({ length: n }, (_, i) => `node-${(i * 7) % 5000}`) });
if (mode === "forged") for (forging = 0; forging < 1000; forging++) handlers.prioritize(body);
forging = undefined;
const end = Date.now() + seconds * 1000;
while (Date.now() < end) {
  handlers.filter(body);
  handlers.prioritize(body);
  pairs++;
}
let floor = 0;
const floorEnd = Date.now() + seconds * 1000;
while (Date.now() < floorEnd) {
  JSON.stringify(JSON.parse(body));
  JSON.stringify(JSON.parse(body));
  floor++;
}
process.stdout.write(
  `${mode} ${n}: ${((seconds * 1000) / pairs).toFixed(3)} ms/pair, ${(floor / pairs).toFixed(2)}x the time of two parse+stringify` +
    (withLedger ? `, ${ledger.size(nowMs)} in flight\n` : "\n"),
);
