import type { Logger } from "../observability/logger.js";
import { AutomationClient, type AutomationClientOptions } from "./automation-client.js";
import type { PollCycleDeps } from "./poll-cycle.js";
import { SoapClient } from "./soap-client.js";
import { SoapInventory } from "./soap-inventory.js";
import { SoapPerf } from "./soap-perf.js";
import { offersRelease, readReleaseList, type Vim25Releases } from "./vcenter-release-list.js";
import { VijsonClient } from "./vijson-client.js";

/** `vcenter.api`: `auto` picks VI/JSON when the release list offers `vcenter.viJsonRelease`, else SOAP. */
export type VcenterApiChoice = "auto" | "vijson" | "soap";

/** What the poll cycle reads the inventory through (the Automation API's calls and shapes). */
export type InventoryPort = PollCycleDeps["automation"] & {
  /** Reads the inventory once per cycle (SOAP); the other calls answer from it. */
  beginCycle?(): Promise<void>;
  logout(): Promise<boolean>;
};

/** What the poller reads performance data and settings through (VI/JSON's calls and shapes). */
export type PerfPort = Pick<
  VijsonClient,
  "perfCounters" | "queryPerf" | "hostSummary" | "queryOptions" | "currentTimeMs" | "vmSummary" | "logout"
>;

export interface VcenterTransport {
  readonly api: "vijson" | "soap";
  /** Why this transport (logged once). */
  readonly reason: string;
  /** The vCenter's release list, when it has one. */
  readonly releases?: Vim25Releases;
  readonly inventory: InventoryPort;
  readonly perf: PerfPort;
}

export interface TransportOptions extends Omit<AutomationClientOptions, "onRelogin"> {
  readonly choice: VcenterApiChoice;
  readonly viJsonRelease: string;
  readonly onRelogin: (api: "automation" | "vijson" | "soap") => void;
}

/** SOAPAction version when the release list cannot be read (every field hvx reads exists in 6.5). */
const FALLBACK_SOAP_VERSION = "6.5";

/**
 * Reads the release list and builds the transport: the Automation API plus VI/JSON, or vim25
 * over SOAP for both inventory and performance data. With `vijson` forced, a missing list is
 * no reason to fail (the VI/JSON calls will tell).
 */
export async function selectTransport(o: TransportOptions, log: Logger): Promise<VcenterTransport> {
  const releases = await readReleaseList(o.send).catch((err: unknown) => {
    if (o.choice === "vijson") return undefined;
    throw err;
  });
  const offered = releases !== undefined && offersRelease(releases, o.viJsonRelease);
  const listed = releases ? `vim25 ${[releases.current, ...releases.prior].join(", ")}` : "no release list";
  const api = o.choice === "auto" ? (offered ? "vijson" : "soap") : o.choice;
  const reason =
    o.choice !== "auto"
      ? `vcenter.api is ${o.choice}`
      : offered
        ? `vcenter.api is auto and the release list offers VI/JSON ${o.viJsonRelease}`
        : `vcenter.api is auto and the vCenter does not offer VI/JSON ${o.viJsonRelease} (${listed}; VI/JSON needs vCenter 8.0U1 or later)`;
  const transport = api === "vijson" ? jsonTransport(o, reason) : soapTransport(o, reason, releases?.current ?? FALLBACK_SOAP_VERSION);
  log.info(
    { api, reason, ...(releases ? { vim25: releases.current } : {}) },
    `polling vCenter through ${api === "soap" ? "vim25 SOAP" : "the Automation API and VI/JSON"}`,
  );
  return releases ? { ...transport, releases } : transport;
}

function jsonTransport(o: TransportOptions, reason: string): VcenterTransport {
  const inventory = new AutomationClient({ ...o, onRelogin: () => o.onRelogin("automation") });
  const perf = new VijsonClient({ ...o, release: o.viJsonRelease, onRelogin: () => o.onRelogin("vijson") });
  return { api: "vijson", reason, inventory, perf };
}

function soapTransport(o: TransportOptions, reason: string, apiVersion: string): VcenterTransport {
  const client = new SoapClient({ ...o, apiVersion, onRelogin: () => o.onRelogin("soap") });
  const inv = new SoapInventory(client);
  const perf = new SoapPerf(client);
  return {
    api: "soap",
    reason,
    inventory: {
      beginCycle: () => inv.beginCycle(),
      listClusters: () => inv.listClusters(),
      listHosts: (clusterIds) => inv.listHosts(clusterIds),
      listVmsOnHost: (hostId) => inv.listVmsOnHost(hostId),
      getVmBiosUuid: (vmId) => inv.getVmBiosUuid(vmId),
      // One session serves both ports: logged out once, through `perf`.
      logout: () => Promise.resolve(false),
    },
    perf: {
      perfCounters: () => perf.perfCounters(),
      queryPerf: (specs) => perf.queryPerf(specs),
      queryOptions: (name) => perf.queryOptions(name),
      currentTimeMs: () => client.currentTimeMs(),
      hostSummary: (hostId) => inv.hostSummary(hostId),
      vmSummary: (vmId) => inv.vmSummary(vmId),
      logout: () => client.logout(),
    },
  };
}
