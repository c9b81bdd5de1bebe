/**
 * Seeded randomness, shared by the simulator and the mocks (a mock must not import the
 * simulator). No Math.random anywhere in the model: the same seed gives the same run, byte for byte.
 *
 * - `mulberry32(seed)`: a small sequential generator (tie-breaks inside one strategy run).
 * - `hash01(a, b, c)`: a stateless uniform draw in [0, 1) keyed by integers, so a pod's
 *   usage series does not depend on the order in which the model asks for it (every
 *   strategy sees exactly the same workload).
 */
export type Rng = () => number;

/** mulberry32: 32-bit state, period 2^32; returns uniforms in [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer hash (murmur3 finaliser over a mix of three keys) mapped to [0, 1). */
export function hash01(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35) ^ Math.imul(c + 0x165667b1, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/**
 * Approximately standard normal draw from three keyed uniforms (Irwin-Hall, n = 3:
 * sum - 1.5 has variance 3/12, so x2 gives variance 1). Range is [-3, 3], which keeps
 * usage from ever going wildly negative.
 */
export function hashNormal(a: number, b: number, c: number): number {
  return (hash01(a, b, c) + hash01(a, b, c + 0x3c6ef372) + hash01(a, b, c + 0x5851f42d) - 1.5) * 2;
}
