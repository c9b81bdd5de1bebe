import { expect } from "chai";
import type { AcrossSeeds, AcrossSeedsFigures, LeverFigures } from "../../src/simulate/across-seeds.js";
import { drsAdvice, type DrsAdviceInput } from "../../src/simulate/drs-advice.js";
import type { DrsLeverName } from "../../src/simulate/drs-levers.js";
import type { PhysicsName } from "../../src/simulate/physics.js";

const at = (mean: number) => ({ mean, min: mean, max: mean });

function hvx(contended: number, correlatedCoHosted = 0): AcrossSeedsFigures {
  return { contendedPodHours: at(contended), correlatedCoHostedPodHours: at(correlatedCoHosted), vmotions: at(30) } as AcrossSeedsFigures;
}

function lever(cutPercent: number): LeverFigures {
  return { contendedPodHours: at(100 - cutPercent), cutVsAsRunPercent: at(cutPercent), vmotions: at(30) };
}

/** hvx at 100 contended pod-hours with DRS on under each physics, `off` with DRS off, lever cuts per physics. */
function input(p: {
  off?: Partial<Record<PhysicsName, number>>;
  cuts?: Partial<Record<DrsLeverName, [overflow: number, queueing: number]>>;
  coHosted?: [overflow: number, queueing: number];
  correlated?: string[];
  nonKubernetesVms?: number;
}): DrsAdviceInput {
  const physics: AcrossSeeds["physics"] = {};
  const drsLevers: NonNullable<AcrossSeeds["drsLevers"]> = {};
  (["overflow", "queueing"] as const).forEach((ph, i) => {
    const off = p.off?.[ph];
    physics[ph] = { "drs-on": { hvx: hvx(100, p.coHosted?.[i] ?? 0) }, ...(off !== undefined ? { "drs-off": { hvx: hvx(off) } } : {}) };
    drsLevers[ph] = Object.fromEntries(Object.entries(p.cuts ?? {}).map(([name, cuts]) => [name, lever(cuts[i]!)]));
  });
  return {
    acrossSeeds: { seeds: [1], physics, drsLevers },
    correlatedWorkloads: p.correlated ?? [],
    nodeVmsPerHost: 3,
    nonKubernetesVms: p.nonKubernetesVms ?? 6,
  };
}

const verdictOf = (advice: ReturnType<typeof drsAdvice>, prefix: string) => advice.find((a) => a.lever.startsWith(prefix));

describe("drsAdvice", () => {
  const levers: Array<{ name: string; cuts: [number, number]; want: string; helpsUnder?: string[] }> = [
    { name: "given a 25 % and a 12 % cut, returns helps", cuts: [25, 12], want: "helps" },
    {
      name: "given 25 % under overflow and 2 % under queueing, returns helps under overflow only",
      cuts: [25, 2],
      want: "helps under some physics",
      helpsUnder: ["overflow"],
    },
    { name: "given 5 % and -1 %, returns little", cuts: [5, -1], want: "little" },
    { name: "given -3 % and -1 %, returns worse", cuts: [-3, -1], want: "worse" },
  ];
  for (const c of levers) {
    it(c.name, () => {
      const got = verdictOf(drsAdvice(input({ cuts: { "node-vm-shares-high": c.cuts } })), "node VMs' CPU shares High")!;
      expect(got.verdict).to.equal(c.want);
      expect(got.helpsUnder).to.deep.equal(c.helpsUnder);
      expect(got.source).to.match(/Allocate CPU Resources/);
    });
  }

  const vmHost: Array<{ name: string; p: Parameters<typeof input>[0]; want: string; because: RegExp }> = [
    // DRS on 100 against 60 and 80 off: raised by more than 10 % under both
    {
      name: "given DRS raising hvx's contention under both physics, advises the VM-Host rule",
      p: { off: { overflow: 60, queueing: 80 } },
      want: "advised, not simulated",
      because: /hosts hvx kept cool/,
    },
    {
      name: "given DRS raising it under one physics only, returns not indicated (the physics disagree)",
      p: { off: { overflow: 60, queueing: 120 } },
      want: "not indicated",
      because: /physics disagree/,
    },
    // 100 <= 95 x 1.1 = 104.5: within 10 %
    {
      name: "given DRS within 10 % of the DRS-off figure, returns not indicated",
      p: { off: { overflow: 95, queueing: 95 } },
      want: "not indicated",
      because: /does not raise/,
    },
    { name: "given no DRS-off run, returns not indicated", p: {}, want: "not indicated", because: /--drs both/ },
    {
      name: "given no non-Kubernetes VMs, returns not indicated",
      p: { off: { overflow: 10, queueing: 10 }, nonKubernetesVms: 0 },
      want: "not indicated",
      because: /no non-Kubernetes VMs/,
    },
  ];
  for (const c of vmHost) {
    it(c.name, () => {
      const got = verdictOf(drsAdvice(input(c.p)), "a VM-Host")!;
      expect(got.verdict).to.equal(c.want);
      expect(got.because).to.match(c.because);
    });
  }

  it("given correlated replicas on shared hosts carrying 34 % and 30 % of hvx's contention, advises anti-affinity over their node VMs, one per host", () => {
    const got = verdictOf(drsAdvice(input({ correlated: ["api"], coHosted: [34, 30] })), "a VM-VM anti-affinity")!;
    expect(got.verdict).to.equal("advised, not simulated");
    expect(got.lever).to.contain("api");
    expect(got.because)
      .to.match(/`overflow` 34 %, `queueing` 30 %/)
      .and.match(/3 node VMs per host/);
  });

  it("given those replicas carrying 34 % and 20 %, returns not indicated", () =>
    expect(verdictOf(drsAdvice(input({ correlated: ["api"], coHosted: [34, 20] })), "a VM-VM anti-affinity")!.verdict).to.equal(
      "not indicated",
    ));

  it("given no correlated workload, gives no anti-affinity advice", () =>
    expect(verdictOf(drsAdvice(input({ coHosted: [50, 50] })), "a VM-VM anti-affinity")).to.equal(undefined));

  it("given hvx without contention with DRS on under every physics, returns no advice", () => {
    const none = input({ cuts: { "node-vm-shares-high": [0, 0] }, off: { overflow: 0, queueing: 0 } });
    for (const p of ["overflow", "queueing"] as const) none.acrossSeeds.physics[p]!["drs-on"] = { hvx: hvx(0) };
    expect(drsAdvice(none)).to.deep.equal([]);
  });

  it("given no DRS-on run, returns no advice", () =>
    expect(drsAdvice({ ...input({}), acrossSeeds: { seeds: [1], physics: { overflow: { "drs-off": { hvx: hvx(10) } } } } })).to.deep.equal(
      [],
    ));
});
