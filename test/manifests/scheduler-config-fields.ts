/**
 * Field names of kubescheduler.config.k8s.io/v1 (kube-scheduler 1.25+), from
 * staging/src/k8s.io/kube-scheduler/config/v1/types.go (KubeSchedulerConfiguration with the inline
 * DebuggingConfiguration, KubeSchedulerProfile, Plugins, PluginSet, Plugin, PluginConfig, Extender,
 * ExtenderTLSConfig, ExtenderManagedResource) and component-base's LeaderElectionConfiguration and
 * ClientConnectionConfiguration. kube-scheduler decodes its --config strictly: an unknown field
 * stops it at start, so a typo here means a crash-looping scheduler.
 */
const TOP = [
  "apiVersion",
  "kind",
  "parallelism",
  "leaderElection",
  "clientConnection",
  "enableProfiling",
  "enableContentionProfiling",
  "percentageOfNodesToScore",
  "podInitialBackoffSeconds",
  "podMaxBackoffSeconds",
  "profiles",
  "extenders",
  "delayCacheUntilActive",
];
const LEADER_ELECTION = [
  "leaderElect",
  "leaseDuration",
  "renewDeadline",
  "retryPeriod",
  "resourceLock",
  "resourceName",
  "resourceNamespace",
];
const CLIENT_CONNECTION = ["kubeconfig", "acceptContentTypes", "contentType", "qps", "burst"];
const PROFILE = ["schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"];
const EXTENSION_POINTS = [
  "preEnqueue",
  "queueSort",
  "preFilter",
  "filter",
  "postFilter",
  "preScore",
  "score",
  "reserve",
  "permit",
  "preBind",
  "bind",
  "postBind",
  "multiPoint",
];
const PLUGIN_SET = ["enabled", "disabled"];
const PLUGIN = ["name", "weight"];
const PLUGIN_CONFIG = ["name", "args"];
export const EXTENDER_FIELDS = [
  "urlPrefix",
  "filterVerb",
  "preemptVerb",
  "prioritizeVerb",
  "weight",
  "bindVerb",
  "enableHTTPS",
  "tlsConfig",
  "httpTimeout",
  "nodeCacheCapable",
  "managedResources",
  "ignorable",
];
export const EXTENDER_TLS_FIELDS = ["insecure", "serverName", "certFile", "keyFile", "caFile", "certData", "keyData", "caData"];
const MANAGED_RESOURCE = ["name", "ignoredByScheduler"];

type Tree = Record<string, unknown>;

function unknownKeys(value: unknown, allowed: readonly string[], path: string): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${path}: not a mapping`];
  return Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .map((k) => `${path}.${k}`);
}

function each(value: unknown, path: string, check: (item: unknown, at: string) => string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [`${path}: not a list`];
  return value.flatMap((item, i) => check(item, `${path}[${i}]`));
}

function checkPlugins(plugins: unknown, path: string): string[] {
  const out = unknownKeys(plugins, EXTENSION_POINTS, path);
  for (const point of EXTENSION_POINTS) {
    const set = (plugins as Tree)[point];
    if (set === undefined) continue;
    out.push(...unknownKeys(set, PLUGIN_SET, `${path}.${point}`));
    for (const list of PLUGIN_SET)
      out.push(...each((set as Tree)[list], `${path}.${point}.${list}`, (p, at) => unknownKeys(p, PLUGIN, at)));
  }
  return out;
}

/** Every field path of a KubeSchedulerConfiguration that v1 does not know; [] when all are known. */
export function unknownSchedulerFields(cfg: unknown): string[] {
  const out = unknownKeys(cfg, TOP, "");
  if (out.some((p) => p.endsWith("not a mapping"))) return out;
  const c = cfg as Tree;
  if (c.leaderElection !== undefined) out.push(...unknownKeys(c.leaderElection, LEADER_ELECTION, ".leaderElection"));
  if (c.clientConnection !== undefined) out.push(...unknownKeys(c.clientConnection, CLIENT_CONNECTION, ".clientConnection"));
  out.push(
    ...each(c.profiles, ".profiles", (p, at) => {
      const issues = unknownKeys(p, PROFILE, at);
      const profile = p as Tree;
      if (profile.plugins !== undefined) issues.push(...checkPlugins(profile.plugins, `${at}.plugins`));
      issues.push(...each(profile.pluginConfig, `${at}.pluginConfig`, (pc, at2) => unknownKeys(pc, PLUGIN_CONFIG, at2)));
      return issues;
    }),
  );
  out.push(
    ...each(c.extenders, ".extenders", (e, at) => {
      const issues = unknownKeys(e, EXTENDER_FIELDS, at);
      const ext = e as Tree;
      if (ext.tlsConfig !== undefined) issues.push(...unknownKeys(ext.tlsConfig, EXTENDER_TLS_FIELDS, `${at}.tlsConfig`));
      issues.push(...each(ext.managedResources, `${at}.managedResources`, (m, at2) => unknownKeys(m, MANAGED_RESOURCE, at2)));
      return issues;
    }),
  );
  return out;
}
