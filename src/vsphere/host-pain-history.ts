import type { InventoryView } from "../model/inventory.js";

/**
 * When each ESXi host last showed memory pain (balloon or swap-in above zero) and last was
 * hot, as seen on each poll: what the advice needs for "in the last 24 h" and "in the last
 * hour". One entry per host; hosts not seen for a day are forgotten, so it stays bounded.
 */
export class HostPainHistory {
  private readonly memoryPainAtMs = new Map<string, number>();
  private readonly hotAtMs = new Map<string, number>();
  private readonly seenAtMs = new Map<string, number>();

  static readonly KEEP_MS = 24 * 3_600_000;

  /** Records one observation; `isHot` is the host's current verdict. Only fresh samples count. */
  observe(inventory: InventoryView, isHot: (hostId: string) => boolean, nowMs: number): void {
    for (const host of inventory.hosts.values()) {
      this.seenAtMs.set(host.id, nowMs);
      const m = host.metrics;
      if (m && ((m.balloonMiB ?? 0) > 0 || (m.swapInKBps ?? 0) > 0)) this.memoryPainAtMs.set(host.id, m.sampledAtMs);
      if (isHot(host.id)) this.hotAtMs.set(host.id, nowMs);
    }
    for (const [id, at] of this.seenAtMs) {
      if (nowMs - at <= HostPainHistory.KEEP_MS) continue;
      this.seenAtMs.delete(id);
      this.memoryPainAtMs.delete(id);
      this.hotAtMs.delete(id);
    }
  }

  /** Hosts that ballooned or swapped in within `windowMs` before `nowMs`. */
  memoryPainSince(nowMs: number, windowMs: number): Set<string> {
    return since(this.memoryPainAtMs, nowMs - windowMs);
  }

  /** Hosts that were hot within `windowMs` before `nowMs`. */
  hotSince(nowMs: number, windowMs: number): Set<string> {
    return since(this.hotAtMs, nowMs - windowMs);
  }
}

function since(map: ReadonlyMap<string, number>, fromMs: number): Set<string> {
  const out = new Set<string>();
  for (const [id, at] of map) if (at >= fromMs) out.add(id);
  return out;
}
