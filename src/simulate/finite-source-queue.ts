/**
 * The finite-source queue M/M/c//N (Engset's model, the "machine-repairman" queue): N sources
 * (vCPUs), each idle for an exponential time of mean 1/lambda, then runnable until served for
 * an exponential time of mean 1/mu by one of c servers (cores). With a = lambda / mu the
 * stationary probability of k runnable sources is (Kleinrock, Queueing Systems vol. 1, 3.10;
 * Gross and Harris, Fundamentals of Queueing Theory, 2.8):
 *
 *   p_k ~ C(N, k) a^k                        0 <= k <= c
 *   p_k ~ C(N, k) a^k k! / (c! c^(k - c))    c <  k <= N
 *
 *   busy servers B = sum_k min(k, c) p_k,    waiting sources W = sum_k max(0, k - c) p_k
 *
 * A source alone (no other source) is busy a fraction p = a / (1 + a) of the time: the input
 * here is that offered fraction, and a = p / (1 - p).
 */
const RESCALE_ABOVE = 1e200;

export interface FiniteSourceQueue {
  /** Mean busy servers (cores running a vCPU). */
  readonly busy: number;
  /** Mean waiting sources (vCPUs runnable but not running: ready). */
  readonly waiting: number;
}

/**
 * M/M/c//N for `sources` vCPUs on `servers` cores, each vCPU offering `offeredFraction` (0..1)
 * of its time when alone. The sums are rescaled as they grow (no overflow for thousands of sources).
 */
export function finiteSourceQueue(sources: number, servers: number, offeredFraction: number): FiniteSourceQueue {
  const N = Math.max(0, Math.floor(sources));
  const c = Math.max(0, Math.floor(servers));
  const p = Math.min(1, Math.max(0, offeredFraction));
  if (N === 0 || p === 0) return { busy: 0, waiting: 0 };
  if (p === 1 || c === 0) return { busy: Math.min(N, c), waiting: Math.max(0, N - c) };
  if (N <= c) return { busy: N * p, waiting: 0 };
  const a = p / (1 - p);
  // p_k / p_(k-1) = (N - k + 1) a / min(k, c); the running sums are rescaled before they overflow
  let term = 1;
  let total = 1;
  let busy = 0;
  let waiting = 0;
  for (let k = 1; k <= N; k++) {
    const served = k < c ? k : c;
    term *= ((N - k + 1) * a) / served;
    total += term;
    busy += served * term;
    if (k > c) waiting += (k - c) * term;
    if (term > RESCALE_ABOVE) {
      term /= RESCALE_ABOVE;
      total /= RESCALE_ABOVE;
      busy /= RESCALE_ABOVE;
      waiting /= RESCALE_ABOVE;
    }
  }
  return { busy: busy / total, waiting: waiting / total };
}
