import { readFileSync } from "node:fs";
import { createHttpSender, type HttpSender } from "../http-client/create-http-sender.js";
import { HttpExchangeError, safeErrorCode } from "../http-client/http-exchange-error.js";
import { parseQueryResponse, type PromSample } from "./parse-query-response.js";
import { PrometheusQueryError } from "./prometheus-query-error.js";

export interface PrometheusClientOptions {
  /** Base URL of a Prometheus-compatible API (`http://prometheus:9090`, Mimir's `.../prometheus`). */
  readonly url: string;
  readonly timeoutMs: number;
  readonly bearerTokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly caPem?: string;
  readonly insecureSkipTLSVerify: boolean;
  readonly onRequest?: (outcome: "ok" | "error_status" | "network_error") => void;
}

/**
 * Instant queries (`GET /api/v1/query`). Errors carry no request headers (Authorization
 * never escapes into logs). The bearer token file is re-read per request, so a rotated
 * token is picked up without a restart.
 */
export class PrometheusClient {
  private readonly sender: HttpSender;
  private readonly base: string;
  /** The base URL for messages: any `user:password@` in prometheus.url left out. */
  private readonly where: string;

  constructor(private readonly options: PrometheusClientOptions) {
    this.base = options.url.replace(/\/+$/, "");
    this.where = withoutCredentials(this.base);
    this.sender = createHttpSender({
      timeoutMs: options.timeoutMs,
      ...(options.caPem !== undefined ? { caPem: options.caPem } : {}),
      insecureSkipTLSVerify: options.insecureSkipTLSVerify,
      maxSockets: 4,
    });
  }

  /** Evaluates `promql` now; one element per series. */
  async query(promql: string): Promise<PromSample[]> {
    // Built before the request, so an unreadable token file is a config error, not "unreachable".
    const headers = { accept: "application/json", ...this.authHeader() };
    let res;
    try {
      const url = new URL(`${this.base}/api/v1/query`);
      url.searchParams.set("query", promql);
      res = await this.sender.send({ method: "GET", url, headers });
    } catch (err) {
      this.options.onRequest?.("network_error");
      const detail = err instanceof HttpExchangeError && err.detail ? `, ${err.detail}` : "";
      throw new PrometheusQueryError("network", `Prometheus unreachable (${safeErrorCode(err)}${detail}) at ${this.where}`);
    }
    this.options.onRequest?.(res.status >= 200 && res.status < 300 ? "ok" : "error_status");
    return parseQueryResponse(res.status, res.bodyText, promql);
  }

  close(): void {
    this.sender.close();
  }

  private authHeader(): Record<string, string> {
    const o = this.options;
    if (o.bearerTokenFile !== undefined) {
      let token: string;
      try {
        token = readFileSync(o.bearerTokenFile, "utf8").trim();
      } catch (err) {
        throw new PrometheusQueryError(
          "config",
          `cannot read prometheus.bearerTokenFile ${o.bearerTokenFile}: ${(err as NodeJS.ErrnoException).code ?? "error"}`,
        );
      }
      return { authorization: `Bearer ${token}` };
    }
    if (o.username !== undefined && o.password !== undefined) {
      return { authorization: `Basic ${Buffer.from(`${o.username}:${o.password}`, "utf8").toString("base64")}` };
    }
    return {};
  }
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href.replace(/\/+$/, "");
  } catch {
    return "prometheus.url";
  }
}
