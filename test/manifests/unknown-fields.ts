import * as k8s from "@kubernetes/client-node";
import type { Obj } from "./load-manifests.js";

interface Attribute {
  baseName: string;
  type: string;
}
const MODELS = k8s as unknown as Record<string, { getAttributeTypeMap?: () => Attribute[] } | undefined>;

function attributesOf(type: string): Attribute[] | undefined {
  const model = MODELS[type];
  return typeof model?.getAttributeTypeMap === "function" ? model.getAttributeTypeMap() : undefined;
}

function walk(value: unknown, type: string, path: string): string[] {
  if (value === null || value === undefined) return [];
  const list = /^Array<(.+)>$/.exec(type);
  if (list !== null) return Array.isArray(value) ? value.flatMap((item, i) => walk(item, list[1]!, `${path}[${i}]`)) : [];
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map !== null) {
    if (typeof value !== "object" || Array.isArray(value)) return [];
    return Object.entries(value).flatMap(([k, v]) => walk(v, map[1]!, `${path}.${k}`));
  }
  const attributes = attributesOf(type);
  // Primitives, IntOrString, Date, RawExtension: no fields of their own (types are kubernetes-models' check).
  if (attributes === undefined || typeof value !== "object" || Array.isArray(value)) return [];
  const known = new Map(attributes.map((a) => [a.baseName, a.type]));
  return Object.entries(value as Obj).flatMap(([key, v]) => {
    const fieldType = known.get(key);
    return fieldType === undefined ? [`${path}.${key}`] : walk(v, fieldType, `${path}.${key}`);
  });
}

/**
 * Field paths of a built-in Kubernetes object that its API type does not have (a typo the API
 * server would refuse under kubectl's strict field validation, or silently drop), from the
 * generated models of @kubernetes/client-node. Undefined for kinds it has no model of (CRDs).
 */
export function unknownFields(obj: Obj): string[] | undefined {
  if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") return undefined;
  const version = obj.apiVersion.slice(obj.apiVersion.indexOf("/") + 1);
  const type = `${version.charAt(0).toUpperCase()}${version.slice(1)}${obj.kind}`;
  return attributesOf(type) === undefined ? undefined : walk(obj, type, "");
}
