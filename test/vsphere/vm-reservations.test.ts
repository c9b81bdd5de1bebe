import { expect } from "chai";
import { toVmReservation, VmReservations, type VmSummaryInfo } from "../../src/vsphere/vm-reservations.js";
import { createLogger } from "../../src/observability/logger.js";

const HOUR = 3_600_000;

describe("toVmReservation", () => {
  const cases: Array<{ name: string; summary: VmSummaryInfo; want: unknown }> = [
    {
      name: "given memoryReservation and cpuReservation, MB and MHz as they are",
      summary: { config: { memoryReservation: 16384, cpuReservation: 2000 } },
      want: { memoryReservationMiB: 16384, cpuReservationMhz: 2000 },
    },
    {
      name: "given zero reservations, zero (a finding may follow)",
      summary: { config: { memoryReservation: 0, cpuReservation: 0 } },
      want: { memoryReservationMiB: 0, cpuReservationMhz: 0 },
    },
    { name: "given no config (VM being created), unknown", summary: {}, want: undefined },
    { name: "given no memoryReservation, unknown", summary: { config: { cpuReservation: 0 } }, want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(toVmReservation(c.summary)).to.deep.equal(c.want));
});

describe("VmReservations", () => {
  function setup(maxReadsPerRefresh = 10) {
    let now = 0;
    const reads: string[] = [];
    const failing = new Set<string>();
    const r = new VmReservations({
      readSummary: async (id) => {
        reads.push(id);
        if (failing.has(id)) throw new Error("ManagedObjectNotFound");
        return { config: { memoryReservation: id === "vm-1" ? 1024 : 0, cpuReservation: 0 } };
      },
      clock: () => now,
      refreshMs: HOUR,
      maxReadsPerRefresh,
      log: createLogger("fatal"),
    });
    return { r, reads, failing, advance: (ms: number) => (now += ms) };
  }

  it("reads each VM once, and again only after the refresh interval", async () => {
    const { r, reads, advance } = setup();
    await r.refresh(["vm-1", "vm-2"]);
    advance(HOUR - 1);
    await r.refresh(["vm-1", "vm-2"]);
    expect(reads).to.deep.equal(["vm-1", "vm-2"]);
    advance(1);
    await r.refresh(["vm-1", "vm-2"]);
    expect(reads).to.deep.equal(["vm-1", "vm-2", "vm-1", "vm-2"]);
    expect(r.current().get("vm-1")).to.deep.equal({ memoryReservationMiB: 1024, cpuReservationMhz: 0 });
  });

  it("reads at most maxReadsPerRefresh per call, the rest on the next", async () => {
    const { r, reads } = setup(2);
    await r.refresh(["vm-1", "vm-2", "vm-3"]);
    expect(reads).to.deep.equal(["vm-1", "vm-2"]);
    await r.refresh(["vm-1", "vm-2", "vm-3"]);
    expect(reads).to.deep.equal(["vm-1", "vm-2", "vm-3"]);
  });

  it("given a failed read, the VM stays unknown and is tried again next time; VMs that left are forgotten", async () => {
    const { r, reads, failing } = setup();
    failing.add("vm-2");
    await r.refresh(["vm-1", "vm-2"]);
    expect([...r.current().keys()]).to.deep.equal(["vm-1"]);
    failing.clear();
    await r.refresh(["vm-2"]);
    expect(reads).to.deep.equal(["vm-1", "vm-2", "vm-2"]);
    expect([...r.current().keys()]).to.deep.equal(["vm-2"]);
  });
});
