import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_TOKENS, type FakeKubeApiserver } from "../mocks/kube-apiserver/index.js";
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
  /** ExtenderArgs for `pod` with the 500 candidates every cluster case sends. */
  argsFor(pod: unknown): string;
  close(): Promise<void>;
}

export async function startClusterWorld(work: string): Promise<ClusterWorld> {
  const { benchNamespaces, benchNodes, benchPods, startFakeKubeApiserver } = await import("../mocks/kube-apiserver/index.js");
  const scenario = generateScenario({ hosts: 250, vmsPerHost: 20 });
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
  const candidates = Array.from({ length: 500 }, (_, i) => `node-${(i * 7) % CLUSTER_NODES}`);
  return {
    vc,
    scenario,
    fake,
    kubeconfig,
    kube: { url: fake.url, token: FAKE_TOKENS.admin },
    argsFor: (pod) => JSON.stringify({ Pod: pod, Nodes: null, NodeNames: candidates }),
    close: async () => {
      await fake.close();
      await vc.close();
    },
  };
}
