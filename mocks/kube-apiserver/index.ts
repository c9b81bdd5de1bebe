export {
  FAKE_TOKENS,
  startFakeKubeApiserver,
  type FakeUser,
  type FakeKubeApiserver,
  type FakeKubeApiserverOptions,
  type FakeKubeControls,
} from "./start-fake-kube-apiserver.js";
export type { FakeFault, FakeStats } from "./handle-request.js";
export type { KubeObject } from "./resource-store.js";
export { sampleNamespace, sampleNode, samplePod, type SampleNodeOptions, type SamplePodOptions } from "./sample-objects.js";
export { benchNamespaces, benchNodes, benchPods } from "./bench-cluster.js";
export { applyJsonPatch, mergePatch, PatchError } from "./apply-patch.js";
export { demoCluster, type DemoVm } from "./demo-cluster.js";
export { RbacAuthorizer, shippedRbacYaml, serviceAccountUser, ADMIN_USER, type UserInfo } from "./rbac.js";
export { requestInfo, type RequestInfo } from "./request-info.js";
