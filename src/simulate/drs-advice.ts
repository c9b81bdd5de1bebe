import type { AcrossSeeds, AcrossSeedsFigures, LeverFigures } from "./across-seeds.js";
import { DRS_LEVER_NAMES, DRS_LEVER_TITLES, type DrsLeverName } from "./drs-levers.js";
import type { PhysicsName } from "./physics.js";

/** A lever "helps" when it cuts hvx's contended pod-hours with DRS on by at least this much, on average, under every physics. */
export const LEVER_HELPS_PERCENT = 10;
/** DRS "undoes placement" when hvx's contended pod-hours with DRS on exceed its DRS-off figure by more than this share. */
export const DRS_UNDOES_PERCENT = 10;
/** Anti-affinity for a correlated group is advised when its co-hosted replicas carry at least this share of hvx's contention. */
export const CORRELATED_SHARE_PERCENT = 25;

export type AdviceVerdict = "helps" | "helps under some physics" | "little" | "worse" | "advised, not simulated" | "not indicated";

/** One vSphere lever, what the run says of it, why, and where VMware documents it. */
export interface DrsAdvice {
  readonly lever: string;
  readonly verdict: AdviceVerdict;
  /** The physics under which it helps (`helps under some physics`). */
  readonly helpsUnder?: readonly PhysicsName[];
  readonly because: string;
  readonly source: string;
}

export interface DrsAdviceInput {
  readonly acrossSeeds: AcrossSeeds;
  /** Workloads whose replicas burst together (`burst.correlated`). */
  readonly correlatedWorkloads: readonly string[];
  readonly nodeVmsPerHost: number;
  readonly nonKubernetesVms: number;
}

const SOURCES = {
  shares:
    'vSphere Resource Management, "Allocate CPU Resources" (shares decide who gets a time slice when no CPU is idle) and the vSphere API\'s SharesInfo.Level (High = 2000 per vCPU)',
  reservation:
    'vSphere Resource Management, "Resource Allocation Settings Suggestions" (a reservation is the guaranteed minimum; leave at least 10 % unreserved, or DRS may be unable to migrate VMs)',
  threshold:
    'vSphere Resource Management, "DRS Migration Threshold" (each level to the left applies one priority level fewer) and VMware KB 1007485',
  vmHost:
    'vSphere Resource Management, "VM-Host Affinity Rules" and "Using VM-Host Affinity Rules" ("should" rules can be broken for maintenance and HA, "must" rules cannot)',
  vmVm: 'vSphere Resource Management, "VM-VM Affinity Rules" (an anti-affinity rule keeps the VMs on different hosts) and the vSphere API\'s ClusterAntiAffinityRuleSpec',
} as const;

const LEVER_SOURCES: Readonly<Record<DrsLeverName, string>> = {
  "node-vm-shares-high": SOURCES.shares,
  "node-vm-reservation": SOURCES.reservation,
  "migration-threshold-lower": SOURCES.threshold,
};

const LEVER_WHY: Readonly<Record<DrsLeverName, string>> = {
  "node-vm-shares-high":
    "shares decide who waits only when a host's demand exceeds its cores; the run-queue wait below that is shared by the CPU each VM receives",
  "node-vm-reservation": "a reservation is a floor ESXi serves before any share; above it the node VMs compete by shares as before",
  "migration-threshold-lower": "a more conservative threshold tolerates more imbalance, so DRS moves fewer VMs onto the hosts hvx chose",
};

/**
 * What would help hvx with DRS on, derived from the run: the levers tried in the twin
 * (drs-levers.ts) by their measured cut, and the DRS rules the twin cannot simulate, by the
 * figures that call for them; none when hvx had no contention with DRS on (or no DRS-on run).
 * Pure: the across-seeds figures in, advice out.
 */
export function drsAdvice(input: DrsAdviceInput): DrsAdvice[] {
  const physics = (Object.keys(input.acrossSeeds.physics) as PhysicsName[]).filter((p) => input.acrossSeeds.physics[p]?.["drs-on"]?.hvx);
  if (physics.every((p) => input.acrossSeeds.physics[p]!["drs-on"]!.hvx!.contendedPodHours.mean === 0)) return [];
  return [...measuredLevers(input.acrossSeeds, physics), vmHostRule(input, physics), ...correlatedRule(input, physics)];
}

function measuredLevers(a: AcrossSeeds, physics: readonly PhysicsName[]): DrsAdvice[] {
  const out: DrsAdvice[] = [];
  for (const lever of DRS_LEVER_NAMES) {
    const per = physics.map((p) => ({ p, asRun: a.physics[p]!["drs-on"]!.hvx!, f: a.drsLevers?.[p]?.[lever] }));
    if (per.some((x) => x.f === undefined)) continue;
    const cutOf = (x: (typeof per)[number]) => x.f!.cutVsAsRunPercent?.mean ?? 0;
    const helpsUnder = per.filter((x) => cutOf(x) >= LEVER_HELPS_PERCENT).map((x) => x.p);
    const verdict: AdviceVerdict =
      helpsUnder.length === per.length
        ? "helps"
        : helpsUnder.length > 0
          ? "helps under some physics"
          : per.every((x) => cutOf(x) < 0)
            ? "worse"
            : "little";
    const figures = per.map((x) => `\`${x.p}\` ${leverFigures(x.asRun, x.f!)}`).join("; ");
    out.push({
      lever: DRS_LEVER_TITLES[lever],
      verdict,
      ...(verdict === "helps under some physics" ? { helpsUnder } : {}),
      because: `${figures}. Why: ${LEVER_WHY[lever]}.`,
      source: LEVER_SOURCES[lever],
    });
  }
  return out;
}

function leverFigures(asRun: AcrossSeedsFigures, f: LeverFigures): string {
  const cut = f.cutVsAsRunPercent;
  const cutText = cut
    ? `${cut.mean >= 0 ? "cut" : "up"} ${Math.abs(cut.mean).toFixed(1)} % [${cut.min.toFixed(1)}, ${cut.max.toFixed(1)}]`
    : "n/a";
  return `hvx ${asRun.contendedPodHours.mean.toFixed(1)} -> ${f.contendedPodHours.mean.toFixed(1)} contended pod-hours (${cutText}), vMotions ${asRun.vmotions.mean.toFixed(0)} -> ${f.vmotions.mean.toFixed(0)}`;
}

function vmHostRule(input: DrsAdviceInput, physics: readonly PhysicsName[]): DrsAdvice {
  const lever = 'a VM-Host "should run on" rule keeping the busy non-Kubernetes VMs on their own host group';
  const a = input.acrossSeeds;
  if (input.nonKubernetesVms === 0)
    return { lever, verdict: "not indicated", because: "The scenario has no non-Kubernetes VMs.", source: SOURCES.vmHost };
  const per = physics.map((p) => ({ p, on: a.physics[p]!["drs-on"]!.hvx!, off: a.physics[p]?.["drs-off"]?.hvx }));
  if (per.some((x) => x.off === undefined))
    return { lever, verdict: "not indicated", because: "No DRS-off run to compare with (`--drs both`).", source: SOURCES.vmHost };
  const figures = per
    .map(
      (x) => `\`${x.p}\` ${x.off!.contendedPodHours.mean.toFixed(1)} with DRS off, ${x.on.contendedPodHours.mean.toFixed(1)} with DRS on`,
    )
    .join("; ");
  const raised = per.filter((x) => x.on.contendedPodHours.mean > x.off!.contendedPodHours.mean * (1 + DRS_UNDOES_PERCENT / 100));
  if (raised.length > 0 && raised.length < per.length)
    return {
      lever,
      verdict: "not indicated",
      because: `DRS raises hvx's contention under ${raised.map((x) => `\`${x.p}\``).join(", ")} only (${figures}); where it does not, the rule would keep hvx at a worse DRS-off figure, so the physics disagree and the run does not call for it.`,
      source: SOURCES.vmHost,
    };
  return raised.length === per.length
    ? {
        lever,
        verdict: "advised, not simulated",
        because: `hvx's contended pod-hours (${figures}): DRS moves VMs onto the hosts hvx kept cool. A "should" rule keeps the busy VMs where hvx already routes pods around them; at best hvx returns to its DRS-off figure (the twin has no DRS rules).`,
        source: SOURCES.vmHost,
      }
    : { lever, verdict: "not indicated", because: `DRS does not raise hvx's contention (${figures}).`, source: SOURCES.vmHost };
}

function correlatedRule(input: DrsAdviceInput, physics: readonly PhysicsName[]): DrsAdvice[] {
  if (input.correlatedWorkloads.length === 0) return [];
  const lever = `a VM-VM anti-affinity rule over the node VMs that carry ${input.correlatedWorkloads.join(", ")}`;
  const shares = physics.map((p) => {
    const hvx = input.acrossSeeds.physics[p]!["drs-on"]!.hvx!;
    const contended = hvx.contendedPodHours.mean;
    return { p, share: contended > 0 ? (hvx.correlatedCoHostedPodHours.mean / contended) * 100 : 0 };
  });
  const figures = shares.map((x) => `\`${x.p}\` ${x.share.toFixed(0)} %`).join(", ");
  const what = `of hvx's contended pod-hours with DRS on are replicas of ${input.correlatedWorkloads.join(", ")} (their replicas burst together) on a host that runs another replica on another node VM (${figures})`;
  if (!shares.every((x) => x.share >= CORRELATED_SHARE_PERCENT))
    return [{ lever, verdict: "not indicated", because: `Little ${what}.`, source: SOURCES.vmVm }];
  const feasible =
    input.nodeVmsPerHost > 1
      ? ` With ${input.nodeVmsPerHost} node VMs per host a rule over every node VM cannot hold: give the group node VMs of its own, at most one per host (a node label and the workload's nodeSelector), and put those in the rule.`
      : "";
  return [
    {
      lever,
      verdict: "advised, not simulated",
      because: `A large share ${what}. Kubernetes spreads replicas over nodes, not hosts, and DRS moves node VMs without seeing pods; the rule keeps those node VMs apart.${feasible}`,
      source: SOURCES.vmVm,
    },
  ];
}
