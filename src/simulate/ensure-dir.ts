import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Creates `dir` and its missing parents, one level at a time. Node.js's (20 and 24)
 * `mkdirSync(..., { recursive: true })` spins forever on some pseudo file systems
 * (e.g. under /proc); this fails with the first error instead.
 */
export function ensureDir(dir: string): void {
  const path = resolve(dir);
  try {
    if (statSync(path).isDirectory()) return;
    throw new Error(`cannot write to ${dir}: not a directory`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const parent = dirname(path);
  if (parent !== path) ensureDir(parent);
  try {
    mkdirSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST")
      throw new Error(`cannot create ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  }
}
