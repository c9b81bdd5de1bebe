/**
 * Kubernetes `MicroTime`: RFC 3339 in UTC with exactly six fractional digits,
 * e.g. `2026-11-29T10:00:00.123456Z` (JS clocks give milliseconds, so the last three are 0).
 */
export function toMicroTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Epoch ms of a MicroTime / Time text or a `Date`; undefined when absent or unreadable. */
export function fromKubeTime(value: string | Date | null | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}
