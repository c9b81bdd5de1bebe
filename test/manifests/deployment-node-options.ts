import { findOne, loadManifests, type Obj } from "./load-manifests.js";

/**
 * The V8 flags of the hvx container's NODE_OPTIONS in manifests/base/deployment.yaml, as
 * arguments for `node`: a child process started with them sizes its heap as the pod does.
 */
export function deploymentNodeOptions(): string[] {
  const value = (hvxContainer().env as Obj[] | undefined)?.find((e) => e.name === "NODE_OPTIONS")?.value;
  if (typeof value !== "string") throw new Error("manifests/base/deployment.yaml: the hvx container sets no NODE_OPTIONS value");
  return value.split(/\s+/).filter((flag) => flag !== "");
}

/** The hvx container's `resources.limits.cpu` in manifests/base/deployment.yaml, in CPUs ("1" is 1, "500m" 0.5). */
export function deploymentCpuLimit(): number {
  const value: unknown = hvxContainer().resources?.limits?.cpu;
  const text = typeof value === "number" ? String(value) : value;
  const m = typeof text === "string" ? /^(\d+(?:\.\d+)?)(m?)$/.exec(text) : null;
  if (!m) throw new Error(`manifests/base/deployment.yaml: the hvx container's limits.cpu is not a CPU quantity: ${String(value)}`);
  return Number(m[1]) / (m[2] === "m" ? 1000 : 1);
}

function hvxContainer(): Obj {
  const deployment = findOne(loadManifests().docs, "Deployment", "hvx").obj;
  const container = (deployment.spec.template.spec.containers as Obj[]).find((c) => c.name === "hvx");
  if (!container) throw new Error("manifests/base/deployment.yaml: the hvx Deployment has no container named hvx");
  return container;
}
