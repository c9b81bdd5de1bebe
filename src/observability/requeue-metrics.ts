import { Counter, type Registry } from "prom-client";

/** `hvx_requeued_pods_total{outcome}`: pending pods touched so kube-scheduler retries them once their host cooled. */
export function createRequeueMetrics(registry: Registry): (outcome: "requeued" | "gone" | "failed") => void {
  const counter = new Counter({
    name: "hvx_requeued_pods_total",
    help: "Pending pods hvx rejected for host heat and touched once the host cooled, so kube-scheduler retries them: requeued (patched), gone (404), failed.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of ["requeued", "gone", "failed"] as const) counter.inc({ outcome }, 0);
  return (outcome) => counter.inc({ outcome });
}
