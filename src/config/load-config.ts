import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { ConfigError } from "./config-error.js";
import { configSchema, type Config } from "./schema.js";

type Env = Readonly<Record<string, string | undefined>>;
type ReadFile = (path: string) => string;

const readUtf8: ReadFile = (path) => readFileSync(path, "utf8");

/**
 * Parses and validates a configuration document (YAML or JSON text). Credentials may
 * come from HVX_VCENTER_USERNAME / HVX_VCENTER_PASSWORD (and HVX_PROMETHEUS_USERNAME /
 * HVX_PROMETHEUS_PASSWORD) or their `_FILE` variants;
 * the environment wins over the file. This is the only place that reads the environment.
 */
export function parseConfig(text: string | undefined, env: Env = {}, readFile: ReadFile = readUtf8): Readonly<Config> {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== "") {
    try {
      raw = parseYaml(text) ?? {};
    } catch (err) {
      throw new ConfigError([`not valid YAML: ${(err as Error).message.split("\n")[0]}`], { cause: err });
    }
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(["the file must hold a mapping of keys (server, vcenter, thresholds, ...)"]);
  }
  const doc = withOverrides(raw as Record<string, unknown>, env, readFile);
  if (doc.vcenter != null && Array.isArray(doc.vcenters) && doc.vcenters.length > 0) {
    throw new ConfigError([
      "vcenter and vcenters: set one of them, not both (vcenters: lists several vCenters, vcenter: is the one-vCenter form)",
    ]);
  }
  const credentials = credentialsFromEnv(env, readFile);
  if (Object.keys(credentials).length > 0 && Array.isArray(doc.vcenters) && doc.vcenters.length > 0) {
    // HVX_VCENTER_* fill in the credentials an entry does not set itself.
    doc.vcenters = doc.vcenters.map((vc: unknown) =>
      typeof vc === "object" && vc !== null && !Array.isArray(vc) ? { ...credentials, ...(vc as object) } : vc,
    );
  } else if (Object.keys(credentials).length > 0) {
    const vcenter = doc.vcenter;
    if (vcenter !== undefined && (typeof vcenter !== "object" || vcenter === null || Array.isArray(vcenter))) {
      throw new ConfigError(["vcenter: must be a mapping"]);
    }
    doc.vcenter = { ...(vcenter as object | undefined), ...credentials };
  }
  const promCredentials = credentialsFromEnv(env, readFile, "HVX_PROMETHEUS");
  if (Object.keys(promCredentials).length > 0) {
    const prometheus = doc.prometheus;
    if (prometheus !== undefined && (typeof prometheus !== "object" || prometheus === null || Array.isArray(prometheus))) {
      throw new ConfigError(["prometheus: must be a mapping"]);
    }
    doc.prometheus = { ...(prometheus as object | undefined), ...promCredentials };
  }
  const result = configSchema.safeParse(doc);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => describeIssue(i.path, i.message, doc)));
  }
  return deepFreeze(result.data);
}

/** A mapping (YAML object), as opposed to a list or a scalar. */
function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `over` on top of `base`: mappings merge key by key, anything else (lists too) replaces. */
function mergeOver(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isMapping(v) && isMapping(out[k]) ? mergeOver(out[k], v) : v;
  return out;
}

/**
 * HVX_CONFIG_OVERRIDE_FILE: a second YAML file whose keys win over the config file's, so that a
 * kustomize overlay can change a few keys (overlays/second-scheduler: server.tls) without
 * copying the whole ConfigMap.
 */
function withOverrides(doc: Record<string, unknown>, env: Env, readFile: ReadFile): Record<string, unknown> {
  const path = env.HVX_CONFIG_OVERRIDE_FILE;
  if (path === undefined || path === "") return doc;
  let over: unknown;
  try {
    over = parseYaml(readFile(path)) ?? {};
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message.split("\n")[0];
    throw new ConfigError([`HVX_CONFIG_OVERRIDE_FILE: cannot use ${path}: ${why}`], { cause: err });
  }
  if (!isMapping(over)) throw new ConfigError([`HVX_CONFIG_OVERRIDE_FILE: ${path} must hold a mapping of keys`]);
  return mergeOver(doc, over);
}

/**
 * `key.path: message (got VALUE)`: the key, what is wrong, and the bad value when it is a
 * scalar not already quoted in the message (never for a secret such as vcenter.password).
 */
function describeIssue(path: readonly (string | number)[], message: string, doc: unknown): string {
  const key = path.length > 0 ? path.join(".") : "(top level)";
  let value: unknown = doc;
  for (const p of path) value = typeof value === "object" && value !== null ? (value as Record<string | number, unknown>)[p] : undefined;
  const secret = path.some((p) => /password|secret|token/i.test(String(p)));
  const scalar = !secret && (value === null || ["string", "number", "boolean"].includes(typeof value));
  const shown = typeof value === "number" ? String(value) : JSON.stringify(value);
  const alreadyQuoted = typeof value === "string" && message.includes(shown);
  return scalar && !alreadyQuoted ? `${key}: ${message} (got ${shown})` : `${key}: ${message}`;
}

/** Reads the file at `path` (or nothing) and returns the validated configuration. */
export function loadConfig(path: string | undefined, env: Env = process.env): Readonly<Config> {
  let text: string | undefined;
  if (path !== undefined) {
    try {
      text = readUtf8(path);
    } catch (err) {
      throw new ConfigError([`cannot read config file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
    }
  }
  return parseConfig(text, env);
}

function credentialsFromEnv(env: Env, readFile: ReadFile, prefix = "HVX_VCENTER"): { username?: string; password?: string } {
  const out: { username?: string; password?: string } = {};
  const username = fromEnvOrFile(env, `${prefix}_USERNAME`, readFile);
  const password = fromEnvOrFile(env, `${prefix}_PASSWORD`, readFile);
  if (username !== undefined) out.username = username;
  if (password !== undefined) out.password = password;
  return out;
}

function fromEnvOrFile(env: Env, name: string, readFile: ReadFile): string | undefined {
  const direct = env[name];
  if (direct !== undefined && direct !== "") return direct;
  const file = env[`${name}_FILE`];
  if (file === undefined || file === "") return undefined;
  try {
    return readFile(file).replace(/\r?\n$/, "");
  } catch (err) {
    throw new ConfigError([`${name}_FILE: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? "error"}`]);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const REDACTED = "<redacted>";

/** The effective configuration with every secret replaced, for `--print-config` and logs. */
export function redactConfig(config: Readonly<Config>): Config {
  const copy = structuredClone(config) as Config;
  if (copy.vcenter.password !== undefined) copy.vcenter.password = REDACTED;
  for (const vc of copy.vcenters) if (vc.password !== undefined) vc.password = REDACTED;
  if (copy.prometheus.password !== undefined) copy.prometheus.password = REDACTED;
  return copy;
}
