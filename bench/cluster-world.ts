import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_TOKENS, type FakeKubeApiserver } from "../mocks/kube-apiserver/index.js";
import { candidateWindow, type CandidateWindow } from "./closed-loop.js";
import { generateScenario, startMockVcenter, type MockVcenterHandle, type Scenario } from "../mocks/vcenter/index.js";

const CLUSTER_NODES = 5000;
const CLUSTER_PODS = 50_000;

/**
 * The cluster cache full: the fake API server (in this process) holds 5000 nodes and 50 000 pods
 * (mocks/kube-apiserver/bench-cluster.ts), the mock vCenter 250 hosts x 20 node VMs whose BIOS
 * UUIDs are the nodes' providerIDs.
 */
export interface ClusterWorld {
  readonly vc: MockVcenterHandle;
  readonly scenario: Scenario;
  readonly fake: FakeKubeApiserver;
  /** A kubeconfig file for hvx (token `fake-token`). */
  readonly kubeconfig: string;
  /** Where the load generator creates and binds pods, as an administrator (ReplicaSet controller, kube-scheduler). */
  readonly kube: { readonly url: string; readonly token: string };
  /** ExtenderArgs for `pod` with the 500 candidates the repeated-body cases send (the window's first). */
  argsFor(pod: unknown): string;
  /** kube-scheduler's candidate window over the 5000 nodes (the fresh cases move it on with every pod). */
  readonly candidates: CandidateWindow;
  close(): Promise<void>;
}

export async function startClusterWorld(work: string): Promise<ClusterWorld> {
  const { benchNamespaces, benchNodes, benchPods, startFakeKubeApiserver } = await import("../mocks/kube-apiserver/index.js");
  const generated = generateScenario({ hosts: 250, vmsPerHost: 20 });
  // Two 32-core sockets per host: the cluster's ~10 pods per node (1 CPU limit each) stack to
  // about 3x the cores, under the default cap of 4, as a cluster hvx is tuned for would. With the
  // generator's 32 cores every host was over the cap and every request ran the all-rejected
  // valve, answering 42 KB of rejections and binding every pod to the same 35 hot nodes.
  const cores = process.env.HVX_BENCH_WORLD === "overcommitted" ? 32 : 64;
  const scenario = { ...generated, hosts: generated.hosts.map((h) => ({ ...h, cpuCores: cores })) };
  const vms = scenario.vms.map((vm, i) => ({
    ...vm,
    name: `node-${i}`,
    biosUuid: `4205a1b2-c3d4-e5f6-a7b8-${i.toString(16).padStart(12, "0")}`,
  }));
  const vc = await startMockVcenter({ scenario: { ...scenario, vms } });
  const fake = await startFakeKubeApiserver({ rbac: false });
  fake.controls.bulkLoad({ namespaces: benchNamespaces(), nodes: benchNodes(CLUSTER_NODES), pods: benchPods(CLUSTER_PODS, CLUSTER_NODES) });
  const kubeconfig = join(work, "kubeconfig.yaml");
  writeFileSync(kubeconfig, fake.kubeconfigYaml());
  const window: CandidateWindow = { prefix: "node-", nodes: CLUSTER_NODES, stride: 7, size: 500 };
  const candidates = candidateWindow(window, 0);
  return {
    vc,
    scenario,
    fake,
    kubeconfig,
    kube: { url: fake.url, token: FAKE_TOKENS.admin },
    argsFor: (pod) => JSON.stringify({ Pod: pod, Nodes: null, NodeNames: candidates }),
    candidates: window,
    close: async () => {
      await fake.close();
      await vc.close();
    },
  };
}
