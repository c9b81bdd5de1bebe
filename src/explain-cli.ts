import { readFile } from "node:fs/promises";
import { UsageError } from "./cli-args.js";
import { renderExplainTable } from "./explain-table.js";
import type { ExplainReply } from "./protocol/explain-wire.js";

export const EXPLAIN_USAGE = "hvx explain [--url URL] (--pod NAMESPACE/NAME | NAMESPACE/NAME | --file ARGS.json) [--json]";

export interface ExplainOptions {
  /** hvx's admin port, e.g. `http://localhost:9090`. */
  readonly url: string;
  readonly target: { readonly pod: string } | { readonly file: string };
  readonly json: boolean;
}

/**
 * `hvx explain` and `kubectl hvx explain` arguments: `--url`, `--pod` (or the pod as the one
 * positional argument, as kubectl plugins are called), `--file`, `--json`.
 */
export function parseExplainArgs(argv: readonly string[], defaultUrl: string): ExplainOptions {
  let url: string | undefined;
  let pod: string | undefined;
  let file: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith("--")
      ? (arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined])
      : [undefined, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      return v;
    };
    if (name === undefined) {
      if (pod !== undefined) throw new UsageError(`unexpected argument '${arg}' for 'explain'`);
      pod = arg;
    } else if (name === "url") url = value();
    else if (name === "pod") pod = value();
    else if (name === "file") file = value();
    else if (name === "json") json = true;
    else throw new UsageError(`unknown option --${name} for 'explain'`);
  }
  if ((pod === undefined) === (file === undefined))
    throw new UsageError(`explain needs either a pod (NAMESPACE/NAME) or --file ARGS.json\n  ${EXPLAIN_USAGE}`);
  if (pod !== undefined && !/^[^/\s]+\/[^/\s]+$/.test(pod)) throw new UsageError(`pod must be NAMESPACE/NAME, got '${pod}'`);
  const base = url ?? defaultUrl;
  try {
    const parsed = new URL(base);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new UsageError(`--url must be an http(s) URL of hvx's admin port, got '${base}'`);
  }
  return { url: base.replace(/\/+$/, ""), target: pod !== undefined ? { pod } : { file: file! }, json };
}

/** A failure the user can act on; the message says what went wrong and where. */
export class ExplainError extends Error {
  override name = "ExplainError";
}

export interface ExplainIo {
  readonly fetch: typeof fetch;
  readonly readFile: (path: string) => Promise<string>;
}

const defaultIo: ExplainIo = { fetch: (input, init) => fetch(input, init), readFile: (path) => readFile(path, "utf8") };

/** Asks hvx's `/debug/explain` and returns the text to print (the table, or the JSON with `--json`). */
export async function runExplain(o: ExplainOptions, io: ExplainIo = defaultIo): Promise<string> {
  const endpoint = `${o.url}/debug/explain`;
  let request: { url: string; init: RequestInit };
  if ("pod" in o.target) {
    request = { url: `${endpoint}?pod=${encodeURIComponent(o.target.pod)}`, init: { method: "GET" } };
  } else {
    let text: string;
    try {
      text = await io.readFile(o.target.file);
    } catch (err) {
      throw new ExplainError(`cannot read ${o.target.file}: ${(err as Error).message}`);
    }
    try {
      JSON.parse(text);
    } catch (err) {
      throw new ExplainError(
        `${o.target.file} is not JSON (expected ExtenderArgs, like examples/filter-nodenames.json): ${(err as Error).message}`,
      );
    }
    request = { url: endpoint, init: { method: "POST", headers: { "Content-Type": "application/json" }, body: text } };
  }
  let res: Response;
  try {
    res = await io.fetch(request.url, { ...request.init, signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    throw new ExplainError(
      `cannot reach hvx at ${o.url} (${why}): give its admin port with --url or HVX_URL (e.g. kubectl -n hvx-system port-forward deploy/hvx 9090)`,
    );
  }
  const body = await res.text();
  if (!res.ok) {
    let message = body.trim();
    try {
      const parsed = JSON.parse(body) as { Error?: unknown };
      if (typeof parsed.Error === "string") message = parsed.Error;
    } catch {
      // not JSON: keep the text
    }
    const hint = res.status === 404 ? " (is this hvx's admin port, server.adminPort?)" : "";
    throw new ExplainError(`${request.init.method} ${endpoint} answered ${res.status}${hint}: ${message.slice(0, 500)}`);
  }
  let reply: ExplainReply;
  try {
    reply = JSON.parse(body) as ExplainReply;
  } catch {
    throw new ExplainError(`${endpoint} answered ${res.status} but not JSON: is ${o.url} hvx's admin port?`);
  }
  if (!reply || !Array.isArray(reply.nodes))
    throw new ExplainError(`${endpoint} answered JSON without "nodes": is ${o.url} hvx's admin port?`);
  return o.json ? `${JSON.stringify(reply, null, 2)}\n` : renderExplainTable(reply);
}
