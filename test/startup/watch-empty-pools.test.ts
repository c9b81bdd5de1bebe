import { expect } from "chai";
import { Writable } from "node:stream";
import type { HostView, InventoryView } from "../../src/model/inventory.js";
import { createLogger } from "../../src/observability/logger.js";
import { DEFAULT_WORKLOAD_CLASSES } from "../../src/placement/rules/kubernetes/workload-class.js";
import { watchEmptyPools } from "../../src/startup/watch-empty-pools.js";

const inventoryOf = (names: string[]): InventoryView =>
  ({ hosts: new Map(names.map((name) => [name, { id: name, name } as unknown as HostView])), vms: new Map() }) as unknown as InventoryView;

describe("watchEmptyPools", () => {
  it("warns once when a pool matches no host, names the key, and again only when the empty pools change", async () => {
    const lines: Array<{ msg: string; key?: string }> = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
    let inventory = inventoryOf([]);
    const classes = { ...DEFAULT_WORKLOAD_CLASSES, pools: { online: { clusters: [], hostNames: ["exs-*"] } } };
    const stop = watchEmptyPools(() => inventory, classes, createLogger("warn", sink), 5);
    const tick = () => new Promise((r) => setTimeout(r, 20));
    await tick();
    expect(lines, "nothing polled yet").to.have.length(0);
    inventory = inventoryOf(["esx-01", "esx-02"]);
    await tick();
    await tick();
    expect(lines.map((l) => l.key)).to.deep.equal(["workloadClasses.pools.online"]);
    expect(lines[0]!.msg).to.match(/online pool matches none of the inventory's hosts/);
    inventory = inventoryOf(["exs-03"]);
    await tick();
    inventory = inventoryOf(["esx-01"]);
    await tick();
    expect(lines).to.have.length(2);
    await stop();
  });
});
