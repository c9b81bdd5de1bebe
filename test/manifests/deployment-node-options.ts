import { findOne, loadManifests, type Obj } from "./load-manifests.js";

/**
 * The V8 flags of the hvx container's NODE_OPTIONS in manifests/base/deployment.yaml, as
 * arguments for `node`: a child process started with them sizes its heap as the pod does.
 */
export function deploymentNodeOptions(): string[] {
  const deployment = findOne(loadManifests().docs, "Deployment", "hvx").obj;
  const container = (deployment.spec.template.spec.containers as Obj[]).find((c) => c.name === "hvx");
  const value = (container?.env as Obj[] | undefined)?.find((e) => e.name === "NODE_OPTIONS")?.value;
  if (typeof value !== "string") throw new Error("manifests/base/deployment.yaml: the hvx container sets no NODE_OPTIONS value");
  return value.split(/\s+/).filter((flag) => flag !== "");
}
