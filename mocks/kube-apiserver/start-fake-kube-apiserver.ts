import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { stringify as toYaml } from "yaml";
import { handleRequest, type FakeFault, type FakeState, type FakeStats } from "./handle-request.js";
import { ADMIN_USER, HVX_SERVICE_ACCOUNT, RbacAuthorizer, serviceAccountUser, shippedRbacYaml, type UserInfo } from "./rbac.js";
import { ResourceStore, type KubeObject, type RevisionClock } from "./resource-store.js";
import { EVENTS, LEASES, NAMESPACES, NODES, PODS, POD_DISRUPTION_BUDGETS, RESOURCE_TYPES } from "./resource-types.js";

export interface FakeKubeApiserverOptions {
  /** Default 0 (any free port); always on 127.0.0.1. */
  port?: number;
  /** Namespace of the kubeconfig context (hvx's own namespace). Default `hvx-system`. */
  contextNamespace?: string;
  /** Interval of BOOKMARK events on watches that allow them. Default 1000 ms. */
  bookmarkIntervalMs?: number;
  /** Events kept per resource type; older ones are compacted away (watch from there: 410). Default 50 000. */
  maxLogEvents?: number;
  /**
   * RBAC the fake enforces, as multi-document YAML (Roles, ClusterRoles and their bindings).
   * Default: `manifests/base/rbac.yaml`, what hvx ships, so an API call the manifests do not allow
   * fails in tests with a 403 as it would in a cluster. `false`: no authorisation.
   */
  rbac?: string | false;
  /**
   * Who a request without a bearer token is (default: nobody, 401). kubectl does not send a
   * bearer token to a plain-HTTP server, so a test that drives kubectl against the fake names
   * the user kubectl stands for here; the authorizer still judges every request.
   */
  anonymousUser?: FakeUser;
}

/** Bearer tokens the fake accepts. `hvx` is the service account the manifests bind; `admin` is in `system:masters`. */
export const FAKE_TOKENS = { hvx: "fake-token", admin: "fake-admin-token", viewer: "fake-viewer-token" } as const;
/** The person behind FAKE_TOKENS.viewer: authenticated, no group of its own (a ClusterRoleBinding names the user). */
export const FAKE_VIEWER: UserInfo = { name: "jane@example.com", groups: ["system:authenticated"] };
export type FakeUser = keyof typeof FAKE_TOKENS;

/** Test-only controls: the in-process handle, never an HTTP endpoint. */
export interface FakeKubeControls {
  upsertNode(node: KubeObject): KubeObject;
  deleteNode(name: string): boolean;
  upsertPod(pod: KubeObject): KubeObject;
  deletePod(namespace: string, name: string): boolean;
  upsertNamespace(ns: KubeObject): KubeObject;
  deleteNamespace(name: string): boolean;
  getNode(name: string): KubeObject | undefined;
  getPod(namespace: string, name: string): KubeObject | undefined;
  getLease(namespace: string, name: string): KubeObject | undefined;
  /** A policy/v1 PodDisruptionBudget (`spec.minAvailable` as a number, `spec.selector.matchLabels`) the eviction subresource honours. */
  upsertPodDisruptionBudget(pdb: KubeObject): KubeObject;
  /** core/v1 Events written through the API, in creation order. */
  events(namespace?: string): KubeObject[];
  /** Loads many objects without events (fast); watches from before the load get 410. */
  bulkLoad(objects: { nodes?: Iterable<KubeObject>; pods?: Iterable<KubeObject>; namespaces?: Iterable<KubeObject> }): void;
  /** Forgets every past event: any resourceVersion below the current one gets 410 Expired. */
  compact(): void;
  /** Ends every open watch stream cleanly (clients re-watch from their last resourceVersion). */
  dropWatches(): number;
  /** Open watch streams stay connected but deliver nothing more (no event, no bookmark, no end at their timeout); new watches work. */
  silenceWatches(): number;
  setFault(fault: FakeFault): void;
  /** Answer a too-old watch resourceVersion with HTTP 410 rather than an ERROR event. */
  setExpiredAsHttp(on: boolean): void;
  resourceVersion(): number;
  stats(): FakeStats & { resourceVersion: number; compactedResourceVersion: number; objects: Record<string, number> };
}

export interface FakeKubeApiserver {
  readonly url: string;
  /** Credentials of `user` (default `hvx`, hvx's service account, held to the shipped RBAC). */
  kubeConfig(user?: FakeUser): KubeConfig;
  kubeconfigYaml(user?: FakeUser): string;
  readonly controls: FakeKubeControls;
  close(): Promise<void>;
}

/**
 * A fake kube-apiserver good enough for the unmodified @kubernetes/client-node 1.4.0: list (with
 * limit/continue), watch (JSON lines, bookmarks, 410), get, Node/Pod/Namespace/Lease writes with
 * resourceVersion conflicts (and 422 for a Lease update without one), PATCH in the three JSON
 * patch types; bearer tokens (401) and the shipped RBAC (403) on every request.
 */
export async function startFakeKubeApiserver(opts: FakeKubeApiserverOptions = {}): Promise<FakeKubeApiserver> {
  const clock: RevisionClock = { rv: 1, compactedRv: 0 };
  const maxLog = opts.maxLogEvents ?? 50_000;
  const stores = new Map(RESOURCE_TYPES.map((t) => [t, new ResourceStore(t, clock, maxLog)] as const));
  const store = (t: typeof NODES): ResourceStore => stores.get(t) as ResourceStore;
  const tokens = new Map<string, UserInfo>([
    [FAKE_TOKENS.hvx, serviceAccountUser(HVX_SERVICE_ACCOUNT.namespace, HVX_SERVICE_ACCOUNT.name)],
    [FAKE_TOKENS.admin, ADMIN_USER],
    [FAKE_TOKENS.viewer, FAKE_VIEWER],
  ]);
  const state: FakeState = {
    clock,
    stores,
    fault: {},
    expiredAsHttp: false,
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 1000,
    watches: new Set(),
    stats: emptyStats(),
    tokens,
    anonymous: opts.anonymousUser === undefined ? undefined : tokens.get(FAKE_TOKENS[opts.anonymousUser]),
    authorizer: opts.rbac === false ? undefined : new RbacAuthorizer(opts.rbac ?? shippedRbacYaml()),
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => void handleRequest(state, req, res));
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const namespace = opts.contextNamespace ?? "hvx-system";
  const kubeconfigObject = (user: FakeUser = "hvx") => ({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "fake", cluster: { server: url, "insecure-skip-tls-verify": true } }],
    users: [{ name: user, user: { token: FAKE_TOKENS[user] } }],
    contexts: [{ name: "fake", context: { cluster: "fake", user, namespace } }],
    "current-context": "fake",
  });
  const parse = (json: string | undefined): KubeObject | undefined => (json === undefined ? undefined : (JSON.parse(json) as KubeObject));
  const compact = (): void => {
    clock.compactedRv = clock.rv;
    for (const s of stores.values()) s.compact();
  };

  const controls: FakeKubeControls = {
    upsertNode: (node) => parse(store(NODES).put(node).json) as KubeObject,
    deleteNode: (name) => store(NODES).delete("", name) !== undefined,
    upsertPod: (pod) => parse(store(PODS).put(pod).json) as KubeObject,
    deletePod: (ns, name) => store(PODS).delete(ns, name) !== undefined,
    upsertNamespace: (ns) => parse(store(NAMESPACES).put(ns).json) as KubeObject,
    deleteNamespace: (name) => store(NAMESPACES).delete("", name) !== undefined,
    getNode: (name) => parse(store(NODES).get("", name)?.json),
    getPod: (ns, name) => parse(store(PODS).get(ns, name)?.json),
    getLease: (ns, name) => parse(store(LEASES).get(ns, name)?.json),
    upsertPodDisruptionBudget: (pdb) => parse(store(POD_DISRUPTION_BUDGETS).put(pdb).json) as KubeObject,
    events: (ns) =>
      [...store(EVENTS).all()]
        .map((o) => parse(o.json) as KubeObject)
        .filter((e) => ns === undefined || e.metadata?.namespace === ns)
        .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion)),
    bulkLoad: ({ nodes = [], pods = [], namespaces = [] }) => {
      for (const o of namespaces) store(NAMESPACES).put(o, true);
      for (const o of nodes) store(NODES).put(o, true);
      for (const o of pods) store(PODS).put(o, true);
      compact();
    },
    compact,
    dropWatches: () => {
      const open = [...state.watches];
      for (const w of open) w.end();
      return open.length;
    },
    silenceWatches: () => {
      for (const w of state.watches) w.silence();
      return state.watches.size;
    },
    setFault: (fault) => {
      state.fault = { ...fault };
    },
    setExpiredAsHttp: (on) => {
      state.expiredAsHttp = on;
    },
    resourceVersion: () => clock.rv,
    stats: () => ({
      ...state.stats,
      patchContentTypes: { ...state.stats.patchContentTypes },
      forbidden: [...state.stats.forbidden],
      evictions: [...state.stats.evictions],
      resourceVersion: clock.rv,
      compactedResourceVersion: clock.compactedRv,
      objects: Object.fromEntries([...stores].map(([t, s]) => [t.resource, s.size])),
    }),
  };

  return {
    url,
    kubeConfig: (user) => {
      const kc = new KubeConfig();
      kc.loadFromString(toYaml(kubeconfigObject(user)));
      return kc;
    },
    kubeconfigYaml: (user) => toYaml(kubeconfigObject(user)),
    controls,
    close: async () => {
      controls.dropWatches();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

function emptyStats(): FakeStats {
  return {
    requests: 0,
    lists: 0,
    watchesStarted: 0,
    watchesOpen: 0,
    gets: 0,
    creates: 0,
    updates: 0,
    patches: 0,
    deletes: 0,
    faults: 0,
    unauthorized: 0,
    forbidden: [],
    patchContentTypes: {},
    evictions: [],
    bindings: 0,
  };
}
