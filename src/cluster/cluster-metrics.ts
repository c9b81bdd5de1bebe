import { Counter, Gauge, type Registry } from "prom-client";

/** Metrics of the Kubernetes informers, registered on the caller's registry (prefix `hvx_cluster_`). */
export interface ClusterMetrics {
  readonly events: Counter<"resource" | "type">;
  readonly relists: Counter<"resource">;
  readonly errors: Counter<"resource">;
  readonly reconnects: Counter<"resource">;
  readonly idleRestarts: Counter<"resource">;
  readonly objects: Gauge<"resource">;
  readonly synced: Gauge;
  /** Supplies the cache age (seconds since the API server was last heard from); undefined = never. */
  bindCacheAge(ageSeconds: () => number | undefined): void;
}

export function createClusterMetrics(registry: Registry): ClusterMetrics {
  let age: () => number | undefined = () => undefined;
  const registers = [registry];
  new Gauge({
    name: "hvx_cluster_cache_age_seconds",
    help: "Seconds since the Kubernetes API server was last heard from (list, watch event or bookmark); -1 before the first sync",
    registers,
    collect() {
      this.set(age() ?? -1);
    },
  });
  return {
    events: new Counter({
      name: "hvx_cluster_events_total",
      help: "Informer events applied, by resource and type (add, update, delete)",
      labelNames: ["resource", "type"],
      registers,
    }),
    relists: new Counter({
      name: "hvx_cluster_relists_total",
      help: "Full lists after the first one (410 Gone or restart after an error)",
      labelNames: ["resource"],
      registers,
    }),
    errors: new Counter({
      name: "hvx_cluster_errors_total",
      help: "List or watch failures (API server unreachable, 5xx, ...)",
      labelNames: ["resource"],
      registers,
    }),
    reconnects: new Counter({
      name: "hvx_cluster_watch_reconnects_total",
      help: "Watch connections after the first one",
      labelNames: ["resource"],
      registers,
    }),
    idleRestarts: new Counter({
      name: "hvx_cluster_watch_idle_restarts_total",
      help: "Watches restarted because they delivered nothing (no event, no bookmark) for kubernetes.watchIdleSeconds",
      labelNames: ["resource"],
      registers,
    }),
    objects: new Gauge({
      name: "hvx_cluster_objects",
      help: "Objects held in the cluster view (pods: bound and not terminal)",
      labelNames: ["resource"],
      registers,
    }),
    synced: new Gauge({ name: "hvx_cluster_synced", help: "1 once nodes, pods and namespaces have all been listed", registers }),
    bindCacheAge(fn) {
      age = fn;
    },
  };
}
