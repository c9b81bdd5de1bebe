import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import type { MockVcenterHandle, Scenario } from "../mocks/vcenter/index.js";
import { deploymentNodeOptions } from "../test/manifests/deployment-node-options.js";
import { endsWithThisProcess } from "./child-processes.js";
import { confineToCpus, wantedCpuLimit, type CpuLimit } from "./cpu-limit.js";

/** The processes an HTTP benchmark drives: `hvx serve` as a user starts it, and the floor (extender-floor.ts). */
export interface Server {
  readonly port: number;
  readonly child: ChildProcess;
}
export interface HvxChild extends Server {
  readonly adminPort: number;
  /** The pod's CPU quota, when HVX_BENCH_CPU_LIMIT asks for one (cpu-limit.ts). */
  readonly cpuLimit?: CpuLimit;
  stopped?: boolean;
}

/**
 * Waits until hvx's answers use the cluster view, i.e. its informers have synced: explain (on
 * the admin port) shows the stacked cap's adjustment, which only a decision with the cluster
 * view carries.
 */
export async function untilClusterAware(hvx: Pick<HvxChild, "adminPort">, body: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const res = await fetch(`http://127.0.0.1:${hvx.adminPort}/debug/explain`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    const reply = (await res.json()) as { nodes?: Array<{ penalties: { adjustments: Array<{ rule: string }> } }> };
    if (reply.nodes?.some((n) => n.penalties.adjustments.some((a) => a.rule === "stacked-cap"))) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("hvx did not use its cluster cache within 180 s");
}

const distDir = fileURLToPath(new URL("..", import.meta.url));

export async function startFloor(): Promise<Server> {
  const child = endsWithThisProcess(
    spawn(process.execPath, [join(distDir, "bench", "extender-floor.js")], { stdio: ["ignore", "pipe", "inherit"] }),
  );
  const line = await firstLine(child);
  return { port: (JSON.parse(line) as { port: number }).port, child };
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (d: Buffer) => {
      text += d.toString();
      const nl = text.indexOf("\n");
      if (nl >= 0) resolve(text.slice(0, nl));
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before it was ready`)));
  });
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

/**
 * `hvx serve --config FILE` against the mock, as a user starts it; resolves once /readyz answers
 * 200 and, unless `untilWarmStarted` is false, the warm start from vCenter's history is over.
 */
export async function startHvx(
  vc: MockVcenterHandle,
  scenario: Scenario,
  work: string,
  name: string,
  extra: Record<string, unknown> = { kubernetes: { enabled: false } },
  untilWarmStarted = true,
): Promise<HvxChild> {
  const port = await freePort();
  const adminPort = await freePort();
  const file = join(work, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      // Ready only once the first poll cycle has ended (as a user waits for /readyz), so no round runs on an empty inventory.
      server: { address: "127.0.0.1", port, adminPort, shutdownDrainSeconds: 0, readinessGraceSeconds: 600 },
      vcenter: { url: vc.url, allowPlaintext: true, username: scenario.credentials.username, password: scenario.credentials.password },
      admission: { enabled: false },
      log: { level: "warn" },
      ...extra,
    }),
  );
  const prof = process.env.HVX_BENCH_CPU_PROF;
  const v8 = hvxNodeFlags();
  const args = [
    ...(prof ? ["--cpu-prof", "--cpu-prof-dir", prof] : []),
    ...v8.flags,
    join(distDir, "src", "cli.js"),
    "serve",
    "--config",
    file,
  ];
  const child = endsWithThisProcess(spawn(process.execPath, args, { stdio: ["ignore", v8.stdout, "inherit"] }));
  const cpus = wantedCpuLimit();
  const cpuLimit = cpus === undefined ? undefined : confineToCpus(child.pid!, cpus);
  if (cpuLimit) child.once("exit", () => cpuLimit.release());
  // 50 000 pods to list and 250 hosts of history to read on 2 shared cores: a minute was not always enough.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`hvx serve exited with ${child.exitCode}`);
    // And once the warm start of the load profiles from vCenter's history is over: it runs in the background after the first poll.
    if ((await ready(port)) && (!untilWarmStarted || (await warmStarted(adminPort))))
      return { port, adminPort, child, ...(cpuLimit ? { cpuLimit } : {}) };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGTERM");
  throw new Error("hvx serve not ready within 180 s");
}

/**
 * The V8 flags `hvx serve` runs with: the manifest's NODE_OPTIONS, as in a pod (heap and young
 * generation sizes change every garbage-collection figure), unless HVX_BENCH_NODE_FLAGS names
 * others ("" for V8's defaults; `--trace-gc` and the like print on stdout, passed through then).
 */
function hvxNodeFlags(): { flags: string[]; stdout: "inherit" | "ignore" } {
  const own = process.env.HVX_BENCH_NODE_FLAGS;
  if (own === undefined) return { flags: deploymentNodeOptions(), stdout: "ignore" };
  return { flags: own.split(/\s+/).filter((flag) => flag !== ""), stdout: "inherit" };
}

/** Whether the first warm start from vCenter's history has ended (its counter counts every host it tried, at once). */
export async function warmStarted(adminPort: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${adminPort}/metrics`);
    const text = await res.text();
    let hosts = 0;
    for (const line of text.split("\n"))
      if (line.startsWith("hvx_prediction_history_hosts_total{")) hosts += Number(line.slice(line.lastIndexOf(" ") + 1));
    return hosts > 0;
  } catch {
    return false;
  }
}

async function ready(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

export function stopHvx(s: HvxChild): Promise<void> {
  if (s.stopped || s.child.exitCode !== null) return Promise.resolve();
  s.stopped = true;
  return new Promise((resolve) => {
    s.child.once("exit", () => resolve());
    s.child.kill("SIGTERM");
  });
}
