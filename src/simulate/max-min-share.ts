/**
 * Max-min fair allocation by shares with floors and caps (ESXi's proportional-share
 * entitlement; docs/simulation.md section 4): entry i gets
 *
 *   a_i = clamp(lambda x shares_i, floor_i, cap_i),   lambda such that sum(a_i) = capacity,
 *
 * every cap when they all fit, and the floors scaled down to the capacity when even they do
 * not (reservations admission control would have refused). Dense arrays, read for i < n.
 */
export function maxMinShare(
  n: number,
  cap: Float64Array,
  floor: Float64Array,
  shares: Float64Array,
  capacity: number,
  out: Float64Array,
  breakpoints: Float64Array,
): void {
  let capSum = 0;
  let floorSum = 0;
  for (let i = 0; i < n; i++) {
    capSum += cap[i]!;
    floorSum += floor[i]!;
  }
  if (capSum <= capacity) {
    for (let i = 0; i < n; i++) out[i] = cap[i]!;
  } else if (floorSum >= capacity) {
    const f = floorSum > 0 ? capacity / floorSum : 0;
    for (let i = 0; i < n; i++) out[i] = floor[i]! * f;
  } else {
    const lambda = waterLevel(n, cap, floor, shares, capacity, breakpoints);
    for (let i = 0; i < n; i++) out[i] = clamp(lambda * shares[i]!, floor[i]!, cap[i]!);
  }
}

/** The water level lambda (capacity per share) at which sum(clamp(lambda x s_i, floor_i, cap_i)) = capacity. */
function waterLevel(n: number, cap: Float64Array, floor: Float64Array, shares: Float64Array, capacity: number, bp: Float64Array): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const s = shares[i]!;
    if (s <= 0) continue;
    bp[m++] = floor[i]! / s;
    bp[m++] = cap[i]! / s;
  }
  const points = bp.subarray(0, m).sort();
  const total = (lambda: number): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const s = shares[i]!;
      sum += s > 0 ? clamp(lambda * s, floor[i]!, cap[i]!) : floor[i]!;
    }
    return sum;
  };
  // total() is piecewise linear and non-decreasing in lambda; find the segment that reaches the capacity
  let lo = 0;
  let loSum = total(0);
  for (let k = 0; k < points.length; k++) {
    const hi = points[k]!;
    if (hi <= lo) continue;
    const hiSum = total(hi);
    if (hiSum >= capacity) return hiSum > loSum ? lo + ((capacity - loSum) / (hiSum - loSum)) * (hi - lo) : hi;
    lo = hi;
    loSum = hiSum;
  }
  return lo;
}

export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
