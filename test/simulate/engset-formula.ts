/**
 * M/M/c//N written out independently of the code under test: p_k from the closed form
 * C(N, k) a^k (k <= c) and C(N, k) a^k k! / (c! c^(k - c)) (k > c), each factor a plain product.
 */
export function engsetByFormula(N: number, c: number, a: number): { utilisation: number; waitingPerSource: number } {
  const binomial = (n: number, k: number) => {
    let r = 1;
    for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
    return r;
  };
  const factorial = (n: number) => {
    let r = 1;
    for (let i = 2; i <= n; i++) r *= i;
    return r;
  };
  const p: number[] = [];
  for (let k = 0; k <= N; k++) {
    p.push(k <= c ? binomial(N, k) * a ** k : (binomial(N, k) * a ** k * factorial(k)) / (factorial(c) * c ** (k - c)));
  }
  const total = p.reduce((x, y) => x + y, 0);
  let busy = 0;
  let waiting = 0;
  p.forEach((w, k) => {
    busy += (Math.min(k, c) * w) / total;
    waiting += (Math.max(0, k - c) * w) / total;
  });
  return { utilisation: busy / c, waitingPerSource: waiting / N };
}

/** The a = lambda / mu at which N sources keep c servers busy `utilisation` of the time (bisection on the closed form). */
export function offeredForUtilisation(N: number, c: number, utilisation: number): number {
  let lo = 0;
  let hi = 1000;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (engsetByFormula(N, c, mid).utilisation < utilisation) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
