/**
 * What the oversell decisions need from the configuration (`Config["admission"]`
 * satisfies it structurally). Ratios divide requests: 2.0 halves them; 1.0 leaves them.
 */
export interface OversellPolicy {
  readonly cpuRatio: number;
  readonly memoryRatio: number;
  readonly namespaces: Readonly<Record<string, { readonly cpuRatio?: number; readonly memoryRatio?: number }>>;
  readonly excludeNamespaces: readonly string[];
  readonly preserveGuaranteed: boolean;
  /** Floor for a scaled CPU request, a quantity text (`10m`). */
  readonly minCpu: string;
  /** Floor for a scaled memory request, a quantity text (`16Mi`). */
  readonly minMemory: string;
  /** Cap on cpuRatio x fleet vCPU:pCPU. */
  readonly maxStackedCpuOvercommit: number;
  /** Cap on memoryRatio x fleet vRAM:pRAM. */
  readonly maxStackedMemoryOvercommit: number;
  /** Highest ratio a namespace label (`hvx.io/oversell-*`) may set, per resource; absent: `cpuRatio` / `memoryRatio`. */
  readonly maxLabelRatio: { readonly cpu?: number; readonly memory?: number };
  /** A pod with more containers (init containers included) is left unscaled, with a warning. */
  readonly maxContainers: number;
  /** CPU ratio falls to 1.0 when more than this share (0..100) of the hosts is hot. */
  readonly hotHostBrakePercent: number;
}
