import { hostname } from "node:os";
import { CoordinationV1Api, type KubeConfig } from "@kubernetes/client-node";
import { LeaseElector, makeTimedApiClient } from "../cluster/index.js";
import type { Logger } from "../observability/logger.js";

export interface LeaseElectorWiring {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  /** The Lease's name; the elector's default when absent. */
  readonly name?: string;
  readonly leaseDurationSeconds: number;
  readonly requestTimeoutSeconds: number;
  readonly podName: string | undefined;
  readonly log: Logger;
}

/** A Lease elector whose identity names this pod and process; not yet started. */
export function newLeaseElector(w: LeaseElectorWiring): { elector: LeaseElector; identity: string } {
  const identity = `${w.podName ?? hostname()}-${process.pid}`;
  // A Lease call may not outlive the renew deadline (2/3 of the lease), as in client-go.
  const timeoutMs = Math.min(w.requestTimeoutSeconds * 1000, (w.leaseDurationSeconds * 1000 * 2) / 3);
  const elector = new LeaseElector({
    api: makeTimedApiClient(w.kubeConfig, CoordinationV1Api, timeoutMs),
    namespace: w.namespace,
    ...(w.name !== undefined ? { name: w.name } : {}),
    identity,
    leaseDurationSeconds: w.leaseDurationSeconds,
    log: w.log,
  });
  return { elector, identity };
}
