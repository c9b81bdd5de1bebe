import { expect } from "chai";
import type { HostView, InventoryView } from "../../src/model/inventory.js";
import { emptyPools } from "../../src/placement/empty-pools.js";
import type { WorkloadClassPolicy } from "../../src/placement/policy.js";
import { DEFAULT_WORKLOAD_CLASSES } from "../../src/placement/rules/kubernetes/workload-class.js";

const host = (name: string, clusterName?: string): HostView =>
  ({ id: `host-${name}`, name, ...(clusterName ? { clusterName } : {}) }) as unknown as HostView;
const inventoryOf = (hosts: HostView[]): InventoryView =>
  ({ hosts: new Map(hosts.map((h) => [h.id, h])), vms: new Map() }) as unknown as InventoryView;
const withPools = (pools: WorkloadClassPolicy["pools"]): WorkloadClassPolicy => ({ ...DEFAULT_WORKLOAD_CLASSES, pools });

describe("emptyPools", () => {
  const inventory = inventoryOf([host("esx-01.lab", "prod"), host("esx-02.lab", "prod")]);
  const cases: Array<{ name: string; pools: WorkloadClassPolicy["pools"]; inventory?: InventoryView; want: string[] }> = [
    { name: "given no pools, returns none", pools: {}, want: [] },
    {
      name: "given a pool whose pattern matches a host, returns none",
      pools: { online: { clusters: [], hostNames: ["esx-0*"] } },
      want: [],
    },
    {
      name: "given a pattern with a typo, returns its class",
      pools: { online: { clusters: [], hostNames: ["exs-0*"] }, batch: { clusters: [], hostNames: ["esx-02*"] } },
      want: ["online"],
    },
    { name: "given a cluster no host is in, returns its class", pools: { batch: { clusters: ["batch"], hostNames: [] } }, want: ["batch"] },
    {
      name: "given no host polled yet, returns none (nothing to match against)",
      pools: { online: { clusters: [], hostNames: ["nothing"] } },
      inventory: inventoryOf([]),
      want: [],
    },
  ];
  for (const c of cases) it(c.name, () => expect(emptyPools(c.inventory ?? inventory, withPools(c.pools))).to.deep.equal(c.want));
});
