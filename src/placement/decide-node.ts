import type { ClusterView, PodView } from "../model/cluster.js";
import type { HostMetrics, HostView, InventoryView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import type { HostAssessment } from "./assess-host.js";
import type { PendingDemand } from "./burst-guard.js";
import { clusterViewFresh } from "./cluster-freshness.js";
import { exemptionOf, type Exemption, type PodMeta } from "./exemption.js";
import { replicasIn, spreadRuleOf, type SpreadRule } from "./host-spread.js";
import type { KeptDecisions } from "./kept-decisions.js";
import { KeptNode, UNSCORED } from "./kept-node.js";
import { PlacementIndex, type HostEntry, type NodeEntry } from "./placement-index.js";
import type { PlacementPolicy } from "./policy.js";
import { predictionHorizonMs } from "./predicted-heat.js";
import { KUBERNETES_RULES, type CandidateMeasure, type PodFacts, type ScoreAdjustment } from "./rules/kubernetes/index.js";
import { NO_REASONS, type Reason } from "./reason.js";
import { penalise, scoreHost } from "./score-host.js";
/** The Kubernetes side, when hvx watches the cluster: enables burst guard, limits and spread. */
export interface ClusterContext {
  readonly view: ClusterView;
  /** The pod being scheduled, with its demand and replica group. */
  readonly pod: PodView;
}

/** Everything a decision may look at; built per request by the edge. */
export interface PlacementContext {
  readonly inventory: InventoryView;
  readonly policy: PlacementPolicy;
  readonly nowMs: number;
  readonly cluster?: ClusterContext;
  /**
   * What the snapshot pair (inventory, cluster view) and the policy let every request share;
   * built once per snapshot by the edge. Without one (or with one built for other snapshots)
   * each request builds its own, as far as it needs.
   */
  readonly index?: PlacementIndex;
}

export interface NodeDecision {
  readonly node: string;
  /** reject: keep the pod off this node. Host-based rejections are unresolvable by preemption. */
  readonly verdict: "pass" | "reject";
  readonly unresolvable: boolean;
  /** Rejections when rejected; when passing with no opinion, why hvx has none. */
  readonly reasons: readonly Reason[];
  /** hvx could not judge the node's host (unmapped, no host, missing or stale metrics, stale inventory). */
  readonly noOpinion: boolean;
  readonly vm: VmView | undefined;
  readonly host: HostView | undefined;
  readonly assessment: HostAssessment | undefined;
  /** Set when the pod bypasses every hvx rule. */
  readonly exemptBy: string | undefined;
  /** 0..10, higher is better. */
  readonly score: number;
  /** A judged pass: the host's tier score before the Kubernetes-layer penalties... */
  readonly baseScore?: number;
  /** ...and the metrics it read (the predicted peaks when a forecast raised them): what explain shows. */
  readonly scoredOn?: HostMetrics;
  /** What the decision weighed on the way, for `explain`: the burst guard's pending pods and the Kubernetes-layer rules' adjustments. */
  readonly pending?: PendingDemand;
  readonly adjustments?: readonly ScoreAdjustment[];
}

type KeptNodeDecision = KeptNode<Judgement, NodeDecision>;

/** The snapshot index `ctx` names when it serves its snapshots, else a fresh one. */
export function indexOf(ctx: PlacementContext): PlacementIndex {
  const view = ctx.cluster?.view;
  return ctx.index?.serves(ctx.inventory, view, ctx.policy) ? ctx.index : new PlacementIndex(ctx.inventory, ctx.policy, view);
}

/** What a request's candidates share (`RequestMemo.facts`). */
interface RequestFacts {
  readonly index: PlacementIndex;
  readonly exemption: Exemption | undefined;
  readonly k8sRules: boolean;
  readonly horizonMs: number;
  /** Key of the kept decisions; undefined: not kept (exempt pod without a cluster view). */
  readonly podKey: string | undefined;
  /** The decisions kept for `podKey`. */
  readonly kept: KeptDecisions<KeptNodeDecision> | undefined;
  /** What the rules' adjustments read of the request's candidates (`KubernetesRule.relativeKey`). */
  readonly relative: string;
  /** The pod's uid as the uid sets are asked for it: "" when no pod list of the view holds it (no set does). */
  readonly listedUid: string;
  /** Scores a kept judgement again for this request (`KeptNode`). */
  readonly rescore: (judgement: Judgement) => NodeDecision;
}

/** What one request computes once and shares between its candidate nodes. */
export class RequestMemo {
  /** Per host: the Kubernetes-layer checks for this request's pod, and the reasons shared by its nodes that add none of their own. */
  readonly hosts = new Map<string, HostChecks>();
  private leastReplicas: number | undefined;
  private readonly leastMeasured = new Map<string, number | undefined>();
  private exemption: { pod: PodMeta | undefined; daemonSets: ReadonlySet<string> | undefined; exempt: Exemption | undefined } | undefined;
  private spread: { pod: PodView; rule: SpreadRule | undefined } | undefined;
  private factsOf: { pod: PodView; facts: PodFacts } | undefined;
  private indexFor: PlacementIndex | undefined;
  private key: string | undefined;
  private keyPod: PodView | undefined;
  private horizon: { pod: PodMeta | undefined; ms: number } | undefined;
  private lastFacts: { ctx: PlacementContext; pod: PodMeta | undefined; facts: RequestFacts } | undefined;

  /**
   * `scores` false: the request answers verdicts alone (a filter), so nothing that only moves a
   * score against the other candidates is computed; prioritize scores the node from its kept judgement.
   */
  constructor(
    private readonly candidates: readonly NodeIdentity[] = [],
    readonly scores = true,
  ) {}

  /**
   * What every candidate's decision shares, once per request and context (the all-rejected
   * valve asks with a second one): the index, the pod's exemption, whether the Kubernetes-layer
   * rules apply, the prediction horizon and the pod key of the kept decisions.
   */
  facts(ctx: PlacementContext, pod: PodMeta | undefined): RequestFacts {
    const known = this.lastFacts;
    if (known && known.ctx === ctx && known.pod === pod) return known.facts;
    const { policy, cluster } = ctx;
    const index = this.index(ctx);
    const listedUid = asListed(index, cluster?.pod.uid ?? "");
    const exemption = this.exemptionOf(pod, policy, cluster?.view.daemonSets);
    // Kubernetes-layer caps: not for fully exempt pods, and no opinion on a cluster view too old to trust.
    const k8sRules = cluster !== undefined && exemption?.scope !== "all" && clusterViewFresh(cluster.view, ctx.nowMs, policy);
    // Predicted heat (issue 9 §2) looks as far ahead as the pod lives: the horizon is part of what the decision depends on.
    const horizonMs = ctx.inventory.forecasts ? this.predictionHorizonMs(pod, policy) : 0;
    const ahead = horizonMs > 0 ? `|ahead ${horizonMs}` : "";
    // What of the pod this decision depends on: nothing but the horizon without a cluster view (if not exempt).
    const podKey = cluster ? this.podKey(index, cluster, pod, exemption, k8sRules, policy) + ahead : exemption ? undefined : ahead;
    const kept = podKey === undefined ? undefined : index.keptDecisions<KeptNodeDecision>(policy, podKey);
    const relative = cluster && k8sRules ? (this.scores ? this.relativeKey(index, cluster, pod, policy) : UNSCORED) : "";
    const rescore = (judgement: Judgement) => judged(judgement, exemption?.by, pod, ctx, index, this, k8sRules);
    const facts = { index, exemption, k8sRules, horizonMs, podKey, kept, listedUid, relative, rescore };
    this.lastFacts = { ctx, pod, facts };
    return facts;
  }

  /** The snapshot index for `ctx`, looked up once per request. */
  index(ctx: PlacementContext): PlacementIndex {
    const known = this.indexFor;
    if (known && known.serves(ctx.inventory, ctx.cluster?.view, ctx.policy)) return known;
    return (this.indexFor = indexOf(ctx));
  }

  /** How far ahead the pod looks at its hosts' predicted peaks, ms (0: the present alone), judged once per request. */
  predictionHorizonMs(pod: PodMeta | undefined, policy: PlacementPolicy): number {
    if (!this.horizon || this.horizon.pod !== pod) this.horizon = { pod, ms: predictionHorizonMs(pod, policy.prediction) };
    return this.horizon.ms;
  }

  /** Why the pod is exempt, and from which rules (or undefined), judged once per request. */
  exemptionOf(pod: PodMeta | undefined, policy: PlacementPolicy, daemonSets?: ReadonlySet<string>): Exemption | undefined {
    if (!this.exemption || this.exemption.pod !== pod || this.exemption.daemonSets !== daemonSets)
      this.exemption = { pod, daemonSets, exempt: pod ? exemptionOf(pod, policy.exempt, daemonSets) : undefined };
    return this.exemption.exempt;
  }

  /**
   * What of the pod and this request a cluster-aware decision depends on, once per request:
   * exemption, whether the Kubernetes-layer rules apply and, when they do, what each of them
   * reads (`KubernetesRule.podKey`). Two requests with the same key get the same
   * decision for a node (given the same snapshots and ages; see `PlacementIndex.keptDecision`).
   */
  podKey(
    index: PlacementIndex,
    cluster: ClusterContext,
    pod: PodMeta | undefined,
    exemption: Exemption | undefined,
    k8sRules: boolean,
    policy: PlacementPolicy,
  ): string {
    if (this.key !== undefined && this.keyPod === cluster.pod) return this.key;
    const p = cluster.pod;
    let key = `${exemption ? `${exemption.scope}:${exemption.by}` : "-"}|${k8sRules ? "k8s" : "-"}`;
    if (k8sRules) {
      const facts = this.podFacts(index, cluster, pod, policy);
      for (const rule of KUBERNETES_RULES) key += `|${rule.podKey(facts)}`;
    }
    this.keyPod = p;
    return (this.key = key);
  }

  /** What the Kubernetes-layer rules' adjustments read of this request's candidates (`KubernetesRule.relativeKey`). */
  relativeKey(index: PlacementIndex, cluster: ClusterContext, pod: PodMeta | undefined, policy: PlacementPolicy): string {
    const facts = this.podFacts(index, cluster, pod, policy);
    return KUBERNETES_RULES.map((rule) => rule.relativeKey?.(facts) ?? "").join("|");
  }

  /** What the Kubernetes-layer rules read of the incoming pod, once per request. */
  podFacts(index: PlacementIndex, cluster: ClusterContext, pod: PodMeta | undefined, policy: PlacementPolicy): PodFacts {
    const p = cluster.pod;
    if (this.factsOf?.pod !== p) {
      const listedUid = asListed(index, p.uid);
      const facts = {
        pod: listedUid === p.uid ? p : { ...p, uid: listedUid },
        spread: this.spreadRule(cluster, pod, policy),
        leastReplicas: (rule: SpreadRule) => this.leastReplicasOnCandidates(index, rule, listedUid),
        leastOnCandidates: (name: string, measure: CandidateMeasure, floor?: number) =>
          this.leastOnCandidates(index, policy, name, measure, floor),
      };
      this.factsOf = { pod: p, facts };
      this.leastMeasured.clear();
    }
    return this.factsOf.facts;
  }

  /** The incoming pod's spread rule, once per request. */
  spreadRule(cluster: ClusterContext, pod: PodMeta | undefined, policy: PlacementPolicy): SpreadRule | undefined {
    if (!this.spread || this.spread.pod !== cluster.pod)
      this.spread = { pod: cluster.pod, rule: spreadRuleOf(cluster.pod, pod?.annotations ?? {}, policy.scoring) };
    return this.spread.rule;
  }

  /** The least of a rule's `measure` over the candidates' distinct hosts (down to `floor`), once per request and rule `name`. */
  leastOnCandidates(
    index: PlacementIndex,
    policy: PlacementPolicy,
    name: string,
    measure: CandidateMeasure,
    floor = Number.NEGATIVE_INFINITY,
  ): number | undefined {
    if (this.leastMeasured.has(name)) return this.leastMeasured.get(name);
    let least: number | undefined;
    const hostOfNode = index.occupancy?.hostOfNode;
    const visits = index.hostVisits;
    const pass = visits.begin();
    for (const c of this.candidates) {
      const hostId = hostOfNode?.get(c.name);
      if (hostId === undefined || !visits.first(hostId, pass)) continue;
      const entry = index.hostEntry(hostId);
      const value = entry ? measure(entry, index, policy) : undefined;
      if (value !== undefined && (least === undefined || value < least)) least = value;
      if (least !== undefined && least <= floor) break;
    }
    this.leastMeasured.set(name, least);
    return least;
  }

  /**
   * Fewest replicas of the owner on any candidate's host (0 when a candidate host has none);
   * filter and prioritize share it through the index.
   */
  leastReplicasOnCandidates(index: PlacementIndex, rule: SpreadRule, exceptUid: string): number {
    this.leastReplicas ??= index.leastReplicas(rule.owner, exceptUid, this.candidates, () => {
      let least = Number.POSITIVE_INFINITY;
      const hostOfNode = index.occupancy?.hostOfNode;
      for (const c of this.candidates) {
        const hostId = hostOfNode?.get(c.name);
        if (hostId === undefined) continue;
        const entry = index.hostEntry(hostId);
        least = Math.min(least, entry ? replicasIn(entry.totals, entry.podsOnHost, rule.owner, exceptUid) : 0);
        if (least === 0) break;
      }
      return Number.isFinite(least) ? least : 0;
    });
    return this.leastReplicas;
  }
}

/** Decides one node for one pod (pod undefined: prioritize-only or /debug views). */
export function decideNode(
  node: NodeIdentity,
  pod: PodMeta | undefined,
  ctx: PlacementContext,
  memo: RequestMemo = new RequestMemo([node]),
): NodeDecision {
  const { policy, cluster } = ctx;
  // The pod's uid, or "" when no pod list holds it: then no uid set of a node or host is asked.
  const { index, exemption, k8sRules, horizonMs, podKey, kept, listedUid: uid, relative, rescore } = memo.facts(ctx, pod);
  const exemptBy = exemption?.by;
  const readsNodes = cluster !== undefined && k8sRules;
  // A pod the cluster view already counts on this node is decided under its own key (below). A
  // kept decision counted the pods of the host the node maps to (`KeptDecisions.get` checks
  // them), which include the node's own, unless the node was sent with another identity than the
  // informer's Node of that name: only then is the node's own list asked first.
  const sentByName = node.providerID === undefined && node.systemUUID === undefined;
  const askNodeFirst = !sentByName && readsNodes && countedOn(index.nodeEntry(node.name), uid);
  const known = kept && !askNodeFirst ? kept.get(node, ctx.nowMs, uid) : undefined;
  if (known) return known.decisionFor(relative, rescore);
  const nodeEntry = readsNodes ? index.nodeEntry(node.name) : undefined;
  const onNode = countedOn(nodeEntry, uid);
  const vm = index.vmOf(node);
  const entry = vm ? index.hostEntry(vm.hostId) : undefined;
  const host = entry?.host;
  if (!vm || !entry || !host) {
    const nodeReasons = nodeEntry
      ? index.limitReasons(nodeEntry, memo.podFacts(index, cluster!, pod, policy).pod, policy.limits)
      : NO_REASONS;
    const reason: Reason = !vm
      ? { code: "node_unmapped", node: node.name }
      : { code: "vm_host_unknown", vm: { id: vm.id, name: vm.name }, hostId: vm.hostId };
    const decision =
      nodeReasons.length > 0
        ? rejected(node.name, false, nodeReasons, vm, host, undefined, exemptBy)
        : noOpinion(node.name, reason, policy, exemptBy, vm, undefined, undefined);
    // Nothing here reads an age; a pod counted on the node is not kept (its limits were not added twice).
    if (!onNode)
      kept?.keep(
        node,
        undefined,
        [],
        ctx.nowMs,
        nodeEntry?.totals.uids,
        new KeptNode<Judgement, NodeDecision>(undefined, relative, decision),
      );
    return decision;
  }

  // A pod already counted on the node or the host (a re-sent bound pod) is not counted twice: its uid joins the key.
  const listedHere = onNode || (uid !== "" && entry.totals.uids.has(uid));
  const table = listedHere && podKey !== undefined ? index.keptDecisions<KeptNodeDecision>(policy, `${podKey}|listed ${uid}`) : kept;
  if (listedHere) {
    const again = table?.get(node, ctx.nowMs, "");
    if (again) return again.decisionFor(relative, rescore);
  }
  const nodeReasons = nodeEntry
    ? index.limitReasons(nodeEntry, memo.podFacts(index, cluster!, pod, policy).pod, policy.limits)
    : NO_REASONS;
  const present = index.hostAlone(entry, policy.thresholds, ctx.nowMs);
  const predicted = horizonMs > 0 ? index.predicted(entry, present, horizonMs, policy) : undefined;
  const assessment = index.assessment(entry, predicted?.assessment ?? present, vm, policy.thresholds, ctx.nowMs);
  const judgement: Judgement = { name: node.name, vm, entry, assessment, scoring: predicted?.metrics, nodeReasons };
  const decision = judged(judgement, exemptBy, pod, ctx, index, memo, k8sRules);
  const sampled = entry.projected;
  const times = [sampled.polledAtMs, sampled.metrics?.sampledAtMs, vm.metrics?.sampledAtMs];
  // The host's pods include the node's (the node is mapped to one of the host's VMs).
  // A judged pass prints no age: it stands until an age passes the maximum (kept-decisions.ts).
  const printsNoAge = decision.verdict === "pass" && decision.reasons.length === 0;
  const untilStaleS = printsNoAge ? policy.thresholds.maxMetricAgeSeconds : undefined;
  // A decision that read no Kubernetes-layer adjustment answers any candidates.
  const keptNode = new KeptNode<Judgement, NodeDecision>(decision.adjustments ? judgement : undefined, relative, decision);
  table?.keep(node, entry.host.id, times, ctx.nowMs, listedHere ? undefined : entry.totals.uids, keptNode, untilStaleS);
  return decision;
}

/** `uid`, or "" when no pod list of the index's view holds it: a uid set is asked for it only then. */
function asListed(index: PlacementIndex, uid: string): string {
  return uid !== "" && index.listsUid(uid) ? uid : "";
}

/** Whether the cluster view counts the pod with `uid` ("" for none) on the node. */
function countedOn(nodeEntry: NodeEntry | undefined, uid: string): boolean {
  return uid !== "" && nodeEntry !== undefined && nodeEntry.totals.uids.has(uid);
}

/** What a node's decision read of its VM, host and node entry: kept with it, to score it again (`KeptNode`). */
interface Judgement {
  readonly name: string;
  readonly vm: VmView;
  readonly entry: HostEntry;
  readonly assessment: HostAssessment;
  /** What the headroom score reads: the projected metrics, raised to their predicted peaks when there is a forecast. */
  readonly scoring: HostMetrics | undefined;
  readonly nodeReasons: readonly Reason[];
}

/** The decision once the node's VM and host are known and judged. */
function judged(
  { name, vm, entry, assessment, scoring, nodeReasons }: Judgement,
  exemptBy: string | undefined,
  pod: PodMeta | undefined,
  ctx: PlacementContext,
  index: PlacementIndex,
  memo: RequestMemo,
  k8sRules: boolean,
): NodeDecision {
  const { policy, cluster } = ctx;
  const host = entry.host;
  const pending = entry.pending;
  if (assessment.rejections.length > 0 && !exemptBy)
    return { ...rejected(name, true, assessment.rejections, vm, host, assessment, exemptBy), pending };

  let penalty = 0;
  let k8sReasons = nodeReasons;
  let weighed: { pending: PendingDemand; adjustments?: readonly ScoreAdjustment[] } = { pending };
  if (cluster && k8sRules) {
    const onHost = hostChecks(entry, pod, cluster, ctx, index, memo);
    weighed = { pending, adjustments: onHost.adjustments };
    penalty = onHost.penalty;
    // Nodes that add no reason of their own share the host's list (and so its rendered text).
    if (onHost.reasons.length > 0) k8sReasons = nodeReasons.length === 0 ? onHost.reasons : [...nodeReasons, ...onHost.reasons];
  }
  if (k8sReasons.length > 0) return { ...rejected(name, false, k8sReasons, vm, host, assessment, exemptBy), ...weighed };
  // No opinion on the host's data, but the Kubernetes-layer adjustments are known: keep them.
  if (assessment.staleness)
    return { ...noOpinion(name, assessment.staleness, policy, exemptBy, vm, host, assessment, penalty), ...weighed };
  const scoredOn = scoring ?? entry.projected.metrics!;
  const baseScore = scoreHost(assessment, scoredOn, vm.metrics, policy.thresholds);
  return {
    node: name,
    verdict: "pass",
    unresolvable: false,
    reasons: NO_REASONS,
    noOpinion: false,
    score: penalise(baseScore, assessment.heat, penalty),
    baseScore,
    scoredOn,
    vm,
    host,
    assessment,
    exemptBy,
    ...weighed,
  };
}

/** What the Kubernetes-layer rules judged of one host for this request's pod. */
interface HostChecks {
  readonly reasons: readonly Reason[];
  readonly adjustments: readonly ScoreAdjustment[];
  /** The adjustments' points, summed. */
  readonly penalty: number;
}

/** Every Kubernetes-layer rule's judgement of the host for this request's pod, once per host and request. */
function hostChecks(
  entry: HostEntry,
  pod: PodMeta | undefined,
  cluster: ClusterContext,
  ctx: PlacementContext,
  index: PlacementIndex,
  memo: RequestMemo,
): HostChecks {
  const known = memo.hosts.get(entry.host.id);
  if (known) return known;
  const request = {
    facts: memo.podFacts(index, cluster, pod, ctx.policy),
    policy: ctx.policy,
    index,
    nowMs: ctx.nowMs,
    scores: memo.scores,
  };
  let reasons: readonly Reason[] = NO_REASONS;
  const adjustments: ScoreAdjustment[] = [];
  let penalty = 0;
  for (const rule of KUBERNETES_RULES) {
    const judgement = rule.onHost?.(entry, request);
    if (!judgement) continue;
    // A single rule's list is kept as it is: hosts with the same rejection share it (and its rendered text).
    if (judgement.reasons.length > 0) reasons = reasons.length === 0 ? judgement.reasons : [...reasons, ...judgement.reasons];
    if (judgement.adjustment) {
      adjustments.push(judgement.adjustment);
      penalty += judgement.adjustment.points;
    }
  }
  const checks = { reasons, adjustments, penalty };
  memo.hosts.set(entry.host.id, checks);
  return checks;
}

function rejected(
  node: string,
  unresolvable: boolean,
  reasons: readonly Reason[],
  vm: VmView | undefined,
  host: HostView | undefined,
  assessment: HostAssessment | undefined,
  exemptBy: string | undefined,
): NodeDecision {
  return { node, verdict: "reject", unresolvable, reasons, noOpinion: false, score: 0, vm, host, assessment, exemptBy };
}

function noOpinion(
  node: string,
  reason: Reason,
  policy: PlacementPolicy,
  exemptBy: string | undefined,
  vm: VmView | undefined,
  host: HostView | undefined,
  assessment: HostAssessment | undefined,
  penalty = 0,
): NodeDecision {
  const reject = policy.staleMetrics === "reject" && exemptBy === undefined;
  const score = penalise(policy.scoring.unknownScore, "unknown", penalty);
  return {
    node,
    verdict: reject ? "reject" : "pass",
    unresolvable: reject,
    reasons: [reason],
    noOpinion: true,
    score,
    vm,
    host,
    assessment,
    exemptBy,
  };
}
