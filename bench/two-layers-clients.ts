import { parentPort } from "node:worker_threads";

/**
 * The two-layer bench's HTTP clients, in a worker thread so that their own work (sending,
 * reading and timing requests, reading the page's large answers) stays off the main thread,
 * as kube-scheduler and a browser are other processes. On `{ block }` it sends filter requests
 * one after another for `lengthMs`, fetches the page's paths once `pageAfterMs` in (if any),
 * and answers the filter latencies (ms).
 */
export interface ClientBlock {
  readonly filterUrl: string;
  readonly body: string;
  readonly lengthMs: number;
  readonly pageUrls: readonly string[];
  readonly pageAfterMs: number;
}

async function block(b: ClientBlock): Promise<number[]> {
  let refresh: Promise<unknown> | undefined;
  const timer =
    b.pageUrls.length > 0
      ? setTimeout(() => (refresh = Promise.all(b.pageUrls.map((u) => fetch(u).then((r) => r.arrayBuffer())))), b.pageAfterMs)
      : undefined;
  const out: number[] = [];
  const end = performance.now() + b.lengthMs;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(b.filterUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: b.body });
    await res.arrayBuffer();
    out.push(performance.now() - t0);
  }
  clearTimeout(timer);
  await refresh;
  return out;
}

parentPort?.on("message", (b: ClientBlock) => {
  block(b).then(
    (latencies) => parentPort!.postMessage({ latencies }),
    (err: unknown) => parentPort!.postMessage({ error: String(err) }),
  );
});
