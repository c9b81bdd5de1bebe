/** Polls `check` until it returns true (or stops throwing); fails after `timeoutMs`. Test helper. */
export async function eventually(check: () => unknown, timeoutMs = 4000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (check() !== false) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw last instanceof Error ? last : new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
