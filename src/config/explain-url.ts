/** Where `hvx explain` finds hvx's admin port when `--url` is not given. */
export const DEFAULT_EXPLAIN_URL = "http://localhost:9090";

/** `HVX_URL`, else the default admin port on localhost (kubectl plugins get no flags of their own). */
export function explainUrlFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const url = env.HVX_URL?.trim();
  return url ? url : DEFAULT_EXPLAIN_URL;
}
