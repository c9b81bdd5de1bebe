/** Tiny fetch helpers shared by the mock vCenter tests (not a test file itself). */
import { parseScenario, startMockVcenter, type MockVcenterHandle, type ScenarioInput } from "../../../mocks/vcenter/index.js";
import { stringify } from "yaml";

export const USER = "administrator@vsphere.local";
export const PASSWORD = "hvx-demo";
export const VI = "/sdk/vim25/8.0.1.0";
/** 2026-11-29T10:00:00Z, on a 20 s boundary. */
export const T0_MS = Date.UTC(2026, 10, 29, 10, 0, 0);

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const r = await fetch(url, init);
  const text = await r.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

export async function automationLogin(base: string): Promise<string> {
  const r = await call(`${base}/api/session`, { method: "POST", headers: { authorization: basic(USER, PASSWORD) } });
  if (r.status !== 201) throw new Error(`login failed ${r.status}`);
  return r.json as string;
}

export async function viLogin(base: string): Promise<string> {
  const r = await call(`${base}${VI}/SessionManager/SessionManager/Login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userName: USER, password: PASSWORD }),
  });
  const token = r.headers.get("vmware-api-session-id");
  if (r.status !== 200 || token === null) throw new Error(`VI login failed ${r.status}`);
  return token;
}

export const getWith = (url: string, token: string) => call(url, { headers: { "vmware-api-session-id": token } });
export const postWith = (url: string, token: string, body: unknown) =>
  call(url, {
    method: "POST",
    headers: { "vmware-api-session-id": token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** A small scenario: one cluster, two hosts, three VMs (vm-1 has 4 vCPUs at 10 % ready). */
export function smallScenario(patch: Partial<ScenarioInput> = {}): ScenarioInput {
  return {
    clusters: [
      { id: "domain-c8", name: "prod-a" },
      { id: "domain-c9", name: "prod-b" },
    ],
    hosts: [
      {
        id: "host-1",
        name: "esx-1",
        cluster: "domain-c8",
        cpuCores: 16,
        cpuMhz: 2000,
        memoryMiB: 262144,
        metrics: { cpuUsagePercent: 20.67, memUsagePercent: 55.5, swapInKBps: 12, memState: "hard" },
      },
      { id: "host-2", name: "esx-2", cluster: "domain-c9", cpuCores: 8, cpuMhz: 3000, memoryMiB: 131072 },
    ],
    vms: [
      {
        id: "vm-1",
        name: "k8s-a",
        biosUuid: "4226AAAA-0000-4000-8000-000000000001",
        vcpus: 4,
        memoryMiB: 8192,
        host: "host-1",
        metrics: { readyPercent: 10, balloonMiB: 100, swappedMiB: 3 },
      },
      {
        id: "vm-2",
        name: "k8s-b",
        biosUuid: "4226aaaa-0000-4000-8000-000000000002",
        vcpus: 2,
        memoryMiB: 4096,
        host: "host-1",
        metrics: { readyPercent: 2.5, balloonMiB: 50 },
      },
      {
        id: "vm-3",
        name: "sql-1",
        biosUuid: "4226aaaa-0000-4000-8000-000000000003",
        vcpus: 8,
        memoryMiB: 65536,
        host: "host-2",
        powerState: "POWERED_OFF",
      },
    ],
    ...patch,
  };
}

/** Starts the mock on 127.0.0.1:0 with a scenario given as input (validated like a file). */
export function startSmall(opts: { scenario?: ScenarioInput; clock?: () => number } = {}): Promise<MockVcenterHandle> {
  const scenario = parseScenario(stringify(opts.scenario ?? smallScenario()));
  return startMockVcenter({ scenario, ...(opts.clock ? { clock: opts.clock } : {}) });
}

/** A settable clock for tests. */
export function manualClock(startMs = T0_MS): { now: () => number; advanceS: (s: number) => void } {
  let t = startMs;
  return {
    now: () => t,
    advanceS: (s) => {
      t += s * 1000;
    },
  };
}
