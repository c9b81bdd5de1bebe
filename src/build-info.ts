import { readFileSync } from "node:fs";

let version: string | undefined;

/**
 * hvx's version from its package.json (two levels above dist/src, in the source tree as in
 * the image, which copies package.json to /app); "unknown" when it cannot be read.
 */
export function hvxVersion(): string {
  if (version === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
      version = typeof pkg.version === "string" ? pkg.version : "unknown";
    } catch {
      version = "unknown";
    }
  }
  return version;
}
