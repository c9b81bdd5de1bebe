import type { KubeObject } from "./resource-store.js";
import { sampleNamespace, sampleNode, samplePod } from "./sample-objects.js";

/**
 * A large synthetic cluster for the informer benchmark: `nodes` nodes, `pods` pods spread
 * round-robin (about 1 in 20 still pending), over `namespaces` namespaces, each pod owned by
 * a ReplicaSet of 5. Generated lazily so the loader never holds every object at once.
 */
export function* benchNodes(count: number): Generator<KubeObject> {
  for (let i = 0; i < count; i++) {
    const hex = i.toString(16).padStart(12, "0");
    yield sampleNode({ name: `node-${i}`, biosUuid: `4205a1b2-c3d4-e5f6-a7b8-${hex}` });
  }
}

export function* benchPods(count: number, nodeCount: number, namespaceCount = 50): Generator<KubeObject> {
  for (let i = 0; i < count; i++) {
    const ns = `team-${i % namespaceCount}`;
    const rs = `svc-${Math.floor(i / 5)}-7d9f8b6c5`;
    yield samplePod({
      namespace: ns,
      name: `${rs}-${i.toString(36)}`,
      nodeName: i % 20 === 19 ? undefined : `node-${i % nodeCount}`,
      cpu: "250m",
      memory: "512Mi",
      cpuLimit: "1",
      memoryLimit: "1Gi",
      owner: { kind: "ReplicaSet", name: rs },
      labels: { "app.kubernetes.io/name": `svc-${Math.floor(i / 5)}`, "pod-template-hash": "7d9f8b6c5" },
      annotations: { "hvx.io/original-requests": '{"containers":{"app":{"cpu":"500m","memory":"512Mi"}}}' },
      createdAt: "2026-11-29T09:00:00Z",
    });
  }
}

export function* benchNamespaces(count = 50): Generator<KubeObject> {
  for (let i = 0; i < count; i++) yield sampleNamespace(`team-${i}`, { "hvx.io/oversell-cpu": "2" });
}
