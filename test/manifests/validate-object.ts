import type { Obj } from "./load-manifests.js";

/** The module that holds the models of one apiVersion: kubernetes-models, or @kubernetes-models/cert-manager. */
function modelModule(apiVersion: string): string {
  if (apiVersion.startsWith("cert-manager.io/")) return `@kubernetes-models/cert-manager/${apiVersion}`;
  return `kubernetes-models/${apiVersion}`;
}

interface Model {
  new (data: Obj): { validate(): void };
}

/**
 * Validates one object against the OpenAPI schema of its apiVersion and kind (kubernetes-models,
 * generated from Kubernetes' OpenAPI; cert-manager's CRDs). Returns the problems; an apiVersion or
 * kind without a schema is a problem too, never a pass.
 */
export async function validateObject(obj: Obj): Promise<string[]> {
  const where = `${obj.kind}/${obj.metadata?.name}`;
  if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") return [`${where}: no apiVersion or kind`];
  let mod: Record<string, unknown>;
  try {
    mod = (await import(modelModule(obj.apiVersion))) as Record<string, unknown>;
  } catch {
    return [`${where}: no schema for apiVersion ${obj.apiVersion}`];
  }
  const model = mod[obj.kind] as Model | undefined;
  if (typeof model !== "function") return [`${where}: no schema for ${obj.apiVersion} ${obj.kind}`];
  try {
    new model(obj).validate();
    return [];
  } catch (err) {
    return [`${where}: ${(err as Error).message}`];
  }
}
