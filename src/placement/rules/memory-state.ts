import type { MemState } from "../../model/inventory.js";

/**
 * The host's free-memory state (mem.state): an enum, not a number, so it keeps its own
 * judgement; its other facts read like a metric rule's.
 */
export const memoryState = {
  name: "memory-state",
  scope: "host",
  metric: "memory state",
  unit: "",
  op: "in",
  reject: ["hard", "low"],
  warn: ["soft"],
  relievedByEviction: true,
  predicted: false,
  display: { label: "memory state" },
} as const;

/** `reject` in hard or low, `warn` in soft, undefined otherwise (unknown included). */
export function judgeMemoryState(state: MemState | undefined): "reject" | "warn" | undefined {
  if (state === undefined) return undefined;
  if ((memoryState.reject as readonly MemState[]).includes(state)) return "reject";
  return (memoryState.warn as readonly MemState[]).includes(state) ? "warn" : undefined;
}
