import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { expect } from "chai";
import { PrometheusClient } from "../../src/prometheus/prometheus-client.js";
import { PrometheusQueryError } from "../../src/prometheus/prometheus-query-error.js";

const VECTOR = JSON.stringify({
  status: "success",
  data: { resultType: "vector", result: [{ metric: { esx_host: "esx-01" }, value: [1700000000, "42.5"] }] },
});
const base = { timeoutMs: 2000, insecureSkipTLSVerify: false };

describe("PrometheusClient", () => {
  let server: http.Server | undefined;
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "hvx-prom-client-"))));
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
    }
    server = undefined;
  });

  async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<string> {
    server = http.createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  async function failure(promise: Promise<unknown>): Promise<PrometheusQueryError> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(PrometheusQueryError);
    return err as PrometheusQueryError;
  }

  it("given a gzip answer, sends the query and the bearer token re-read per request, and parses the vector", async () => {
    const seen: Array<{ query: string | null; auth?: string }> = [];
    const url = await serve((req, res) => {
      seen.push({ query: new URL(req.url ?? "", "http://x").searchParams.get("query"), auth: req.headers.authorization });
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(VECTOR));
    });
    const tokenFile = join(dir, "token");
    writeFileSync(tokenFile, "tok-1\n");
    const client = new PrometheusClient({ ...base, url: `${url}/`, bearerTokenFile: tokenFile });
    const first = await client.query('vsphere_host_cpu_usage_average{vcenter="vc01"}');
    writeFileSync(tokenFile, "tok-2\n");
    await client.query("up");
    client.close();
    expect(first).to.deep.equal([{ labels: { esx_host: "esx-01" }, value: 42.5, atMs: 1_700_000_000_000 }]);
    expect(seen).to.deep.equal([
      { query: 'vsphere_host_cpu_usage_average{vcenter="vc01"}', auth: "Bearer tok-1" },
      { query: "up", auth: "Bearer tok-2" },
    ]);
  });

  it("given an unreadable token file, fails as a config error naming the file, without a request", async () => {
    let requests = 0;
    const url = await serve((_req, res) => {
      requests += 1;
      res.end(VECTOR);
    });
    const outcomes: string[] = [];
    const client = new PrometheusClient({ ...base, url, bearerTokenFile: join(dir, "missing"), onRequest: (o) => outcomes.push(o) });
    const err = await failure(client.query("up"));
    client.close();
    expect(err.kind).to.equal("config");
    expect(err.message).to.equal(`cannot read prometheus.bearerTokenFile ${join(dir, "missing")}: ENOENT`);
    expect(requests).to.equal(0);
    expect(outcomes).to.deep.equal([]);
  });

  it("given credentials in prometheus.url and no answer, names the URL without them", async () => {
    const url = await serve((req) => req.socket.destroy());
    const client = new PrometheusClient({ ...base, url: url.replace("http://", "http://hvx:s3cret-pw@") + "/prometheus" });
    const err = await failure(client.query("up"));
    client.close();
    expect(err.message).to.equal(`Prometheus unreachable (ECONNRESET) at ${url}/prometheus`);
  });

  it("given no answer within the timeout, fails as a network error saying so and naming no credentials", async () => {
    const url = await serve(() => undefined);
    const client = new PrometheusClient({ ...base, timeoutMs: 100, url, username: "hvx", password: "s3cret-pw" });
    const err = await failure(client.query("up"));
    client.close();
    expect(err.kind).to.equal("network");
    expect(err.message).to.equal(`Prometheus unreachable (ETIMEDOUT, no answer within 100 ms) at ${url}`);
    expect(JSON.stringify(err) + String(err.stack)).to.not.include(Buffer.from("hvx:s3cret-pw").toString("base64"));
  });
});
