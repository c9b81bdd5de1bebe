/** Runs `task` once a slot is free; at most `maxConcurrent` tasks run at a time. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A tiny FIFO semaphore (no dependency). Tasks queue in call order; a slot is released
 * when the task settles, whether it resolved or rejected.
 */
export function createLimiter(maxConcurrent: number): Limiter {
  if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new RangeError(`maxConcurrent must be a positive integer, got ${maxConcurrent}`);
  }
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    running -= 1;
    const next = waiting.shift();
    if (next) next();
  };
  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const go = (): void => {
        running += 1;
        let pending: Promise<T>;
        try {
          pending = task();
        } catch (err) {
          pending = Promise.reject(err);
        }
        pending.then(resolve, reject).finally(release);
      };
      if (running < maxConcurrent) go();
      else waiting.push(go);
    });
}
