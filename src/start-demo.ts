import type { KubeConfig } from "@kubernetes/client-node";
import type { Config } from "./config/index.js";
import { DEMO_PENDING_POD_REF } from "./demo-help.js";
import type { Logger } from "./observability/logger.js";

/** What `npm start` runs against when no vCenter is configured: the mocks' URLs and credentials. */
export interface Demo {
  readonly vcenterUrl: string;
  readonly credentials: { username: string; password: string };
  readonly kubeConfig?: KubeConfig;
}

/** The demo's pending pod (`GET /debug/explain?pod=shop/web-5d8f7c9b6-pending`): one more web replica. */
const DEMO_PENDING_POD = {
  namespace: DEMO_PENDING_POD_REF.split("/")[0]!,
  name: DEMO_PENDING_POD_REF.split("/")[1]!,
  cpu: "500m",
  memory: "512Mi",
  cpuLimit: "2",
  memoryLimit: "1Gi",
  owner: { kind: "ReplicaSet", name: "web-5d8f7c9b6" },
  labels: { "app.kubernetes.io/name": "web" },
};

/** The mocks ship with the source tree, not with the production image: load them only for the demo. */
export async function startDemo(config: Readonly<Config>, log: Logger, stops: Array<() => Promise<void> | void>): Promise<Demo> {
  let vcenterMock: typeof import("../mocks/vcenter/index.js");
  let kubeMock: typeof import("../mocks/kube-apiserver/index.js");
  try {
    vcenterMock = await import("../mocks/vcenter/index.js");
    kubeMock = await import("../mocks/kube-apiserver/index.js");
  } catch (err) {
    throw new Error("vcenter.url is not set and the bundled mocks are not installed here (production image): set vcenter.url", {
      cause: err,
    });
  }
  const scenario = vcenterMock.loadScenario(vcenterMock.demoScenarioPath());
  const mock = await vcenterMock.startMockVcenter({ scenario });
  stops.push(() => mock.close());
  log.warn({ vcenterUrl: mock.url }, "DEMO MODE: no vcenter.url configured, polling the bundled mock vCenter (demo scenario)");
  const credentials = { username: scenario.credentials.username, password: scenario.credentials.password };
  if (config.kubernetes.enabled === false) return { vcenterUrl: mock.url, credentials };
  const kube = await kubeMock.startFakeKubeApiserver();
  stops.push(() => kube.close());
  kube.controls.bulkLoad(kubeMock.demoCluster(scenario.vms));
  // A pod kube-scheduler has not placed yet, for `hvx explain shop/web-5d8f7c9b6-pending` (a web replica: spread applies).
  kube.controls.upsertPod(kubeMock.samplePod(DEMO_PENDING_POD));
  // A web replica already on cool esx-05: the pending replica's spread penalty lowers workers 09-10.
  kube.controls.upsertPod(kubeMock.samplePod({ ...DEMO_PENDING_POD, name: "web-5d8f7c9b6-3", nodeName: "k8s-worker-09" }));
  log.warn({ url: kube.url }, "DEMO MODE: watching a fake Kubernetes API whose nodes are the demo's worker VMs");
  return { vcenterUrl: mock.url, credentials, kubeConfig: kube.kubeConfig() };
}
