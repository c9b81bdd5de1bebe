import type { CoreV1Api, CoreV1Event } from "@kubernetes/client-node";
import type { ClusterSource } from "../model/cluster.js";
import type { MetricsSource } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import type { RebalanceMetrics, RebalanceResult } from "../observability/rebalance-metrics.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import { hostMetricUnit } from "../placement/rules/index.js";
import { chooseEvictions, type EvictionChoice, type PastEviction, type RebalancePolicy } from "../rebalance/choose-evictions.js";
import { nextHotSpells, type HotSpell } from "../rebalance/hot-spells.js";
import { EMPTY_SPELL_HISTORY, endedSpellSeconds, withEnded, type SpellHistory } from "../rebalance/spell-cost.js";
import { nextVmSpells, type VmSpell } from "../rebalance/vm-spells.js";
import { describeError } from "./describe-error.js";
import { toMicroTime } from "./micro-time.js";

export const REBALANCER_LEASE = "hvx-rebalancer";
const HOUR_MS = 3_600_000;
/** `reportingComponent` of hvx's Events; the history read back counts only these. */
const REPORTING_COMPONENT = "hvx.io/rebalancer";
const EVENT_REASON = { evicted: "HvxRebalanced", dry_run: "HvxRebalanceDryRun" } as const;

export interface RebalancerOptions {
  /** Eviction (`createNamespacedPodEviction`), Events (`createNamespacedEvent`) and the last hour's (`listEventForAllNamespaces`). */
  readonly api: Pick<CoreV1Api, "createNamespacedPodEviction" | "createNamespacedEvent" | "listEventForAllNamespaces">;
  readonly elector: { isLeader(): boolean };
  readonly cluster: ClusterSource;
  readonly inventory: MetricsSource;
  readonly placement: PlacementPolicy;
  readonly rebalance: RebalancePolicy;
  readonly dryRun: boolean;
  /** Decision cycle, ms. */
  readonly intervalMs: number;
  /** How often the hot spells are brought up to date (the poll interval), ms. */
  readonly observeMs: number;
  /** A hot spell ends once values are this % under their thresholds two polls running (`nodeLabels.hysteresisPercent`). */
  readonly hysteresisPercent?: number;
  /** Event `reportingInstance`: this replica. */
  readonly identity: string;
  readonly metrics: RebalanceMetrics;
  readonly log: Logger;
  readonly now?: () => number;
}

export interface RebalanceOutcome {
  readonly pod: string;
  readonly result: RebalanceResult;
}

/**
 * The rebalancing loop (issue 9 §3). Every `observeMs` it updates how long each host has been
 * hot (every replica does, so a new leader does not start from zero); every `intervalMs` the
 * leader runs `chooseEvictions` and acts on its plan: in dry run it only records an Event on
 * the pod and logs; otherwise it POSTs a policy/v1 Eviction (the API server applies the
 * PodDisruptionBudgets: a 429 leaves the pod for a later cycle, a 404 means it is gone).
 * Leadership is checked before every eviction. Dry-run decisions count against the budgets
 * and the one-hour rule like evictions, so a dry run shows what a real run would do.
 * The hourly budget outlives a leader: on taking the lead, before any eviction, a replica reads
 * back the last hour's Events hvx recorded (`HvxRebalanced`, or `HvxRebalanceDryRun` in dry
 * run); while that read fails it evicts nothing.
 */
export class Rebalancer {
  private spells = new Map<string, HotSpell>();
  private vmSpells = new Map<string, VmSpell>();
  /** Ended spells' durations (the cost model's evidence); like the spells, every replica keeps them. */
  private history: SpellHistory = EMPTY_SPELL_HISTORY;
  private evicted: PastEviction[] = [];
  private observeTimer: NodeJS.Timeout | undefined;
  private cycleTimer: NodeJS.Timeout | undefined;
  private running = false;
  /** The Events of the last hour were read back since this replica last took the lead. */
  private historyRead = false;
  /** The last cycle's hold, logged only when it changes (a brake may hold for hours). */
  private lastHold: string | undefined;
  private readonly now: () => number;

  constructor(private readonly o: RebalancerOptions) {
    this.now = o.now ?? Date.now;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.observe();
    this.observeTimer = setInterval(() => this.observe(), this.o.observeMs);
    const loop = async (): Promise<void> => {
      await this.cycleOnce();
      if (this.running) this.cycleTimer = setTimeout(() => void loop(), this.o.intervalMs);
    };
    this.cycleTimer = setTimeout(() => void loop(), this.o.intervalMs);
  }

  stop(): void {
    this.running = false;
    clearInterval(this.observeTimer);
    clearTimeout(this.cycleTimer);
  }

  /** Brings the hot spells (hosts' and node VMs') and their history up to date with the latest poll. Never throws. */
  observe(): void {
    try {
      const nowMs = this.now();
      const inventory = this.o.inventory.latest();
      const { thresholds, nodeMapping } = this.o.placement;
      const nodeVmIds = [...hostOccupancyOf(this.o.cluster.latest(), inventory, nodeMapping).vmOfNode.values()].map((vm) => vm.id);
      const hosts = nextHotSpells(this.spells, inventory, thresholds, nowMs, this.o.hysteresisPercent);
      const { vmReadyPercent } = this.o.rebalance;
      const vms = nextVmSpells(
        this.vmSpells,
        inventory,
        nodeVmIds,
        vmReadyPercent,
        thresholds.maxMetricAgeSeconds,
        nowMs,
        this.o.hysteresisPercent,
      );
      this.history = {
        hostSeconds: withEnded(this.history.hostSeconds, endedSpellSeconds(this.spells, hosts, nowMs)),
        vmSeconds: withEnded(this.history.vmSeconds, endedSpellSeconds(this.vmSpells, vms, nowMs)),
      };
      this.spells = hosts;
      this.vmSpells = vms;
    } catch (err) {
      this.o.log.warn({ error: describeError(err) }, "rebalance: cannot read host heat");
    }
  }

  /** One decision cycle; a no-op unless leader. Never throws. */
  async cycleOnce(): Promise<RebalanceOutcome[]> {
    const out: RebalanceOutcome[] = [];
    if (!this.o.elector.isLeader()) {
      this.historyRead = false;
      return out;
    }
    const nowMs = this.now();
    if (!this.historyRead) {
      try {
        this.evicted = mergeEvictions(this.evicted, await this.recordedEvictions());
        this.historyRead = true;
      } catch (err) {
        this.o.log.warn({ error: describeError(err) }, "rebalance: cannot read the last hour's Events; evicting nothing until it can");
        return out;
      }
    }
    this.evicted = this.evicted.filter((e) => nowMs - e.atMs < HOUR_MS);
    this.observe();
    let plan;
    try {
      plan = chooseEvictions({
        inventory: this.o.inventory.latest(),
        cluster: this.o.cluster.latest(),
        placement: this.o.placement,
        rebalance: this.o.rebalance,
        spells: this.spells,
        vmSpells: this.vmSpells,
        history: this.history,
        evicted: this.evicted,
        nowMs,
      });
    } catch (err) {
      this.o.log.warn({ error: describeError(err) }, "rebalance: cannot decide");
      return out;
    }
    this.o.metrics.chronicHosts(plan.chronicHosts.length);
    this.o.metrics.holding(plan.hold?.code);
    if (plan.hold?.code !== this.lastHold) {
      if (plan.hold)
        this.o.log.info({ hold: plan.hold, chronicHosts: plan.chronicHosts.length }, "rebalance: holding (no eviction while this lasts)");
      else if (this.lastHold) this.o.log.info({ was: this.lastHold }, "rebalance: no longer holding");
      this.lastHold = plan.hold?.code;
    }
    for (const choice of plan.evictions) {
      if (!this.o.elector.isLeader()) break;
      const result = this.o.dryRun ? "dry_run" : await this.evict(choice);
      if (result === "evicted" || result === "dry_run") {
        this.evicted.push({ uid: choice.pod.uid, atMs: nowMs });
        await this.recordEvent(choice, result, nowMs);
      }
      this.o.metrics.counted(result);
      this.logDecision(choice, result);
      out.push({ pod: `${choice.pod.namespace}/${choice.pod.name}`, result });
    }
    return out;
  }

  private async evict(c: EvictionChoice): Promise<RebalanceResult> {
    const { namespace, name, uid } = c.pod;
    try {
      await this.o.api.createNamespacedPodEviction({
        name,
        namespace,
        // The uid precondition: never evict a newer pod that took the same name.
        body: {
          apiVersion: "policy/v1",
          kind: "Eviction",
          metadata: { name, namespace },
          ...(uid ? { deleteOptions: { preconditions: { uid } } } : {}),
        },
      });
      return "evicted";
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code === 429) return "blocked_pdb";
      if (code === 404) return "gone";
      this.o.log.warn(
        { pod: `${namespace}/${name}`, error: describeError(err) },
        "rebalance: eviction failed; will decide again next cycle",
      );
      return "failed";
    }
  }

  /**
   * A core/v1 Event on the pod (what `kubectl describe pod` and `kubectl get events` show on
   * every cluster version). Its message carries the reading that decided, once: an Event is a
   * record of a moment, never patched, unlike the node annotation that must stay stable.
   */
  private async recordEvent(c: EvictionChoice, result: "evicted" | "dry_run", nowMs: number): Promise<void> {
    const { namespace, name, uid } = c.pod;
    const micro = toMicroTime(nowMs);
    const at = new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, "Z");
    const body: CoreV1Event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${name.slice(0, 200)}.hvx${nowMs.toString(16)}`, namespace },
      involvedObject: { apiVersion: "v1", kind: "Pod", name, namespace, uid },
      reason: EVENT_REASON[result],
      // The API server refuses a note over 1 kB (NoteLengthLimit).
      message: eventMessage(c, result).slice(0, 1024),
      type: "Normal",
      action: result === "evicted" ? "Evict" : "WouldEvict",
      source: { component: "hvx" },
      reportingComponent: REPORTING_COMPONENT,
      reportingInstance: this.o.identity.slice(0, 128),
      firstTimestamp: at as unknown as Date,
      lastTimestamp: at as unknown as Date,
      eventTime: micro as unknown as Date,
      count: 1,
    };
    try {
      await this.o.api.createNamespacedEvent({ namespace, body });
    } catch (err) {
      this.o.log.warn({ pod: `${namespace}/${name}`, error: describeError(err) }, "rebalance: cannot record the Event");
    }
  }

  /**
   * The decisions hvx recorded as Events (every namespace, this mode's reason), by pod uid and
   * time (`eventTime`, else `lastTimestamp`). An Event hvx did not report is left out; one
   * without a time or a pod uid too. Paged like a list; throws on any failure.
   */
  private async recordedEvictions(): Promise<PastEviction[]> {
    const out: PastEviction[] = [];
    const fieldSelector = `reason=${EVENT_REASON[this.o.dryRun ? "dry_run" : "evicted"]}`;
    let token: string | undefined;
    do {
      const page = await this.o.api.listEventForAllNamespaces({ fieldSelector, limit: 500, ...(token ? { _continue: token } : {}) });
      for (const e of page.items) {
        const atMs = timeMs(e.eventTime ?? e.lastTimestamp);
        const uid = e.involvedObject?.uid;
        if (e.reportingComponent === REPORTING_COMPONENT && uid && Number.isFinite(atMs)) out.push({ uid, atMs });
      }
      token = page.metadata?._continue || undefined;
    } while (token);
    return out;
  }

  private logDecision(c: EvictionChoice, result: RebalanceResult): void {
    const s = c.spell;
    const fields = {
      pod: `${c.pod.namespace}/${c.pod.name}`,
      node: c.node,
      host: s.hostName,
      hostId: s.hostId,
      ...("vmId" in s ? { vm: s.vmName } : {}),
      metric: s.metric,
      value: s.value,
      threshold: s.threshold,
      hotForSeconds: c.hotForSeconds,
      ...(c.expectedRemainingSeconds !== undefined ? { expectedRemainingSeconds: c.expectedRemainingSeconds } : {}),
      target: c.target.node,
      result,
    };
    const what = {
      evicted: "evicted a pod off a hot ESXi host or node VM",
      dry_run: "dry run: would evict a pod off a hot ESXi host or node VM",
      blocked_pdb: "a PodDisruptionBudget refused the eviction (429); will try again next cycle",
      gone: "the pod to evict is gone (404)",
      failed: "eviction failed",
    }[result];
    this.o.log.info(fields, `rebalance: ${what}`);
  }
}

/** Epoch ms of an Event time: client-node hands a `Date`, a raw body RFC 3339 text; NaN otherwise. */
function timeMs(t: unknown): number {
  return t instanceof Date ? t.getTime() : typeof t === "string" ? Date.parse(t) : NaN;
}

/** `known` plus the `recorded` decisions it does not hold yet (same pod uid and time). */
function mergeEvictions(known: readonly PastEviction[], recorded: readonly PastEviction[]): PastEviction[] {
  const held = new Set(known.map((e) => `${e.uid}@${e.atMs}`));
  return [...known, ...recorded.filter((e) => !held.has(`${e.uid}@${e.atMs}`))];
}

/**
 * `ESXi host esx-07 (host-21) hot for 12 min: cpu ready 21.3 % >= 10 %; hvx would place it on worker-3 (score 9)`;
 * a node VM's spell names the VM (`node VM worker-3 (vm-31) on ESXi host ...`), and one the cost
 * model chose says how long it is expected to last (`hot for 2 min, about 3 min more`).
 */
export function eventMessage(c: EvictionChoice, result: "evicted" | "dry_run"): string {
  const s = c.spell;
  const unit = hostMetricUnit(s.metric);
  const reading = unit === "" ? `${s.metric} ${s.value}` : `${s.metric} ${s.value} ${unit} >= ${s.threshold} ${unit}`;
  const lead = result === "evicted" ? "Evicted by hvx" : "hvx would evict this pod (rebalance.dryRun)";
  const where =
    "vmId" in s ? `node VM ${s.vmName} (${s.vmId}) on ESXi host ${s.hostName} (${s.hostId})` : `ESXi host ${s.hostName} (${s.hostId})`;
  const more = c.expectedRemainingSeconds !== undefined ? `, about ${Math.round(c.expectedRemainingSeconds / 60)} min more` : "";
  return `${lead}: ${where} hot for ${Math.round(c.hotForSeconds / 60)} min${more}: ${reading}; hvx would place it on ${c.target.node} (score ${c.target.score})`;
}
