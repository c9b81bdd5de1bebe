import { expect } from "chai";
import { ageSeconds } from "../../src/placement/assess-host.js";
import { KeptDecisions } from "../../src/placement/kept-decisions.js";

const T = 1_764_000_000_000;

describe("KeptDecisions", () => {
  it("answers a decision exactly while every age it was decided at stays the same, edges included", () => {
    const kept = new KeptDecisions<string>();
    const times = [T, T + 250, T - 700];
    const at = T + 3000;
    kept.keep({ name: "w1" }, "host-1", times, at, undefined, "decided");
    const ages = (now: number) => times.map((t) => ageSeconds(t, now)).join(",");
    let answered = 0;
    for (let now = at - 1500; now <= at + 1500; now++) {
      const got = kept.get({ name: "w1" }, now, "");
      if (got !== undefined) answered++;
      expect(got !== undefined, `at +${now - at} ms`).to.equal(ages(now) === ages(at));
    }
    // The ages (3, 3, 4) hold from 200 ms before to 500 ms after.
    expect(answered).to.equal(700);
  });

  it("given sample times with fractions of a millisecond (a corrected vCenter clock), is exact at every edge too", () => {
    const kept = new KeptDecisions<string>();
    const times = [T + 0.3, T + 250.7, T - 699.9];
    const at = T + 3000.1;
    kept.keep({ name: "w1" }, "host-1", times, at, undefined, "decided");
    const ages = (now: number) => times.map((t) => ageSeconds(t, now)).join(",");
    for (let now = at - 1500; now <= at + 1500; now += 0.25)
      expect(kept.get({ name: "w1" }, now, "") !== undefined, `at +${now - at} ms`).to.equal(ages(now) === ages(at));
  });

  it("given a decision that prints no age (untilStaleS), answers it until the first age rounds past the maximum, exactly", () => {
    const kept = new KeptDecisions<string>();
    const times = [T, T + 250, T - 700];
    kept.keep({ name: "w1" }, "host-1", times, T + 3000, undefined, "pass", 120);
    const stale = (now: number) => times.some((t) => ageSeconds(t, now) > 120);
    for (let now = T - 1000; now <= T + 122_000; now += 0.5)
      expect(kept.get({ name: "w1" }, now, "") !== undefined, `at +${now - T} ms`).to.equal(!stale(now));
  });

  it("given an age of 0, answers from any earlier time (a sample from the future counts as 0 s old)", () => {
    const kept = new KeptDecisions<string>();
    kept.keep({ name: "w1" }, "host-1", [T], T + 100, undefined, "fresh");
    expect(kept.get({ name: "w1" }, T - 60_000, "")).to.equal("fresh");
    expect(kept.get({ name: "w1" }, T + 499, "")).to.equal("fresh");
    expect(kept.get({ name: "w1" }, T + 500, "")).to.equal(undefined);
  });

  it("given no times (an unmapped node), answers at any time", () => {
    const kept = new KeptDecisions<string>();
    kept.keep({ name: "ghost" }, "host-1", [undefined], T, undefined, "no opinion");
    expect(kept.get({ name: "ghost" }, T + 86_400_000, "")).to.equal("no opinion");
  });

  it("given the pod being scheduled is counted on the node or its host, does not answer for it", () => {
    const kept = new KeptDecisions<string>();
    kept.keep({ name: "w1" }, "host-1", [T], T, new Set(["on-host"]), "counted once");
    expect(kept.get({ name: "w1" }, T, "on-host")).to.equal(undefined);
    expect(kept.get({ name: "w1" }, T, "elsewhere")).to.equal("counted once");
    expect(kept.get({ name: "w1" }, T, "")).to.equal("counted once");
    // Another node kept with another host's pods: each node answers by its own host's pods.
    kept.keep({ name: "w2" }, "host-1", [T], T, new Set(["elsewhere"]), "other host");
    expect(kept.get({ name: "w2" }, T, "elsewhere")).to.equal(undefined);
    expect(kept.get({ name: "w1" }, T, "elsewhere")).to.equal("counted once");
    expect(kept.get({ name: "w2" }, T, "on-host")).to.equal("other host");
    expect(kept.get({ name: "w1" }, T, "on-host")).to.equal(undefined);
  });

  it("given a node sent with a providerID or systemUUID, answers only to the same name, providerID and systemUUID", () => {
    const kept = new KeptDecisions<string>();
    kept.keep({ name: "w1", providerID: "vsphere://4210" }, "host-1", [T], T, undefined, "by providerID");
    expect(kept.get({ name: "w1", providerID: "vsphere://4210" }, T, "")).to.equal("by providerID");
    expect(kept.get({ name: "w1", providerID: "vsphere://4299" }, T, "")).to.equal(undefined);
    expect(kept.get({ name: "w1" }, T, "")).to.equal(undefined);
    expect(kept.get({ name: "w1", providerID: "vsphere://4210", systemUUID: "4210" }, T, "")).to.equal(undefined);
    kept.keep({ name: "w1" }, "host-1", [T], T, undefined, "by name");
    expect(kept.get({ name: "w1", systemUUID: "4210" }, T, "")).to.equal(undefined);
    expect(kept.get({ name: "w1" }, T, "")).to.equal("by name");
  });

  it("given a change of some nodes' pods, forgets those nodes and every node judged on their hosts, and keeps the rest", () => {
    const kept = new KeptDecisions<string>();
    kept.keep({ name: "a1" }, "host-a", [T], T, undefined, "a1");
    kept.keep({ name: "a2" }, "host-a", [T], T, undefined, "a2");
    kept.keep({ name: "b1" }, "host-b", [T], T, undefined, "b1");
    kept.keep({ name: "unmapped" }, undefined, [], T, undefined, "unmapped");
    kept.forget(["unmapped"], new Set(["host-a"]));
    expect(["a1", "a2", "b1", "unmapped"].map((name) => kept.get({ name }, T, "") ?? "-")).to.deep.equal(["-", "-", "b1", "-"]);
    expect(kept.size).to.equal(1);
  });

  it("given a node kept again on another host, forgets it with its new host only", () => {
    const kept = new KeptDecisions<string>();
    kept.keep({ name: "moved" }, "host-a", [T], T, undefined, "on a");
    kept.keep({ name: "moved" }, "host-b", [T], T, undefined, "on b");
    kept.forget([], new Set(["host-a"]));
    expect(kept.get({ name: "moved" }, T, "")).to.equal("on b");
    kept.forget([], new Set(["host-b"]));
    expect(kept.get({ name: "moved" }, T, "")).to.equal(undefined);
  });
});
