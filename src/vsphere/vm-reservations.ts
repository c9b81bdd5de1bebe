import { z } from "zod";
import type { Logger } from "../observability/logger.js";
import type { VmReservation } from "../placement/advise.js";

/**
 * `VirtualMachine/{id}/summary` (VI/JSON) as far as the advice reads it:
 * `summary.config` is a VirtualMachineConfigSummary whose `memoryReservation` is in MB and
 * `cpuReservation` in MHz. A summary without `config` (VM being created or deleted) is unknown.
 */
export const vmSummarySchema = z
  .object({
    config: z
      .object({ memoryReservation: z.number().int().min(0).optional(), cpuReservation: z.number().int().min(0).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type VmSummaryInfo = z.infer<typeof vmSummarySchema>;

/** The reservations of a summary; undefined when vCenter did not say (no opinion). */
export function toVmReservation(summary: VmSummaryInfo): VmReservation | undefined {
  const c = summary.config;
  if (!c || c.memoryReservation === undefined) return undefined;
  return { memoryReservationMiB: c.memoryReservation, cpuReservationMhz: c.cpuReservation ?? 0 };
}

export interface VmReservationsOptions {
  /** Reads one VM's summary (the poller's VI/JSON session). */
  readonly readSummary: (vmId: string) => Promise<VmSummaryInfo>;
  readonly clock: () => number;
  /** A VM's reservation is read again after this long (1 h). */
  readonly refreshMs: number;
  /** At most this many summaries per `refresh` call, so a big fleet is read over several polls. */
  readonly maxReadsPerRefresh: number;
  readonly log: Logger;
}

/**
 * Node VMs' reservations, read once per VM and refreshed hourly, one summary at a time (it
 * never competes with the poll cycle). VMs that left are forgotten at the next refresh.
 */
export class VmReservations {
  private readonly known = new Map<string, { readonly atMs: number; readonly value?: VmReservation }>();
  private running = false;

  constructor(private readonly options: VmReservationsOptions) {}

  current(): ReadonlyMap<string, VmReservation> {
    const out = new Map<string, VmReservation>();
    for (const [id, e] of this.known) if (e.value) out.set(id, e.value);
    return out;
  }

  /** Reads the due VMs among `vmIds` (never read, or read longer than refreshMs ago). */
  async refresh(vmIds: readonly string[]): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const wanted = new Set(vmIds);
      for (const id of this.known.keys()) if (!wanted.has(id)) this.known.delete(id);
      const now = this.options.clock();
      const due = vmIds.filter((id) => {
        const e = this.known.get(id);
        return !e || now - e.atMs >= this.options.refreshMs;
      });
      for (const id of due.slice(0, this.options.maxReadsPerRefresh)) {
        try {
          const value = toVmReservation(await this.options.readSummary(id));
          this.known.set(id, value ? { atMs: this.options.clock(), value } : { atMs: this.options.clock() });
        } catch (err) {
          // Unknown until the next refresh; a failed read keeps the last known value.
          this.options.log.debug({ vm: id, error: (err as Error).message }, "VM summary not read (reservations)");
        }
      }
    } finally {
      this.running = false;
    }
  }
}
