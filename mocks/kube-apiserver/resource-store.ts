import { randomUUID } from "node:crypto";

/**
 * One resource type of the fake API server (pods, nodes, ...). Objects are kept as JSON text
 * (bounded memory: 50 000 pods cost their wire size, not a JS object graph), with the few
 * fields selectors need extracted at write time. Resource versions come from one counter
 * shared by every store, like etcd's revision.
 */
export interface ObjectIndex {
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Field-selector values, e.g. `spec.nodeName`, `status.phase`, `metadata.name`. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface StoredObject {
  readonly json: string;
  readonly rv: number;
  readonly index: ObjectIndex;
  /** `metadata.uid` and `metadata.creationTimestamp`, kept across updates like the real server does. */
  readonly uid: string;
  readonly createdAt: string;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoreEvent {
  readonly type: WatchEventType;
  readonly rv: number;
  readonly json: string;
  readonly index: ObjectIndex;
  /** Index of the object before a MODIFIED event (selectors may turn it into ADDED/DELETED). */
  readonly prevIndex?: ObjectIndex;
}

/** Shared revision counter; events at or below `compactedRv` are gone (watch from there: 410). */
export interface RevisionClock {
  rv: number;
  compactedRv: number;
}

export interface ResourceType {
  /** Plural resource name as in the URL: `pods`. */
  readonly resource: string;
  /** `Pod` */
  readonly kind: string;
  /** `v1`, `coordination.k8s.io/v1` */
  readonly apiVersion: string;
  readonly namespaced: boolean;
  /**
   * PUT without `metadata.resourceVersion` is accepted (the registry strategy's
   * `AllowUnconditionalUpdate`): true for Nodes, Pods and Namespaces, false for Leases.
   */
  readonly allowUnconditionalUpdate: boolean;
  /** Field-selector values this type supports besides metadata.name / metadata.namespace. */
  readonly extraFields: (obj: KubeObject) => Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type KubeObject = { metadata?: any; [key: string]: any };

export class ResourceStore {
  private readonly objects = new Map<string, StoredObject>();
  private sortedKeys: string[] | undefined;
  private log: StoreEvent[] = [];
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  constructor(
    readonly type: ResourceType,
    private readonly clock: RevisionClock,
    private readonly maxLogEvents: number,
  ) {}

  get size(): number {
    return this.objects.size;
  }

  static key(namespace: string, name: string): string {
    return namespace === "" ? name : `${namespace}/${name}`;
  }

  get(namespace: string, name: string): StoredObject | undefined {
    return this.objects.get(ResourceStore.key(namespace, name));
  }

  /**
   * Creates or replaces an object, stamping resourceVersion (and uid / creationTimestamp when
   * missing). `quiet` skips the event log: for bulk loads, which then raise the compaction mark.
   */
  put(input: KubeObject, quiet = false): StoredObject {
    const obj: KubeObject = { ...input, metadata: { ...(input.metadata ?? {}) } };
    obj.apiVersion = this.type.apiVersion;
    obj.kind = this.type.kind;
    if (!this.type.namespaced) delete obj.metadata.namespace;
    else if (typeof obj.metadata.namespace !== "string" || obj.metadata.namespace === "") obj.metadata.namespace = "default";
    const name = obj.metadata.name;
    if (typeof name !== "string" || name === "") throw new Error(`${this.type.kind} without metadata.name`);
    const key = ResourceStore.key(obj.metadata.namespace ?? "", name);
    const previous = this.objects.get(key);
    obj.metadata.uid = previous?.uid ?? (typeof obj.metadata.uid === "string" && obj.metadata.uid !== "" ? obj.metadata.uid : randomUUID());
    obj.metadata.creationTimestamp =
      previous?.createdAt ?? obj.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    const rv = ++this.clock.rv;
    obj.metadata.resourceVersion = String(rv);
    const stored: StoredObject = {
      json: JSON.stringify(obj),
      rv,
      index: this.indexOf(obj),
      uid: obj.metadata.uid as string,
      createdAt: String(obj.metadata.creationTimestamp),
    };
    this.objects.set(key, stored);
    if (!previous) this.sortedKeys = undefined;
    const event: StoreEvent = previous
      ? { type: "MODIFIED", rv, json: stored.json, index: stored.index, prevIndex: previous.index }
      : { type: "ADDED", rv, json: stored.json, index: stored.index };
    if (!quiet) this.emit(event);
    return stored;
  }

  /** Deletes; the DELETED event carries the last state with the deletion's resourceVersion. */
  delete(namespace: string, name: string): StoredObject | undefined {
    const key = ResourceStore.key(this.type.namespaced ? namespace : "", name);
    const previous = this.objects.get(key);
    if (!previous) return undefined;
    this.objects.delete(key);
    this.sortedKeys = undefined;
    const rv = ++this.clock.rv;
    const obj = JSON.parse(previous.json) as KubeObject;
    obj.metadata.resourceVersion = String(rv);
    const json = JSON.stringify(obj);
    this.emit({ type: "DELETED", rv, json, index: previous.index });
    return { ...previous, json, rv };
  }

  /** Objects in key order starting after `afterKey`, filtered, at most `limit`. */
  page(
    matches: (index: ObjectIndex) => boolean,
    limit: number,
    afterKey: string | undefined,
  ): { items: StoredObject[]; lastKey?: string; remaining: number } {
    const keys = this.keys();
    let i = afterKey === undefined ? 0 : upperBound(keys, afterKey);
    const items: StoredObject[] = [];
    let lastKey: string | undefined;
    for (; i < keys.length && items.length < limit; i++) {
      const key = keys[i] as string;
      const stored = this.objects.get(key);
      if (stored && matches(stored.index)) {
        items.push(stored);
        lastKey = key;
      }
    }
    const remaining = keys.length - i;
    return remaining > 0 && lastKey !== undefined ? { items, lastKey, remaining } : { items, remaining: 0 };
  }

  all(): IterableIterator<StoredObject> {
    return this.objects.values();
  }

  /** Logged events with rv > `sinceRv`, oldest first. */
  eventsSince(sinceRv: number): readonly StoreEvent[] {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.log[mid] as StoreEvent).rv <= sinceRv) lo = mid + 1;
      else hi = mid;
    }
    return this.log.slice(lo);
  }

  /** Forgets events at or below the clock's compaction mark. */
  compact(): void {
    this.log = this.eventsSince(this.clock.compactedRv).slice();
  }

  subscribe(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: StoreEvent): void {
    this.log.push(event);
    if (this.log.length > this.maxLogEvents) {
      const dropped = this.log.splice(0, this.log.length - this.maxLogEvents);
      const lastDropped = dropped[dropped.length - 1];
      if (lastDropped) this.clock.compactedRv = Math.max(this.clock.compactedRv, lastDropped.rv);
    }
    for (const listener of this.listeners) listener(event);
  }

  private keys(): string[] {
    this.sortedKeys ??= [...this.objects.keys()].sort();
    return this.sortedKeys;
  }

  private indexOf(obj: KubeObject): ObjectIndex {
    const namespace = typeof obj.metadata.namespace === "string" ? obj.metadata.namespace : "";
    const name = obj.metadata.name as string;
    const fields: Record<string, string> = { "metadata.name": name, ...this.type.extraFields(obj) };
    if (this.type.namespaced) fields["metadata.namespace"] = namespace;
    const labels = isStringMap(obj.metadata.labels) ? { ...obj.metadata.labels } : {};
    return { namespace, name, labels, fields };
  }
}

function upperBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
