/**
 * kube-scheduler's default resource scoring, as small pure functions with the upstream
 * integer arithmetic (pkg/scheduler/framework/plugins/noderesources):
 *
 *   LeastAllocated, per resource:  ((capacity - requested) x 100) / capacity   (int64 division;
 *                                  0 when capacity is 0 or requested > capacity)
 *   NodeResourcesFit score:        sum(score_r x weight_r) / sum(weight_r)   (cpu 1, memory 1)
 *                                  on "non-zero" requests (a pod without a request counts
 *                                  100m CPU and 200 MiB memory: schedutil's DefaultMemoryRequest
 *                                  is 200 x 1024 x 1024 bytes)
 *   BalancedAllocation:            fraction_r = min(1, requested_r / allocatable_r);
 *                                  with two resources std = |f_cpu - f_mem| / 2;
 *                                  score = int64((1 - std) x 100)            (actual requests)
 * "requested" always includes the incoming pod. Scores are 0..100 (MaxNodeScore).
 */
export const MAX_NODE_SCORE = 100;
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST_BYTES = 200 * 1024 * 1024;
export const DEFAULT_MEMORY_REQUEST_MIB = DEFAULT_MEMORY_REQUEST_BYTES / (1024 * 1024);

export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity <= 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** NodeResourcesFit with the LeastAllocated strategy, cpu and memory weighted 1 each. */
export function leastAllocatedScore(
  requestedCpuMilli: number,
  allocCpuMilli: number,
  requestedMemBytes: number,
  allocMemBytes: number,
): number {
  return Math.floor((leastRequestedScore(requestedCpuMilli, allocCpuMilli) + leastRequestedScore(requestedMemBytes, allocMemBytes)) / 2);
}

export function balancedAllocationScore(
  requestedCpuMilli: number,
  allocCpuMilli: number,
  requestedMemBytes: number,
  allocMemBytes: number,
): number {
  const fractions: number[] = [];
  if (allocCpuMilli > 0) fractions.push(Math.min(1, requestedCpuMilli / allocCpuMilli));
  if (allocMemBytes > 0) fractions.push(Math.min(1, requestedMemBytes / allocMemBytes));
  const std = fractions.length === 2 ? Math.abs((fractions[0]! - fractions[1]!) / 2) : 0;
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

export function nonZeroCpuMilli(requestMilli: number): number {
  return requestMilli > 0 ? requestMilli : DEFAULT_MILLI_CPU_REQUEST;
}

export function nonZeroMemoryBytes(requestBytes: number): number {
  return requestBytes > 0 ? requestBytes : DEFAULT_MEMORY_REQUEST_BYTES;
}
