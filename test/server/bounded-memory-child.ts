import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import type { ClusterView, NodeView, PodView } from "../../src/model/cluster.js";
import type { HostForecast } from "../../src/model/host-forecast.js";
import type { HostView, InventoryView, VmView } from "../../src/model/inventory.js";
import { parseConfig } from "../../src/config/index.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";

/**
 * `node --expose-gc bounded-memory-child.js deadlines|outage`: drives the extender handlers
 * through one of issue 29 §3's long runs in this process and prints one JSON line: the
 * resident set and heap after a warm-up and at the end, each after a full collection
 * (test/server/bounded-memory.test.ts judges the growth).
 *
 * - deadlines: 2000 nodes (10 pods each, cluster view), 300 Job pods each with its own
 *   `activeDeadlineSeconds` (each its own prediction horizon), each asked about every node.
 * - outage: vCenter gone for 20 minutes with `staleMetrics: reject`: the inventory stays the
 *   last one, the clock moves a second per request, 500 nodes asked each time, a new pod each.
 */
const scenario = process.argv[2];
const HOSTS = 40;
const VMS_PER_HOST = 50;
const startMs = 1_800_000_000_000;
let nowMs = startMs;

function inventory(sampledAtMs: number): InventoryView {
  const hosts = new Map<string, HostView>();
  const vms = new Map<string, VmView>();
  const forecasts = new Map<string, HostForecast>();
  for (let h = 0; h < HOSTS; h++) {
    const vmIds: string[] = [];
    for (let v = 0; v < VMS_PER_HOST; v++) {
      const i = h * VMS_PER_HOST + v;
      vmIds.push(`vm-${i}`);
      vms.set(`vm-${i}`, {
        id: `vm-${i}`,
        name: `node-${i}`,
        hostId: `host-${h}`,
        biosUuid: uuidOf(i),
        powerState: "POWERED_ON",
        vcpus: 8,
        memoryMiB: 32768,
        metrics: { sampledAtMs, cpuReadyPercent: i % 7, balloonMiB: 0 },
      });
    }
    const metrics = {
      sampledAtMs,
      cpuReadyPercent: h % 6,
      cpuUsagePercent: 40 + (h % 30),
      memUsagePercent: 50,
      balloonPercent: 0,
      swapInKBps: 0,
    };
    hosts.set(`host-${h}`, {
      id: `host-${h}`,
      name: `esx-${h}`,
      polledAtMs: sampledAtMs,
      connectionState: "CONNECTED",
      inMaintenance: false,
      cpuCores: 32,
      cpuMhzPerCore: 2600,
      memoryMiB: 524288,
      vmIds,
      vcpuPerPcpu: 3,
      vramPerPram: 1.2,
      metrics,
    });
    const byBuckets = Array.from({ length: 48 }, (_, k) => ({
      cpuUsagePercent: { value: metrics.cpuUsagePercent + (k % 20), minuteOfDay: (k * 30) % 1440, days: 7 },
    }));
    forecasts.set(`host-${h}`, { fromMs: sampledAtMs, bucketMs: 1_800_000, byBuckets });
  }
  return { hosts, vms, polledAtMs: sampledAtMs, forecasts };
}

function cluster(): ClusterView {
  const nodes = new Map<string, NodeView>();
  const podsByNode = new Map<string, PodView[]>();
  for (let i = 0; i < HOSTS * VMS_PER_HOST; i++) {
    const name = `node-${i}`;
    nodes.set(name, {
      name,
      providerID: `vsphere://${uuidOf(i)}`,
      allocatable: { cpuMilli: 7800, memoryBytes: 31 * 2 ** 30 },
      labels: {},
      annotations: {},
    });
    const pods = Array.from({ length: 10 }, (_, p) => ({
      namespace: "apps",
      name: `w-${i}-${p}`,
      uid: `uid-${i}-${p}`,
      nodeName: name,
      ownerKey: `ReplicaSet/apps/w-${p}`,
      requests: { cpuMilli: 100, memoryBytes: 2 ** 28 },
      limits: { cpuMilli: 200, memoryBytes: 2 ** 28 },
      expectedDemand: { cpuMilli: 100, memoryBytes: 2 ** 28 },
      terminal: false,
    }));
    podsByNode.set(name, pods);
  }
  return { nodes, podsByNode, namespaces: new Map([["batch", {}]]), syncedAtMs: startMs, lastEventMs: startMs };
}

function uuidOf(i: number): string {
  return `4200${i.toString(16).padStart(4, "0")}-0000-0000-0000-000000000000`;
}

/** A pending Job pod as kube-scheduler sends it. */
function podWire(i: number, deadlineSeconds: number | undefined) {
  return {
    metadata: {
      name: `job-${i}`,
      namespace: "batch",
      uid: `job-uid-${i}`,
      ownerReferences: [{ apiVersion: "batch/v1", kind: "Job", name: `job-${i}`, uid: `owner-${i}`, controller: true }],
    },
    spec: {
      ...(deadlineSeconds !== undefined ? { activeDeadlineSeconds: deadlineSeconds } : {}),
      containers: [{ name: "main", image: "busybox", resources: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "200m" } } }],
    },
  };
}

function measure() {
  global.gc!();
  global.gc!();
  const m = process.memoryUsage();
  return { rssMB: m.rss / 2 ** 20, heapMB: m.heapUsed / 2 ** 20 };
}

function run(): void {
  const outage = scenario === "outage";
  const view = outage ? undefined : cluster();
  const config = parseConfig(outage ? "staleMetrics: reject\n" : undefined);
  const handlers = createExtenderHandlers({
    source: new FakeMetricsSource(inventory(startMs - 10_000)),
    policy: config,
    metrics: new ExtenderMetrics(new Registry()),
    log: silentLogger(),
    clock: () => nowMs,
    ...(view
      ? {
          enrich: (ctx, req) => {
            const wire = req.args.Pod as ReturnType<typeof podWire>;
            const pod: PodView = {
              namespace: wire.metadata.namespace,
              name: wire.metadata.name,
              uid: wire.metadata.uid,
              ownerKey: `Job/batch/${wire.metadata.name}`,
              requests: { cpuMilli: 100, memoryBytes: 2 ** 26 },
              limits: { cpuMilli: 200, memoryBytes: 2 ** 26 },
              expectedDemand: { cpuMilli: 100, memoryBytes: 2 ** 26 },
              terminal: false,
            };
            return { ...ctx, cluster: { view, pod } };
          },
        }
      : {}),
  });
  const nodesAsked = outage ? 500 : HOSTS * VMS_PER_HOST;
  const names = Array.from({ length: nodesAsked }, (_, i) => `node-${i}`);
  const requests = outage ? 20 * 60 : 300;
  const warmUp = outage ? 60 : 30;
  let before = { rssMB: 0, heapMB: 0 };
  for (let i = 0; i < requests; i++) {
    // A full collection every 30 requests: the resident set then follows what is live, not when V8 last collected.
    if (i % 30 === 0) {
      const now = measure();
      if (i === warmUp) before = now;
      if (process.env.HVX_MEMORY_TRACE) process.stderr.write(`${i} ${JSON.stringify(now)}\n`);
    }
    const body = JSON.stringify({ Pod: podWire(i, outage ? undefined : 600 + i * 60), Nodes: null, NodeNames: names });
    for (const reply of [handlers.filter(body), handlers.prioritize(body)]) {
      if (reply.status !== 200) throw new Error(`request ${i} answered ${reply.status}: ${reply.body.slice(0, 200)}`);
    }
    if (outage) nowMs += 1000;
  }
  const after = measure();
  process.stdout.write(`${JSON.stringify({ scenario, requests, nodesAsked, before, after })}\n`);
}

run();
