/** What hvx needs to know about a Kubernetes node to find its VM. */
export interface NodeIdentity {
  readonly name: string;
  /** `spec.providerID`, e.g. `vsphere://420f0d85-cf4a-c7a7-e52d-18e9b4b71dec`. */
  readonly providerID?: string;
  /** `status.nodeInfo.systemUUID`, as the guest reports it. */
  readonly systemUUID?: string;
}
