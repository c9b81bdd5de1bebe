/**
 * `npm run soak -- --minutes N`: hvx under steady load and recurring faults (issue 8 §7).
 *
 * Runs `hvx serve` as a child process (with the Deployment's NODE_OPTIONS: its heap sizes) against
 * the mock vCenter (demo scenario) and the fake Kubernetes API server, both in this process.
 * Sends a steady mix of filter, prioritize, preempt (both victim modes) and mutate (HTTPS), plus
 * 1 % deliberately malformed bodies, while:
 *   - vCenter flaps every 30 s (every call answered 503 for 10 s, and every session expired),
 *   - every watch is dropped every 45 s,
 *   - the webhook certificate is replaced on disk every 2 minutes (hvx must serve the new one),
 *   - pods come and go at 5 per second (informer events, cache snapshots).
 *   - one host fails every other poll cycle (its HostSystem summary answers a SystemError).
 *
 * Reports per endpoint the count, unexpected answers (anything but 2xx, and anything but 400
 * for the deliberate bad requests) and p50/p99/max latency; hvx's resident memory at start,
 * after warm-up and at the end; event-loop delay p99 (hvx's own
 * `nodejs_eventloop_lag_p99_seconds`, read from /metrics on the admin port when the config
 * has `server.adminPort`, else on the extender port); certificate rotations seen by a client.
 * Exits 1 when a criterion fails: any unexpected answer or internal error, hvx exiting before
 * the end, memory growth of 10 % or more after warm-up, a p99 above `--max-p99-ms` (2000, the
 * manifest's httpTimeout), an event-loop delay p99 above `--max-loop-delay-ms` (1000), or a
 * certificate rotation not served within 30 s.
 *
 * Flags: --minutes N (1), --rate R requests/s (200), --warmup-seconds S (20 % of the run, 10..120),
 * --metrics-port P (read /metrics there), --json FILE (write the report), --keep (keep the work dir).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { fileURLToPath } from "node:url";
import { demoCluster, startFakeKubeApiserver } from "../mocks/kube-apiserver/index.js";
import { demoScenarioPath, loadScenario, startMockVcenter } from "../mocks/vcenter/index.js";
import { parseConfig } from "../src/config/index.js";
import { deploymentNodeOptions } from "../test/manifests/deployment-node-options.js";
import { endsWithThisProcess } from "./child-processes.js";
import { percentile } from "./figure.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli.js");
type Endpoint = "filter" | "prioritize" | "preempt" | "mutate" | "bad";
const ENDPOINTS: readonly Endpoint[] = ["filter", "prioritize", "preempt", "mutate", "bad"];
/** Share of the requests per endpoint (sums to 1). */
const MIX: Record<Endpoint, number> = { filter: 0.35, prioritize: 0.3, preempt: 0.15, mutate: 0.19, bad: 0.01 };
const FLAP_EVERY_MS = 30_000;
const FLAP_FOR_MS = 10_000;
const DROP_WATCHES_EVERY_MS = 45_000;
const ROTATE_EVERY_MS = 120_000;
const SAMPLE_EVERY_MS = 5_000;
const POLL_SECONDS = 5;

interface Options {
  minutes: number;
  rate: number;
  warmupSeconds: number;
  metricsPort?: number;
  maxP99Ms: number;
  maxLoopDelayMs: number;
  json?: string;
  keep: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${raw}`);
    return n;
  };
  const minutes = num("minutes", 1);
  const metricsPort = value("metrics-port");
  return {
    minutes,
    rate: num("rate", 200),
    warmupSeconds: num("warmup-seconds", Math.min(120, Math.max(10, minutes * 60 * 0.2))),
    ...(metricsPort !== undefined ? { metricsPort: num("metrics-port", 0) } : {}),
    maxP99Ms: num("max-p99-ms", 2000),
    maxLoopDelayMs: num("max-loop-delay-ms", 1000),
    ...(value("json") !== undefined ? { json: value("json")! } : {}),
    keep: argv.includes("--keep"),
  };
}

interface Sample {
  readonly atMs: number;
  readonly rssBytes?: number;
  readonly loopP99Ms?: number;
}

interface Answer {
  readonly status: number;
  readonly ms: number;
}

async function main(argv: readonly string[]): Promise<number> {
  const o = parseOptions(argv);
  const dir = mkdtempSync(join(tmpdir(), "hvx-soak-"));
  const stops: Array<() => unknown> = [];
  const log = (line: string) => process.stdout.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
  try {
    // --- the world hvx talks to
    const scenario = loadScenario(demoScenarioPath());
    const vcenter = await startMockVcenter({ scenario });
    stops.push(() => vcenter.close());
    const kube = await startFakeKubeApiserver({ bookmarkIntervalMs: 5_000 });
    stops.push(() => kube.close());
    kube.controls.bulkLoad(demoCluster(scenario.vms));

    const certFile = join(dir, "tls.crt");
    const keyFile = join(dir, "tls.key");
    writeCert(dir, certFile, keyFile, "soak-0");
    writeFileSync(join(dir, "kubeconfig"), kube.kubeconfigYaml());
    writeFileSync(join(dir, "password"), `${scenario.credentials.password}\n`);
    const [extenderPort, admissionPort, adminPort] = [await freePort(), await freePort(), await freePort()];
    const hasAdminPort = supportsAdminPort();
    const metricsPort = o.metricsPort ?? (hasAdminPort ? adminPort : extenderPort);
    const configPath = join(dir, "config.yaml");
    writeFileSync(
      configPath,
      [
        "server:",
        "  address: 127.0.0.1",
        `  port: ${extenderPort}`,
        ...(hasAdminPort ? [`  adminPort: ${adminPort}`] : []),
        "vcenter:",
        `  url: ${vcenter.url}`,
        "  allowPlaintext: true",
        `  pollIntervalSeconds: ${POLL_SECONDS}`,
        "kubernetes:",
        "  enabled: true",
        `  kubeconfig: ${join(dir, "kubeconfig")}`,
        "admission:",
        "  enabled: true",
        `  port: ${admissionPort}`,
        "  tls:",
        `    certFile: ${certFile}`,
        `    keyFile: ${keyFile}`,
        "nodeLabels:",
        "  enabled: true",
        "log:",
        "  level: warn",
        "",
      ].join("\n"),
    );

    // --- hvx itself
    const childLog = join(dir, "hvx.log");
    const out = createWriteStream(childLog);
    const child: ChildProcess = endsWithThisProcess(
      spawn(process.execPath, [...deploymentNodeOptions(), CLI, "serve", "--config", configPath], {
        env: {
          ...process.env,
          HVX_VCENTER_USERNAME: scenario.credentials.username,
          HVX_VCENTER_PASSWORD_FILE: join(dir, "password"),
          KUBECONFIG: "",
        },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
    let exited: { code: number | null; signal: NodeJS.Signals | null; atMs: number } | undefined;
    const exitedPromise = new Promise<void>((resolve) =>
      child.once("exit", (code, signal) => ((exited = { code, signal, atMs: Date.now() }), resolve())),
    );
    stops.push(async () => {
      if (!exited) child.kill("SIGTERM");
      await Promise.race([exitedPromise, sleep(20_000)]);
      if (!exited) child.kill("SIGKILL");
    });
    // Idle sockets are dropped after 4 s, before hvx's 5 s keep-alive timeout closes them: else a
    // request may go out on a socket the server is closing (ECONNRESET), a client-side race that
    // Go's transport (kube-scheduler, kube-apiserver) retries by itself and Node's agent does not.
    const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });
    const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64, timeout: 4_000, rejectUnauthorized: false });
    stops.push(() => (httpAgent.destroy(), httpsAgent.destroy()));
    const get = (port: number, path: string) => send(httpRequest, httpAgent, port, "GET", path, undefined);
    await until(
      async () => (await get(extenderPort, "/healthz").catch(() => undefined))?.status === 200,
      30_000,
      "hvx to answer /healthz",
      () => exited,
    );
    const startRss = rssOf(child.pid!);
    log(`hvx pid ${child.pid} up (extender :${extenderPort}, webhook :${admissionPort}, metrics :${metricsPort}); RSS ${mb(startRss)}`);

    // --- request bodies
    const bodies = buildBodies(kube.controls);
    const filterArgs = bodies.filter;
    await until(
      async () => {
        const r = await sendText(httpRequest, httpAgent, extenderPort, "POST", "/filter", filterArgs).catch(() => undefined);
        return r !== undefined && r.status === 200 && Object.keys(JSON.parse(r.body).FailedAndUnresolvableNodes ?? {}).length > 0;
      },
      60_000,
      "the first poll cycle's rejections",
      () => exited,
    );
    log("first poll cycle done: hot hosts rejected; starting the load");

    // --- load
    const answers = new Map<Endpoint, Answer[]>(ENDPOINTS.map((e) => [e, []]));
    const unexpected = new Map<Endpoint, Map<string, number>>(ENDPOINTS.map((e) => [e, new Map()]));
    const note = (e: Endpoint, what: string) => unexpected.get(e)!.set(what, (unexpected.get(e)!.get(what) ?? 0) + 1);
    let inFlight = 0;
    let shed = 0;
    const MAX_IN_FLIGHT = 256;
    const pick = weightedPicker(MIX);
    const fire = (e: Endpoint) => {
      if (inFlight >= MAX_IN_FLIGHT) {
        shed++;
        note(e, "not sent: 256 requests already in flight");
        return;
      }
      inFlight++;
      const started = performance.now();
      const done = (status: number) => {
        inFlight--;
        answers.get(e)!.push({ status, ms: performance.now() - started });
        const ok = e === "bad" ? status === 400 : status >= 200 && status < 300;
        if (!ok) note(e, `HTTP ${status}`);
      };
      const request =
        e === "mutate"
          ? send(httpsRequest, httpsAgent, admissionPort, "POST", "/mutate?timeout=10s", bodies.mutate)
          : e === "bad"
            ? send(httpRequest, httpAgent, extenderPort, "POST", bodies.badPath(), "{")
            : send(httpRequest, httpAgent, extenderPort, "POST", `/${e}`, e === "preempt" ? bodies.preempt() : filterArgs);
      request.then(
        (a) => done(a.status),
        (err: Error) => {
          inFlight--;
          answers.get(e)!.push({ status: 0, ms: performance.now() - started });
          note(e, `network: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
        },
      );
    };
    const startMs = Date.now();
    const endMs = startMs + o.minutes * 60_000;
    const cpuAtStart = { hvx: cpuSecondsOf(child.pid!), soak: process.cpuUsage() };
    let sent = 0;
    const loadTimer = setInterval(() => {
      // Open loop: as many requests as the rate owes since the start, whatever the answers do.
      const due = Math.floor(((Date.now() - startMs) / 1000) * o.rate);
      while (sent < due) {
        fire(pick());
        sent++;
      }
    }, 5);
    stops.push(() => clearInterval(loadTimer));

    // --- faults
    const events: string[] = [];
    const timers: NodeJS.Timeout[] = [];
    stops.push(() => timers.forEach(clearInterval));
    let flaps = 0;
    timers.push(
      setInterval(() => {
        flaps++;
        vcenter.controls.setFaults({ fixedStatus: 503 });
        vcenter.controls.expireAllSessions();
        setTimeout(() => vcenter.controls.setFaults({ fixedStatus: null }), FLAP_FOR_MS).unref();
        events.push(`${secs(startMs)} vCenter down for ${FLAP_FOR_MS / 1000}s, sessions expired`);
      }, FLAP_EVERY_MS),
    );
    let watchDrops = 0;
    timers.push(
      setInterval(() => {
        watchDrops++;
        events.push(`${secs(startMs)} dropped ${kube.controls.dropWatches()} watches`);
      }, DROP_WATCHES_EVERY_MS),
    );
    const rotations: Array<{ atMs: number; servedAfterMs?: number }> = [];
    let fingerprint = await servedFingerprint(admissionPort);
    timers.push(
      setInterval(() => {
        const rotation: { atMs: number; servedAfterMs?: number } = { atMs: Date.now() };
        rotations.push(rotation);
        writeCert(dir, certFile, keyFile, `soak-${rotations.length}`);
        events.push(`${secs(startMs)} webhook certificate replaced on disk`);
        void until(
          async () => {
            const now = await servedFingerprint(admissionPort).catch(() => fingerprint);
            if (now === fingerprint) return false;
            fingerprint = now;
            rotation.servedAfterMs = Date.now() - rotation.atMs;
            return true;
          },
          30_000,
          "the new certificate",
        ).catch(() => undefined);
      }, ROTATE_EVERY_MS),
    );
    // One host (a cool one, so its failure changes no verdict) fails every other poll cycle.
    const flakyHost = scenario.hosts[scenario.hosts.length - 1]!.id;
    let perHostFailures = 0;
    timers.push(
      setInterval(() => {
        const failing = perHostFailures % 2 === 0;
        if (failing) events.push(`${secs(startMs)} host ${flakyHost} summary failing for one cycle`);
        vcenter.controls.setFaults({ hostFaults: failing ? { [flakyHost]: "summary" } : {} });
        perHostFailures++;
      }, POLL_SECONDS * 1000),
    );
    let churned = 0;
    const churnNames: string[] = [];
    const workers = scenario.vms.filter((vm) => vm.name.startsWith("k8s-")).map((vm) => vm.name);
    timers.push(
      setInterval(() => {
        const name = `churn-${churned++}`;
        kube.controls.upsertPod(churnPod(name, workers[churned % workers.length]!));
        churnNames.push(name);
        if (churnNames.length > 50) kube.controls.deletePod("shop", churnNames.shift()!);
      }, 200),
    );

    // --- samples
    const samples: Sample[] = [];
    const takeSample = async () => {
      const text = await sendText(httpRequest, httpAgent, metricsPort, "GET", "/metrics", undefined).then(
        (r) => r.body,
        () => "",
      );
      const rss = rssOf(child.pid!) ?? metric(text, /resident_memory_bytes$/);
      const loop = metric(text, /eventloop_lag_p99_seconds$/);
      samples.push({
        atMs: Date.now(),
        ...(rss !== undefined ? { rssBytes: rss } : {}),
        ...(loop !== undefined ? { loopP99Ms: loop * 1000 } : {}),
      });
    };
    timers.push(setInterval(() => void takeSample(), SAMPLE_EVERY_MS));
    const progress = setInterval(
      () =>
        log(
          `${secs(startMs)} sent ${sent}, in flight ${inFlight}, unexpected ${countAll(unexpected)}, RSS ${mb(samples.at(-1)?.rssBytes)}`,
        ),
      30_000,
    );
    timers.push(progress);

    while (Date.now() < endMs && !exited) await sleep(250);
    clearInterval(loadTimer);
    for (const t of timers) clearInterval(t);
    await until(async () => inFlight === 0, 15_000, "in-flight requests to finish").catch(() => undefined);
    await takeSample();
    const finalMetrics = await sendText(httpRequest, httpAgent, metricsPort, "GET", "/metrics", undefined).then(
      (r) => r.body,
      () => "",
    );
    const aliveAtEnd = !exited;
    const wallS = (Date.now() - startMs) / 1000;
    const hvxCpuS = (cpuSecondsOf(child.pid!) ?? Number.NaN) - (cpuAtStart.hvx ?? Number.NaN);
    const soakCpu = process.cpuUsage(cpuAtStart.soak);
    const cpu = {
      hvxCorePercent: round((hvxCpuS / wallS) * 100),
      soakCorePercent: round(((soakCpu.user + soakCpu.system) / 1e6 / wallS) * 100),
      loadAverage: loadavg().map(round),
    };

    // --- shutdown under no load: SIGTERM must end hvx cleanly
    child.kill("SIGTERM");
    await Promise.race([exitedPromise, sleep(20_000)]);
    const cleanExit = (exited as { code: number | null } | undefined)?.code === 0;

    // --- report
    const warmEnd = startMs + o.warmupSeconds * 1000;
    const window = Math.max(SAMPLE_EVERY_MS * 2, (endMs - warmEnd) * 0.15);
    const rssAt = (from: number, to: number) =>
      median(samples.filter((s) => s.atMs >= from && s.atMs <= to && s.rssBytes !== undefined).map((s) => s.rssBytes!));
    const rssAfterWarmup = rssAt(warmEnd, warmEnd + window);
    const rssEnd = rssAt(endMs - window, endMs + 60_000);
    const growth = rssAfterWarmup && rssEnd ? rssEnd / rssAfterWarmup - 1 : undefined;
    const loops = samples.filter((s) => s.atMs >= warmEnd && s.loopP99Ms !== undefined).map((s) => s.loopP99Ms!);
    const loopMax = loops.length > 0 ? Math.max(...loops) : undefined;
    const internalErrors =
      sumMetric(finalMetrics, /^hvx_extender_requests_total\{.*outcome="internal_error"/) +
      sumMetric(finalMetrics, /^hvx_admission_.*internal_error/);
    const unhandled = sumMetric(finalMetrics, /^hvx_unhandled_rejections_total/);
    const perEndpoint = Object.fromEntries(
      ENDPOINTS.map((e) => {
        const list = answers.get(e)!;
        const ms = list.map((a) => a.ms).sort((a, b) => a - b);
        return [
          e,
          {
            count: list.length,
            unexpected: Object.fromEntries(unexpected.get(e)!),
            p50Ms: round(percentile(ms, 50)),
            p99Ms: round(percentile(ms, 99)),
            maxMs: round(ms.at(-1) ?? 0),
          },
        ];
      }),
    );
    const checks: Array<[string, boolean, string]> = [
      ["no unexpected answers", countAll(unexpected) === 0, `${countAll(unexpected)} (client shed ${shed})`],
      [
        "no internal errors, no unhandled rejections",
        internalErrors === 0 && unhandled === 0,
        `internal_error ${internalErrors}, unhandled ${unhandled}`,
      ],
      [
        "hvx alive to the end, clean exit on SIGTERM",
        aliveAtEnd && cleanExit,
        exited ? `exit code ${exited.code} signal ${exited.signal}` : "still running",
      ],
      [
        "RSS growth after warm-up < 10 %",
        growth !== undefined && growth < 0.1,
        growth === undefined ? "no samples" : `${(growth * 100).toFixed(1)} % (${mb(rssAfterWarmup)} -> ${mb(rssEnd)})`,
      ],
      [
        `p99 <= ${o.maxP99Ms} ms on every endpoint`,
        ENDPOINTS.every((e) => perEndpoint[e]!.p99Ms <= o.maxP99Ms),
        ENDPOINTS.map((e) => `${e} ${perEndpoint[e]!.p99Ms}`).join(", "),
      ],
      [
        `event-loop delay p99 <= ${o.maxLoopDelayMs} ms`,
        loopMax === undefined || loopMax <= o.maxLoopDelayMs,
        loopMax === undefined
          ? "not exported"
          : `max over ${SAMPLE_EVERY_MS / 1000}s windows ${round(loopMax)} ms, median ${round(median(loops) ?? 0)} ms`,
      ],
      [
        "every certificate rotation served within 30 s",
        rotations.every((r) => r.servedAfterMs !== undefined),
        rotations.length === 0
          ? "none scheduled (run >= 2 minutes)"
          : rotations.map((r) => (r.servedAfterMs === undefined ? "not served" : `${(r.servedAfterMs / 1000).toFixed(1)} s`)).join(", "),
      ],
    ];
    const report = {
      minutes: o.minutes,
      rate: o.rate,
      sent,
      warmupSeconds: o.warmupSeconds,
      endpoints: perEndpoint,
      rss: { startBytes: startRss, afterWarmupBytes: rssAfterWarmup, endBytes: rssEnd, growth },
      eventLoopP99Ms: { max: loopMax, median: median(loops) },
      cpu,
      faults: {
        vcenterFlaps: flaps,
        watchDrops,
        certificateRotations: rotations.length,
        podsChurned: churned,
        perHostFailures: Math.ceil(perHostFailures / 2),
      },
      metricsPort,
      checks: checks.map(([name, ok, detail]) => ({ name, ok, detail })),
    };
    process.stdout.write(`\n${renderReport(report, events)}\n`);
    if (o.json) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`);
    const failed = checks.filter(([, ok]) => !ok);
    if (failed.length > 0) {
      process.stdout.write(
        `\nsoak FAILED: ${failed.map(([n]) => n).join("; ")}\nlast lines of hvx's log (${childLog}):\n${tail(childLog, 30)}\n`,
      );
      o.keep = true;
      return 1;
    }
    process.stdout.write("\nsoak passed\n");
    return 0;
  } finally {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
    else process.stdout.write(`work dir kept: ${dir}\n`);
  }
}

/** Request bodies: the examples, with victims that exist in the fake cluster (so hvx resolves them). */
function buildBodies(kube: { getPod(ns: string, name: string): Record<string, any> | undefined }) {
  const read = (name: string) => readFileSync(join(ROOT, "examples", name), "utf8");
  const filter = read("filter-nodenames.json");
  const mutate = read("admissionreview-pod-create.json");
  const pod = JSON.parse(read("preempt-metavictims.json")).Pod;
  const candidates = ["k8s-worker-01", "k8s-worker-07", "k8s-worker-09"].map((node, i) => {
    const victim = kube.getPod("shop", `nightly-report-${Number(node.slice(-2)) - 1}`);
    if (!victim) throw new Error(`the demo cluster has no nightly-report pod on ${node}`);
    return { node, victim, pdb: i % 2 };
  });
  const meta = JSON.stringify({
    Pod: pod,
    NodeNameToVictims: null,
    NodeNameToMetaVictims: Object.fromEntries(
      candidates.map((c) => [c.node, { Pods: [{ UID: c.victim.metadata.uid }], NumPDBViolations: c.pdb }]),
    ),
  });
  const full = JSON.stringify({
    Pod: pod,
    NodeNameToVictims: Object.fromEntries(candidates.map((c) => [c.node, { Pods: [c.victim], NumPDBViolations: c.pdb }])),
    NodeNameToMetaVictims: null,
  });
  let n = 0;
  const badPaths = ["/filter", "/prioritize", "/preempt"];
  return { filter, mutate, preempt: () => (n++ % 2 === 0 ? meta : full), badPath: () => badPaths[n++ % badPaths.length]! };
}

function churnPod(name: string, nodeName: string): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "shop",
      labels: { app: "churn" },
      ownerReferences: [{ apiVersion: "batch/v1", kind: "Job", name: "churn", uid: "uid-churn", controller: true }],
    },
    spec: {
      nodeName,
      containers: [
        {
          name: "c",
          image: "registry.example.com/churn:1",
          resources: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "500m", memory: "128Mi" } },
        },
      ],
    },
    status: { phase: "Running", conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: new Date().toISOString() }] },
  };
}

/** A new self-signed P-256 certificate for 127.0.0.1, written next to the live files and renamed over them. */
function writeCert(dir: string, certFile: string, keyFile: string, cn: string): void {
  const key = join(dir, `${cn}.key`);
  const cert = join(dir, `${cn}.crt`);
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      `/CN=${cn}`,
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  renameSync(key, keyFile);
  renameSync(cert, certFile);
}

function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
      const fp = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fp);
    });
    socket.once("error", reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error("TLS handshake timeout")));
  });
}

/** Whether this hvx knows `server.adminPort` (the admin port moves /metrics and /debug there). */
function supportsAdminPort(): boolean {
  try {
    parseConfig("server:\n  adminPort: 9090\n");
    return true;
  } catch {
    return false;
  }
}

type RequestFn = typeof httpRequest;

function sendText(
  request: RequestFn,
  agent: HttpAgent,
  port: number,
  method: string,
  path: string,
  body: string | undefined,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: body === undefined ? {} : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        timeout: 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", reject);
    req.end(body);
  });
}

async function send(
  request: RequestFn,
  agent: HttpAgent,
  port: number,
  method: string,
  path: string,
  body: string | undefined,
): Promise<{ status: number }> {
  return { status: (await sendText(request, agent, port, method, path, body)).status };
}

/** Resident set size from /proc (Linux), else undefined (then read from hvx's metrics). */
function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds of a process from /proc (Linux), else undefined. */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of /proc/PID/stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The value of the first sample whose metric name matches (Prometheus text format). */
function metric(text: string, name: RegExp): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line === "") continue;
    const [key, value] = line.split(/\s+/);
    if (key && value && name.test(key.split("{")[0]!)) return Number(value);
  }
  return undefined;
}

function sumMetric(text: string, line: RegExp): number {
  let sum = 0;
  for (const l of text.split("\n")) if (line.test(l)) sum += Number(l.split(/\s+/).at(-1)) || 0;
  return sum;
}

function weightedPicker(mix: Record<Endpoint, number>): () => Endpoint {
  // A fixed sequence (no randomness): 100 slots in proportion to the mix, interleaved.
  const slots: Endpoint[] = [];
  const owed = new Map<Endpoint, number>();
  for (let i = 0; i < 100; i++) {
    for (const e of ENDPOINTS) owed.set(e, (owed.get(e) ?? 0) + mix[e]);
    const next = [...owed].sort((a, b) => b[1] - a[1])[0]![0];
    owed.set(next, owed.get(next)! - 1);
    slots.push(next);
  }
  let i = 0;
  return () => slots[i++ % slots.length]!;
}

function renderReport(
  r: {
    endpoints: Record<string, { count: number; unexpected: Record<string, number>; p50Ms: number; p99Ms: number; maxMs: number }>;
    rss: { startBytes?: number; afterWarmupBytes?: number; endBytes?: number };
    cpu: { hvxCorePercent: number; soakCorePercent: number; loadAverage: number[] };
    checks: Array<{ name: string; ok: boolean; detail: string }>;
    faults: Record<string, unknown>;
    sent: number;
    minutes: number;
    rate: number;
  },
  events: string[],
): string {
  const lines = [
    `soak: ${r.minutes} min at ${r.rate} requests/s, ${r.sent} sent`,
    "",
    "endpoint     count  unexpected   p50 ms   p99 ms   max ms",
  ];
  for (const [e, s] of Object.entries(r.endpoints)) {
    const bad = Object.values(s.unexpected).reduce((a, b) => a + b, 0);
    lines.push(
      `${e.padEnd(10)} ${String(s.count).padStart(7)} ${String(bad).padStart(11)} ${s.p50Ms.toFixed(1).padStart(8)} ${s.p99Ms.toFixed(1).padStart(8)} ${s.maxMs.toFixed(1).padStart(8)}${bad ? `   ${JSON.stringify(s.unexpected)}` : ""}`,
    );
  }
  lines.push("", `RSS: start ${mb(r.rss.startBytes)}, after warm-up ${mb(r.rss.afterWarmupBytes)}, end ${mb(r.rss.endBytes)}`);
  lines.push(
    `CPU: hvx ${r.cpu.hvxCorePercent} % of one core, soak process (mocks + load) ${r.cpu.soakCorePercent} %, load average ${r.cpu.loadAverage.join(" ")}`,
  );
  lines.push(`faults: ${JSON.stringify(r.faults)}`);
  if (events.length > 0) lines.push(`fault events: ${events.length} (first: ${events.slice(0, 3).join("; ")})`);
  lines.push("", ...r.checks.map((c) => `${c.ok ? "ok     " : "FAILED "} ${c.name}: ${c.detail}`));
  return lines.join("\n");
}

async function until(cond: () => Promise<boolean>, timeoutMs: number, what: string, dead?: () => unknown): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (dead?.()) throw new Error(`hvx exited while waiting for ${what}`);
    if (await cond()) return;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (startMs: number) => `t+${Math.round((Date.now() - startMs) / 1000)}s`;
const mb = (bytes: number | undefined) => (bytes === undefined ? "?" : `${(bytes / 2 ** 20).toFixed(1)} MiB`);
const round = (v: number) => Math.round(v * 10) / 10;
const countAll = (m: Map<Endpoint, Map<string, number>>) =>
  [...m.values()].reduce((n, byWhat) => n + [...byWhat.values()].reduce((a, b) => a + b, 0), 0);

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function tail(file: string, n: number): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-n).join("\n");
  } catch {
    return "(no log)";
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`soak: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
