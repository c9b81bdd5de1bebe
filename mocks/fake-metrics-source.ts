import type { InventoryView } from "../src/model/inventory.js";
import type { MetricsSource } from "../src/model/metrics-source.js";

/** A MetricsSource whose snapshot a test sets directly. */
export class FakeMetricsSource implements MetricsSource {
  constructor(private snapshot: InventoryView) {}
  latest(): InventoryView {
    return this.snapshot;
  }
  set(snapshot: InventoryView): void {
    this.snapshot = snapshot;
  }
}
