import { parseArgs, UsageError } from "./cli-args.js";
import type { Finding } from "./placement/advise.js";
import type { OversellLedger } from "./placement/oversell-ledger.js";
import { renderAdvice } from "./protocol/render-advice.js";
import { renderOversellReport } from "./protocol/render-oversell-report.js";

export const DEFAULT_ADMIN_URL = "http://localhost:9090";

/** `hvx report oversell` and `hvx advise`: read a running hvx's admin port and print. */
export async function runReportCommand(
  argv: readonly string[],
  out: (text: string) => void,
  fetchJson: (url: string) => Promise<unknown> = getJson,
): Promise<number> {
  const [first, second, ...rest] = argv;
  let command: "report-oversell" | "advise";
  let flagArgs: readonly string[];
  if (first === "report") {
    if (second !== "oversell") throw new UsageError(`'hvx report' knows only 'oversell' (got '${second ?? ""}')`);
    command = "report-oversell";
    flagArgs = rest;
  } else {
    command = "advise";
    flagArgs = argv.slice(1);
  }
  const { flags } = parseArgs([command, ...flagArgs], { [command]: ["url", "json?"] });
  const base = parseBaseUrl((flags.get("url") as string | undefined) ?? DEFAULT_ADMIN_URL);
  const path = command === "advise" ? "/debug/advice" : "/debug/oversell";
  const body = await fetchJson(new URL(path, base).toString());
  if (flags.has("json")) {
    out(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  if (command === "advise") {
    const findings = (body as { findings?: unknown } | null)?.findings;
    if (!Array.isArray(findings)) throw new Error(`${path} did not answer with findings: is --url an hvx admin port?`);
    const sourceDown = (body as { sourceDown?: unknown }).sourceDown;
    out(renderAdvice(findings as Finding[], typeof sourceDown === "string" ? sourceDown : undefined));
  } else {
    const ledger = body as Partial<OversellLedger> | null;
    if (!ledger || !ledger.totals || !Array.isArray(ledger.hosts) || !Array.isArray(ledger.namespaces))
      throw new Error(`${path} did not answer with a ledger: is --url an hvx admin port?`);
    out(renderOversellReport(ledger as OversellLedger));
  }
  return 0;
}

function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url '${text}' is not a URL (e.g. http://localhost:9090)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--url must be http or https, not ${url.protocol}`);
  return url;
}

async function getJson(url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
}
