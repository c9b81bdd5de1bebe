import type { NodeIdentity } from "../model/node.js";
import { decideNode, RequestMemo, type ClusterContext, type NodeDecision, type PlacementContext } from "./decide-node.js";
import type { PodMeta } from "./exemption.js";
import type { HostOccupancy } from "./host-occupancy.js";
import type { PlacementIndex } from "./placement-index.js";
import { replicasOn, type SpreadRule } from "./host-spread.js";
import type { Reason } from "./reason.js";
import { occupancyWithout, withoutVictims } from "./without-victims.js";

/** One node kube-scheduler could preempt on, with the pods it would evict there. */
export interface PreemptionCandidate {
  readonly node: string;
  /** UIDs of the victims, as kube-scheduler chose them (hvx does not pick victims). */
  readonly victimUids: readonly string[];
}

export interface PreemptionVerdict {
  readonly node: string;
  /** Keep the node (with its victims unchanged) among kube-scheduler's candidates. */
  readonly keep: boolean;
  /** Why the node is dropped; empty when kept. */
  readonly reasons: readonly Reason[];
  /** The filter's decision for the pod on this node with the victims gone. */
  readonly decision: NodeDecision;
  /** Victims found in the cluster view and taken away (0 without the cluster view). */
  readonly removedVictims: number;
  /** Victim UIDs the cluster view does not hold on the node (nothing to take away for them). */
  readonly unknownVictims: readonly string[];
}

export interface PreemptionOutcome {
  /** Nodes kept, in the order sent. */
  readonly kept: readonly string[];
  readonly verdicts: readonly PreemptionVerdict[];
}

/**
 * The extender's preemption verb. A candidate node is kept only if hvx's filter would pass the
 * pod there once the node's victims are gone: their requests, limits and expected demand leave
 * the node (limit overcommit) and its ESXi host (stacked cap, spread, burst guard). Victims only
 * change the Kubernetes-layer rules, so a node on a hot host stays out, as in the filter.
 * On top of the filter, a node hvx cannot map to a host is dropped: preemption evicts pods, and
 * hvx does not make room on a host it knows nothing about. Pods exempt from the host rules
 * (DaemonSet, system-critical, ...) keep both kinds of node, exactly as the filter lets them in.
 *
 * Each candidate is judged in its own world (only its own victims evicted, every other node as
 * it is), because kube-scheduler evicts on one node only. Without the cluster view there are no
 * Kubernetes-layer rules and victims change nothing: only the host rules apply.
 * Pure; no snapshot is mutated.
 */
export function judgePreemptionCandidates(
  pod: PodMeta,
  candidates: readonly PreemptionCandidate[],
  ctx: PlacementContext,
): PreemptionOutcome {
  const identities: NodeIdentity[] = candidates.map((c) => ({ name: c.node }));
  // Candidates whose victims the view does not hold are judged as the filter judges them,
  // with one memo shared between them (same snapshots, same answers).
  const shared = new RequestMemo(identities);
  const replicas = new CandidateHostReplicas(identities, () => shared.index(ctx).occupancy!);
  const verdicts = candidates.map((c) => judgeCandidate(c, pod, identities, ctx, shared, replicas));
  return { kept: verdicts.filter((v) => v.keep).map((v) => v.node), verdicts };
}

function judgeCandidate(
  c: PreemptionCandidate,
  pod: PodMeta,
  identities: readonly NodeIdentity[],
  ctx: PlacementContext,
  shared: RequestMemo,
  replicas: CandidateHostReplicas,
): PreemptionVerdict {
  const cluster = ctx.cluster;
  let decision: NodeDecision;
  let removedVictims = 0;
  let unknownVictims: readonly string[] = [];
  if (!cluster) {
    decision = decideNode({ name: c.node }, pod, ctx, shared);
  } else {
    const removal = withoutVictims(cluster.view, c.node, c.victimUids);
    removedVictims = removal.removed.length;
    unknownVictims = removal.unknownUids;
    if (removal.removed.length === 0) {
      decision = decideNode({ name: c.node }, pod, ctx, shared);
    } else {
      const index = shared.index(ctx);
      const base = index.occupancy!;
      const hostId = base.hostOfNode.get(c.node);
      const pending =
        ctx.policy.burstGuard.enabled && hostId !== undefined
          ? { sampledAtMs: ctx.inventory.hosts.get(hostId)?.metrics?.sampledAtMs, settleMs: ctx.policy.burstGuard.settleSeconds * 1000 }
          : undefined;
      const occupancy = occupancyWithout(base, hostId, removal, pending);
      const without: ClusterContext = { ...cluster, view: removal.view };
      const derived = hostId === undefined ? undefined : index.without(removal.view, occupancy, hostId, c.node);
      decision = decideNode(
        { name: c.node },
        pod,
        { ...ctx, cluster: without, ...(derived ? { index: derived } : {}) },
        new CandidateMemo(identities, replicas, hostId),
      );
    }
  }
  const reasons = dropReasons(decision);
  return { node: c.node, keep: reasons.length === 0, reasons, decision, removedVictims, unknownVictims };
}

/** Empty when the node may stay a candidate. */
function dropReasons(d: NodeDecision): readonly Reason[] {
  if (d.verdict === "reject") return d.reasons;
  const unmapped = d.vm === undefined || d.host === undefined;
  if (unmapped && d.exemptBy === undefined) return d.reasons;
  return [];
}

/**
 * A request memo for one candidate's world: the occupancy tables given (the base snapshot's,
 * minus the candidate's victims), and the spread baseline from the request's shared per-host
 * counts, where only the candidate's own host differs from the snapshot.
 */
class CandidateMemo extends RequestMemo {
  constructor(
    candidates: readonly NodeIdentity[],
    private readonly replicas: CandidateHostReplicas,
    private readonly hostId: string | undefined,
  ) {
    super(candidates);
  }

  override leastReplicasOnCandidates(index: PlacementIndex, rule: SpreadRule, exceptUid: string): number {
    if (this.hostId === undefined || !index.occupancy) return super.leastReplicasOnCandidates(index, rule, exceptUid);
    return this.replicas.leastWith(
      rule.owner,
      exceptUid,
      this.hostId,
      replicasOn(index.occupancy.podsOnHost(this.hostId), rule.owner, exceptUid),
    );
  }
}

/**
 * Replicas of one owner on each candidate's host in the snapshot, counted once per request, so
 * that each candidate's spread baseline ("fewest replicas on any candidate host", as
 * `RequestMemo.leastReplicasOnCandidates` defines it) costs O(1) instead of a pass over every
 * candidate: hundreds of candidates would otherwise cost a quadratic number of look-ups.
 */
class CandidateHostReplicas {
  private known: { owner: string; exceptUid: string; lowest: number; hosts: ReadonlySet<string> } | undefined;

  constructor(
    private readonly candidates: readonly NodeIdentity[],
    private readonly base: () => HostOccupancy,
  ) {}

  /**
   * The fewest replicas on any candidate host, with `hostId` holding `onHost` instead of its
   * snapshot count. Victims only lower their own host's count, so this is the snapshot's
   * fewest or `onHost`, whichever is lower.
   */
  leastWith(owner: string, exceptUid: string, hostId: string, onHost: number): number {
    const k = this.counts(owner, exceptUid);
    if (k.hosts.size === 0) return 0;
    return k.hosts.has(hostId) ? Math.min(k.lowest, onHost) : k.lowest;
  }

  private counts(owner: string, exceptUid: string) {
    if (this.known && this.known.owner === owner && this.known.exceptUid === exceptUid) return this.known;
    const occupancy = this.base();
    let lowest = Number.POSITIVE_INFINITY;
    const hosts = new Set<string>();
    for (const c of this.candidates) {
      const hostId = occupancy.hostOfNode.get(c.name);
      if (hostId === undefined || hosts.has(hostId)) continue;
      hosts.add(hostId);
      lowest = Math.min(lowest, replicasOn(occupancy.podsOnHost(hostId), owner, exceptUid));
    }
    return (this.known = { owner, exceptUid, lowest, hosts });
  }
}
