import { expect } from "chai";
import { busyHostsWorld, onBusyHosts, replicasPerHost } from "./busy-hosts-world.js";

// api: limit 2 CPUs each. Even spread: 6 per host, 12 CPUs of limits: 12 / (16 - 8) = 1.5 of the
// room on hosts 0 and 1 (the cap's 6 points), 12 / 16 = 0.75 on hosts 2 and 3 (no points).
const world = busyHostsWorld({ requestMilli: 500, limitMilli: 2000, meanMilli: 300, peakMilli: 1800 });

describe("hvx in the twin: the correlated-burst cap", () => {
  it("given a group that bursts together and two hosts with non-Kubernetes load, moves replicas off those hosts", () => {
    const off = replicasPerHost(world, { enabled: false });
    const on = replicasPerHost(world, { enabled: true });
    expect(on.reduce((a, b) => a + b)).to.equal(24);
    expect(onBusyHosts(on), `cap on ${on.join(" ")}, off ${off.join(" ")}`).to.be.below(onBusyHosts(off));
    // each quiet host carries more than each busy one
    expect(Math.min(on[2]!, on[3]!)).to.be.above(Math.max(on[0]!, on[1]!));
  });
});
