import { expect } from "chai";
import { busyHostsWorld, onBusyHosts, replicasPerHost } from "./busy-hosts-world.js";

// api: limit 0.5 CPU each (12 on a host would still be under the cap's soft share of its room);
// the busy hosts' weight is 0.5. With plain counts the spread holds the replicas within one of 6
// per host; weighed by room it expects about 4 on each busy host and 8 on each quiet one.
const world = busyHostsWorld({ requestMilli: 250, limitMilli: 500, meanMilli: 150, peakMilli: 450 });

describe("hvx in the twin: the replica spread weighed by burst room", () => {
  it("given a bursting group and two hosts with half their CPU taken by other VMs, keeps fewer replicas there", () => {
    const off = replicasPerHost(world, { spreadByRoom: false });
    const on = replicasPerHost(world, { spreadByRoom: true });
    expect(on.reduce((a, b) => a + b)).to.equal(24);
    expect(onBusyHosts(on), `by room ${on.join(" ")}, by count ${off.join(" ")}`).to.be.below(onBusyHosts(off));
    expect(Math.min(on[2]!, on[3]!)).to.be.above(Math.max(on[0]!, on[1]!));
  });
});
