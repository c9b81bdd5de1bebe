import type { KubeObject } from "./resource-store.js";

/**
 * Builders for realistic wire objects (what kubectl get -o json shows, trimmed of noise),
 * used by tests, the demo cluster and the informer benchmark.
 */
export interface SampleNodeOptions {
  name: string;
  biosUuid?: string;
  cpu?: string;
  memory?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function sampleNode(o: SampleNodeOptions): KubeObject {
  const node: KubeObject = {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: o.name,
      labels: {
        "kubernetes.io/hostname": o.name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "node.kubernetes.io/instance-type": "vsphere-vm.cpu-8.mem-32gb.os-ubuntu",
        ...o.labels,
      },
      annotations: {
        "node.alpha.kubernetes.io/ttl": "0",
        "volumes.kubernetes.io/controller-managed-attach-detach": "true",
        ...o.annotations,
      },
    },
    spec: { podCIDR: "10.244.1.0/24", podCIDRs: ["10.244.1.0/24"] },
    status: {
      capacity: { cpu: o.cpu ?? "8", memory: o.memory ?? "32863636Ki", pods: "110", "ephemeral-storage": "101430960Ki" },
      allocatable: { cpu: o.cpu ?? "7800m", memory: o.memory ?? "32351636Ki", pods: "110", "ephemeral-storage": "93478772582" },
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "KubeletReady",
          message: "kubelet is posting ready status",
          lastHeartbeatTime: "2026-11-29T10:00:00Z",
          lastTransitionTime: "2026-11-01T08:00:00Z",
        },
      ],
      addresses: [
        { type: "InternalIP", address: "10.0.0.10" },
        { type: "Hostname", address: o.name },
      ],
      nodeInfo: {
        machineID: "ec2a5b6d0c1e4e0f9f3f7b5e1d2c3b4a",
        systemUUID: o.biosUuid ? swappedUuid(o.biosUuid) : "",
        bootID: "0f6b3c8e-0c1d-4b7e-9a0e-2f1c3d4e5f60",
        kernelVersion: "5.15.0-91-generic",
        osImage: "Ubuntu 22.04.3 LTS",
        containerRuntimeVersion: "containerd://1.7.2",
        kubeletVersion: "v1.30.2",
        kubeProxyVersion: "v1.30.2",
        operatingSystem: "linux",
        architecture: "amd64",
      },
    },
  };
  if (o.biosUuid) node.spec.providerID = `vsphere://${o.biosUuid}`;
  return node;
}

export interface SamplePodOptions {
  namespace?: string;
  name: string;
  nodeName?: string;
  cpu?: string;
  memory?: string;
  cpuLimit?: string;
  memoryLimit?: string;
  phase?: string;
  owner?: { kind: string; name: string };
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  scheduledAt?: string;
  createdAt?: string;
}

export function samplePod(o: SamplePodOptions): KubeObject {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  if (o.cpuLimit) limits.cpu = o.cpuLimit;
  if (o.memoryLimit) limits.memory = o.memoryLimit;
  const metadata: KubeObject["metadata"] = { name: o.name, namespace: o.namespace ?? "default", labels: { ...o.labels } };
  if (o.annotations) metadata.annotations = { ...o.annotations };
  if (o.createdAt) metadata.creationTimestamp = o.createdAt;
  if (o.owner)
    metadata.ownerReferences = [
      {
        apiVersion: "apps/v1",
        kind: o.owner.kind,
        name: o.owner.name,
        uid: `uid-${o.owner.name}`,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
  const status: KubeObject = { phase: o.phase ?? (o.nodeName ? "Running" : "Pending"), qosClass: "Burstable" };
  if (o.nodeName) {
    status.conditions = [
      {
        type: "PodScheduled",
        status: "True",
        lastProbeTime: null,
        lastTransitionTime: o.scheduledAt ?? o.createdAt ?? "2026-11-29T09:00:00Z",
      },
    ];
    status.hostIP = "10.0.0.10";
    status.podIP = "10.244.1.17";
  }
  const spec: KubeObject = {
    containers: [
      {
        name: "app",
        image: "registry.example.com/team/app:1.4.2",
        ports: [{ containerPort: 8080, protocol: "TCP" }],
        resources: { ...(o.cpu || o.memory ? { requests } : {}), ...(o.cpuLimit || o.memoryLimit ? { limits } : {}) },
        terminationMessagePath: "/dev/termination-log",
        terminationMessagePolicy: "File",
        imagePullPolicy: "IfNotPresent",
      },
    ],
    restartPolicy: "Always",
    terminationGracePeriodSeconds: 30,
    dnsPolicy: "ClusterFirst",
    serviceAccountName: "default",
    schedulerName: "default-scheduler",
    priority: 0,
    tolerations: [
      { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
      { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
    ],
  };
  if (o.nodeName) spec.nodeName = o.nodeName;
  return { apiVersion: "v1", kind: "Pod", metadata, spec, status };
}

export function sampleNamespace(name: string, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name, labels: { "kubernetes.io/metadata.name": name, ...labels } },
    spec: { finalizers: ["kubernetes"] },
    status: { phase: "Active" },
  };
}

/** systemUUID as a Linux guest on ESXi reports it: first three groups byte-swapped. */
function swappedUuid(uuid: string): string {
  const parts = uuid.split("-");
  const swap = (hex: string): string => (hex.match(/../g) ?? []).reverse().join("");
  return [swap(parts[0] ?? ""), swap(parts[1] ?? ""), swap(parts[2] ?? ""), parts[3], parts[4]].join("-").toUpperCase();
}
