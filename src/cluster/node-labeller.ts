import { PatchStrategy, setHeaderOptions, type CoreV1Api } from "@kubernetes/client-node";
import type { ClusterSource } from "../model/cluster.js";
import type { Logger } from "../observability/logger.js";
import { heatText, nextHeatMark, parseHeatText, type HeatHysteresis, type HeatMark, type HeatReading } from "../placement/heat-mark.js";
import { describeError } from "./describe-error.js";
import { sanitizeLabelValue } from "./sanitize-label-value.js";

export const ESXI_HOST_LABEL = "hvx.io/esxi-host";
export const HOST_HEAT_ANNOTATION = "hvx.io/host-heat";

/**
 * What a node should carry. `hostLabel` undefined (node not mapped right now) leaves the label
 * as is; `heat` undefined (no opinion: stale metrics) leaves the annotation as is.
 */
export interface DesiredNodeMarks {
  readonly hostLabel?: string;
  /** This poll's reading of the node's host; the labeller turns it into stable text with hysteresis. */
  readonly heat?: HeatReading;
}

export const DEFAULT_HEAT_HYSTERESIS: HeatHysteresis = { hysteresisPercent: 10, minHeatChangeSeconds: 120 };

export interface NodeLabellerOptions {
  readonly api: CoreV1Api;
  readonly elector: { isLeader(): boolean };
  readonly cluster: ClusterSource;
  readonly desired: () => ReadonlyMap<string, DesiredNodeMarks>;
  /** Default 10 000. */
  readonly intervalMs?: number;
  /** `nodeLabels.minHeatChangeSeconds` (the readings already carry `hysteresisPercent`). */
  readonly hysteresis?: HeatHysteresis;
  readonly now?: () => number;
  readonly log: Logger;
}

export interface LabelRound {
  readonly patched: readonly string[];
  readonly failed: readonly string[];
}

/**
 * Keeps `hvx.io/esxi-host` (label, sanitised) and `hvx.io/host-heat` (annotation) right on every
 * node, writing only as leader (checked before every patch: leadership has a deadline) and only
 * where the text differs from the Node in the informer cache (a JSON merge patch of just those
 * keys). The heat text is stable (`hot: cpu-ready, vm-balloon`, no values, no ages) and has
 * hysteresis (`nextHeatMark`), so frozen or flickering data patches nothing. A change of heat
 * updates the Node, which makes kube-scheduler retry pods it had set aside. Failures are
 * logged and retried next round.
 */
export class NodeLabeller {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private round = 0;
  /** Patch sent in the previous round, maybe not yet seen back through the informer: not sent twice in a row. */
  private readonly inFlight = new Map<string, { signature: string; round: number }>();
  /** Each node's heat mark (hysteresis state); forgotten when leadership is lost. */
  private readonly marks = new Map<string, HeatMark>();
  private readonly now: () => number;
  private readonly hysteresis: HeatHysteresis;

  constructor(private readonly o: NodeLabellerOptions) {
    this.now = o.now ?? Date.now;
    this.hysteresis = o.hysteresis ?? DEFAULT_HEAT_HYSTERESIS;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = async (): Promise<void> => {
      await this.reconcileOnce();
      if (this.running) this.timer = setTimeout(() => void loop(), this.o.intervalMs ?? 10_000);
    };
    void loop();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** One pass over the desired marks; a no-op unless leader. Never throws. */
  async reconcileOnce(): Promise<LabelRound> {
    const patched: string[] = [];
    const failed: string[] = [];
    if (!this.o.elector.isLeader()) {
      // Another replica writes meanwhile: start again from what the Nodes carry.
      this.marks.clear();
      return { patched, failed };
    }
    const round = ++this.round;
    let desired: ReadonlyMap<string, DesiredNodeMarks>;
    try {
      desired = this.o.desired();
    } catch (err) {
      this.o.log.warn({ error: describeError(err) }, "cannot compute node labels");
      return { patched, failed };
    }
    const nodes = this.o.cluster.latest().nodes;
    for (const name of this.marks.keys()) if (!nodes.has(name)) this.marks.delete(name);
    const nowMs = this.now();
    for (const [name, want] of desired) {
      const node = nodes.get(name);
      if (!node) continue;
      const labels: Record<string, string> = {};
      const annotations: Record<string, string> = {};
      const label = want.hostLabel === undefined ? undefined : sanitizeLabelValue(want.hostLabel);
      if (label !== undefined && node.labels[ESXI_HOST_LABEL] !== label) labels[ESXI_HOST_LABEL] = label;
      const heat = want.heat ? this.markHeat(name, node.annotations[HOST_HEAT_ANNOTATION], want.heat, nowMs) : undefined;
      if (heat !== undefined && node.annotations[HOST_HEAT_ANNOTATION] !== heat) annotations[HOST_HEAT_ANNOTATION] = heat;
      const signature = JSON.stringify([labels, annotations]);
      if (Object.keys(labels).length === 0 && Object.keys(annotations).length === 0) {
        this.inFlight.delete(name);
        continue;
      }
      const sent = this.inFlight.get(name);
      if (sent?.signature === signature && sent.round === round - 1) continue;
      const metadata: Record<string, unknown> = {};
      if (Object.keys(labels).length > 0) metadata.labels = labels;
      if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
      if (!this.o.elector.isLeader()) break;
      try {
        await this.o.api.patchNode({ name, body: { metadata } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
        this.inFlight.set(name, { signature, round });
        patched.push(name);
      } catch (err) {
        failed.push(name);
        this.o.log.warn({ node: name, error: describeError(err) }, "cannot label node; will retry");
      }
    }
    return { patched, failed };
  }

  /** The node's heat text after this reading, with hysteresis; the first mark comes from the Node's own annotation. */
  private markHeat(node: string, current: string | undefined, reading: HeatReading, nowMs: number): string {
    const mark = nextHeatMark(this.marks.get(node) ?? parseHeatText(current), reading, nowMs, this.hysteresis);
    this.marks.set(node, mark);
    return heatText(mark);
  }
}
