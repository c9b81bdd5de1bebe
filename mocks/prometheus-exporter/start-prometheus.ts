import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PrometheusHandle {
  readonly url: string;
  /** Resolves once every target has been scraped at least once with success. */
  waitForTargets(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Path of the real Prometheus server (Debian's `prometheus` package), or undefined when absent. */
export function prometheusBinary(): string | undefined {
  if (existsSync("/usr/bin/prometheus")) return "/usr/bin/prometheus";
  const found = spawnSync("sh", ["-c", "command -v prometheus"], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path !== "" ? path : undefined;
}

/**
 * Starts the real Prometheus on a free loopback port with a throw-away TSDB, scraping
 * `targets` every `scrapeIntervalSeconds` (1 s: tests are quick). Never the system service.
 */
export async function startPrometheus(targets: readonly string[], scrapeIntervalSeconds = 1): Promise<PrometheusHandle> {
  const bin = prometheusBinary();
  if (bin === undefined) throw new Error("the prometheus binary is not installed (apt-get install prometheus)");
  const dir = mkdtempSync(join(tmpdir(), "hvx-prometheus-"));
  const port = await freePort();
  writeFileSync(
    join(dir, "prometheus.yml"),
    [
      "global:",
      `  scrape_interval: ${scrapeIntervalSeconds}s`,
      `  scrape_timeout: ${scrapeIntervalSeconds}s`,
      "scrape_configs:",
      "  - job_name: vsphere",
      "    static_configs:",
      `      - targets: [${targets.map((t) => `"${t}"`).join(", ")}]`,
    ].join("\n"),
  );
  const child: ChildProcess = spawn(
    bin,
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=error",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await poll(
      async () => (await fetch(`${url}/-/ready`)).ok,
      20_000,
      () => `Prometheus did not become ready: ${stderr}`,
    );
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url,
    waitForTargets: (timeoutMs = 15_000) =>
      poll(
        async () => {
          const body = (await (await fetch(`${url}/api/v1/query?query=${encodeURIComponent('up{job="vsphere"}')}`)).json()) as {
            data?: { result?: Array<{ value: [number, string] }> };
          };
          const r = body.data?.result ?? [];
          return r.length === targets.length && r.every((s) => s.value[1] === "1");
        },
        timeoutMs,
        () => "Prometheus has not scraped every target",
      ),
    close,
  };
}

async function poll(check: () => Promise<boolean>, timeoutMs: number, why: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
