import type { NodeView } from "../model/cluster.js";
import { cpuMilli, memoryBytes } from "../quantity/index.js";

/**
 * The parts of a `v1.Node` hvx reads. Accepts both shapes client-node hands out: wire JSON
 * from watch events and deserialized `V1Node` from lists (same field names).
 */
export interface NodeWire {
  readonly metadata?: { readonly name?: string; readonly labels?: Record<string, string>; readonly annotations?: Record<string, string> };
  readonly spec?: { readonly providerID?: string };
  readonly status?: { readonly allocatable?: Record<string, string>; readonly nodeInfo?: { readonly systemUUID?: string } };
}

/** Converts a Node; an unparseable allocatable counts as 0 and is listed in `problems`. */
export function toNodeView(node: NodeWire, problems: string[] = []): NodeView {
  const name = node.metadata?.name ?? "";
  const alloc = node.status?.allocatable ?? {};
  const parse = (key: "cpu" | "memory", fn: (t: string) => number): number => {
    const raw = alloc[key];
    if (raw === undefined) return 0;
    try {
      return fn(String(raw));
    } catch {
      problems.push(`node ${name}: status.allocatable.${key} ${JSON.stringify(raw)} is not a quantity, counted as 0`);
      return 0;
    }
  };
  const view: { -readonly [K in keyof NodeView]: NodeView[K] } = {
    name,
    allocatable: { cpuMilli: parse("cpu", cpuMilli), memoryBytes: parse("memory", memoryBytes) },
    labels: { ...node.metadata?.labels },
    annotations: { ...node.metadata?.annotations },
  };
  const providerID = node.spec?.providerID;
  if (providerID) view.providerID = providerID;
  const systemUUID = node.status?.nodeInfo?.systemUUID;
  if (systemUUID) view.systemUUID = systemUUID;
  return view;
}
