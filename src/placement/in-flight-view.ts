import type { ClusterView, PodView } from "../model/cluster.js";
import { OverlayMap } from "../model/overlay-map.js";

export interface InFlightPod {
  /** The pod as the burst guard and the caps should count it: `nodeName` the assumed node, `boundAtMs` the answer's time. */
  readonly pod: PodView & { readonly nodeName: string; readonly boundAtMs: number };
}

/**
 * A node's pod list with its in-flight pods appended, in answer order, except a pod the list
 * already shows and the pod `schedulingUid`. `base` itself (the same object, or undefined for
 * a node without pods) when nothing is added.
 */
export function onNodeWith(
  base: readonly PodView[] | undefined,
  inFlight: Iterable<InFlightPod>,
  schedulingUid?: string,
): readonly PodView[] | undefined {
  let list: PodView[] | undefined;
  for (const { pod } of inFlight) {
    if (pod.uid === schedulingUid || base?.some((p) => p.uid === pod.uid)) continue;
    (list ??= [...(base ?? [])]).push(pod);
  }
  return list ?? base;
}

/**
 * The cluster view with the in-flight pods added to their assumed nodes (nodes the view does
 * not know are skipped), except the pod being scheduled itself. The same object when nothing
 * is added, so per-snapshot caches keep working; otherwise only the touched nodes' lists are
 * new (an overlay on the view's map, no copy of it).
 */
export function withInFlight(view: ClusterView, inFlight: readonly InFlightPod[], schedulingUid?: string): ClusterView {
  const byNode = new Map<string, InFlightPod[]>();
  for (const e of inFlight) {
    if (!view.nodes.has(e.pod.nodeName)) continue;
    let l = byNode.get(e.pod.nodeName);
    if (!l) byNode.set(e.pod.nodeName, (l = []));
    l.push(e);
  }
  const changes = new Map<string, readonly PodView[]>();
  for (const [node, entries] of byNode) {
    const base = view.podsByNode.get(node);
    const list = onNodeWith(base, entries, schedulingUid);
    if (list !== base) changes.set(node, list!);
  }
  return changes.size === 0 ? view : { ...view, podsByNode: new OverlayMap(view.podsByNode, changes) };
}
