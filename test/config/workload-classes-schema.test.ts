import { expect } from "chai";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfig } from "../../src/config/load-config.js";
import { DEFAULT_WORKLOAD_CLASSES } from "../../src/placement/rules/kubernetes/workload-class.js";

/** The issues parseConfig lists for `yaml`; [] when it loads. */
function issuesOf(yaml: string): readonly string[] {
  try {
    parseConfig(yaml);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
}

describe("workloadClasses configuration", () => {
  it("given nothing, returns the core's defaults (label, priorities 1000000 / -1, Jobs and BestEffort batch, 3 points, no pools)", () =>
    expect(parseConfig(undefined).workloadClasses).to.deep.equal(DEFAULT_WORKLOAD_CLASSES));

  it("given pools by host name and by polled cluster, loads them", () => {
    const c = parseConfig(
      'vcenter: { clusters: [prod-online, prod-batch] }\nworkloadClasses:\n  pools:\n    online: { clusters: [prod-online], hostNames: ["esx-0*"] }\n    batch: { clusters: [prod-batch] }\n',
    );
    expect(c.workloadClasses.pools).to.deep.equal({
      online: { clusters: ["prod-online"], hostNames: ["esx-0*"] },
      batch: { clusters: ["prod-batch"], hostNames: [] },
    });
  });

  const refused: Array<{ name: string; yaml: string; want: string }> = [
    {
      name: "a label key with a space",
      yaml: "workloadClasses: { label: 'hvx.io/workload class' }\n",
      want: "workloadClasses.label: must be a Kubernetes label key (e.g. hvx.io/workload-class)",
    },
    {
      name: "batch.maxPriority at online.minPriority",
      yaml: "workloadClasses: { online: { minPriority: 100 }, batch: { maxPriority: 100 } }\n",
      want: "workloadClasses.batch.maxPriority: 100 must be below online.minPriority (100): a priority cannot be both classes",
    },
    {
      name: "a priority class name in both lists",
      yaml: "workloadClasses: { online: { priorityClassNames: [tier-1] }, batch: { priorityClassNames: [tier-1] } }\n",
      want: 'workloadClasses.batch.priorityClassNames: "tier-1" is also in online.priorityClassNames: a class cannot be both',
    },
    {
      name: "a fractional priority",
      yaml: "workloadClasses: { online: { minPriority: 1.5 } }\n",
      want: "workloadClasses.online.minPriority",
    },
    { name: "a negative mixPenalty", yaml: "workloadClasses: { mixPenalty: -1 }\n", want: "workloadClasses.mixPenalty" },
    {
      name: "an empty pool",
      yaml: "workloadClasses: { pools: { batch: {} } }\n",
      want: "workloadClasses.pools.batch: needs clusters or hostNames (an empty pool would hold no host)",
    },
    {
      name: "a pool of a third class",
      yaml: "workloadClasses: { pools: { gpu: { hostNames: [gpu-*] } } }\n",
      want: "workloadClasses.pools",
    },
    {
      name: "a cluster pool while every cluster is polled (hvx cannot tell the hosts' clusters)",
      yaml: "workloadClasses: { pools: { online: { clusters: [prod] } } }\n",
      want: "workloadClasses.pools.online.clusters: needs vcenter.clusters",
    },
    {
      name: "a cluster pool naming a cluster that is not polled",
      yaml: "vcenter: { clusters: [prod] }\nworkloadClasses: { pools: { batch: { clusters: [prod, batch] } } }\n",
      want: 'workloadClasses.pools.batch.clusters: "batch" is not in vcenter.clusters: no host of it is polled',
    },
  ];
  for (const c of refused)
    it(`given ${c.name}, stops start-up naming the key`, () => expect(issuesOf(c.yaml).join("\n")).to.include(c.want));

  it("given a cluster pool with vmware_exporter (which labels each host with its cluster), loads it", () =>
    expect(
      issuesOf(
        "metrics: { source: prometheus }\nprometheus: { url: 'http://prometheus:9090', flavour: vmware_exporter }\nworkloadClasses: { pools: { online: { clusters: [prod] } } }\n",
      ),
    ).to.deep.equal([]));

  it("given a cluster pool with Telegraf (its inventory comes from vCenter) and no vcenter.clusters, stops start-up", () =>
    expect(
      issuesOf(
        "metrics: { source: prometheus }\nprometheus: { url: 'http://prometheus:9090' }\nworkloadClasses: { pools: { online: { clusters: [prod] } } }\n",
      ).join("\n"),
    ).to.include("workloadClasses.pools.online.clusters: needs vcenter.clusters"));
});
