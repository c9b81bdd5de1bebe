import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import axios, { type AxiosInstance } from "axios";
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
  private readonly http: AxiosInstance;
  private readonly base: string;
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(private readonly options: PrometheusClientOptions) {
    this.base = options.url.replace(/\/+$/, "");
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: 4 }),
      https: new https.Agent({
        keepAlive: true,
        maxSockets: 4,
        rejectUnauthorized: !options.insecureSkipTLSVerify,
        ...(options.caPem !== undefined ? { ca: options.caPem } : {}),
      }),
    };
    this.http = axios.create({
      timeout: options.timeoutMs,
      maxRedirects: 0,
      responseType: "text",
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      httpAgent: this.agents.http,
      httpsAgent: this.agents.https,
      proxy: false,
    });
  }

  /** Evaluates `promql` now; one element per series. */
  async query(promql: string): Promise<PromSample[]> {
    let res;
    try {
      res = await this.http.get<string>(`${this.base}/api/v1/query`, {
        params: { query: promql },
        headers: { Accept: "application/json", ...this.authHeader() },
      });
    } catch (err) {
      this.options.onRequest?.("network_error");
      const code = (err as { code?: string }).code ?? "error";
      throw new PrometheusQueryError("network", `Prometheus unreachable (${code}) at ${this.base}`);
    }
    this.options.onRequest?.(res.status >= 200 && res.status < 300 ? "ok" : "error_status");
    return parseQueryResponse(res.status, String(res.data), promql);
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
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
      return { Authorization: `Bearer ${token}` };
    }
    if (o.username !== undefined && o.password !== undefined) {
      return { Authorization: `Basic ${Buffer.from(`${o.username}:${o.password}`, "utf8").toString("base64")}` };
    }
    return {};
  }
}
