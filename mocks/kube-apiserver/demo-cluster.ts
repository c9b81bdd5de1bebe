import type { KubeObject } from "./resource-store.js";
import { sampleNamespace, sampleNode, samplePod } from "./sample-objects.js";

/** A VM as the mock vCenter's scenario describes it (structurally; no import from mocks/vcenter). */
export interface DemoVm {
  readonly name: string;
  readonly biosUuid?: string;
  readonly vcpus?: number;
  readonly memoryMiB?: number;
}

/**
 * A small cluster for the bundled default (`npm start`): one Node per Kubernetes worker VM
 * (name = VM name, providerID `vsphere://<bios uuid>`, allocatable = VM size minus a 200m /
 * 1 GiB system reserve), a `shop` namespace with a 3-replica web Deployment (one ReplicaSet) and one pod per
 * node of a `batch` Job, plus `kube-system`. Load with `controls.bulkLoad(demoCluster(vms))`.
 */
export function demoCluster(
  vms: readonly DemoVm[],
  isWorker: (vm: DemoVm) => boolean = (vm) => vm.name.startsWith("k8s-"),
): {
  nodes: KubeObject[];
  pods: KubeObject[];
  namespaces: KubeObject[];
} {
  const workers = vms.filter(isWorker);
  const nodes = workers.map((vm) => {
    const o: Parameters<typeof sampleNode>[0] = { name: vm.name };
    if (vm.biosUuid) o.biosUuid = vm.biosUuid;
    if (vm.vcpus) o.cpu = `${vm.vcpus * 1000 - 200}m`;
    if (vm.memoryMiB) o.memory = `${Math.max(1, vm.memoryMiB - 1024)}Mi`;
    return sampleNode(o);
  });
  const pods: KubeObject[] = [];
  workers.slice(0, 3).forEach((vm, i) =>
    pods.push(
      samplePod({
        namespace: "shop",
        name: `web-5d8f7c9b6-${i}`,
        nodeName: vm.name,
        cpu: "500m",
        memory: "512Mi",
        cpuLimit: "2",
        memoryLimit: "1Gi",
        owner: { kind: "ReplicaSet", name: "web-5d8f7c9b6" },
        labels: { "app.kubernetes.io/name": "web", "pod-template-hash": "5d8f7c9b6" },
      }),
    ),
  );
  workers.forEach((vm, i) =>
    pods.push(
      samplePod({
        namespace: "shop",
        name: `nightly-report-${i}`,
        nodeName: vm.name,
        cpu: "250m",
        memory: "256Mi",
        owner: { kind: "Job", name: "nightly-report" },
      }),
    ),
  );
  return { nodes, pods, namespaces: [sampleNamespace("kube-system"), sampleNamespace("shop", { "hvx.io/oversell-cpu": "2" })] };
}
