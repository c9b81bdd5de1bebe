import type { Config } from "./schema.js";

/** Loopback: 127.0.0.0/8, ::1 and IPv4-mapped 127.x. Absent (every interface) is not loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return v4.startsWith("127.") || address === "::1" || address === "0:0:0:0:0:0:0:1";
}

/** The demo (`npm start`, no vcenter.url): the bundled mocks, on this machine only. */
export function isDemoConfig(config: Readonly<Config>): boolean {
  return config.vcenter.url === undefined && config.vcenters.length === 0;
}

/** The extender's listen address: `server.address`; unset in the demo: 127.0.0.1 (a person on the same machine). */
export function extenderAddress(config: Readonly<Config>): string | undefined {
  return config.server.address ?? (isDemoConfig(config) ? "127.0.0.1" : undefined);
}

export interface PlaintextUse {
  /** `server.allowPlaintext`, `vcenter.allowPlaintext`, `vcenters.1.allowPlaintext`. */
  readonly key: string;
  readonly what: string;
  /** The operator set the key to true: start, with a warning. */
  readonly allowed: boolean;
}

/**
 * Issue 28: what would travel in clear to or from another machine: the extender's verbs
 * (whoever reaches the port steers scheduling) and vCenter's password (HTTP Basic at login).
 */
export function plaintextUses(config: Readonly<Config>): PlaintextUse[] {
  const uses: PlaintextUse[] = [];
  const address = extenderAddress(config);
  if (config.server.tls === undefined && !isLoopbackAddress(address)) {
    uses.push({
      key: "server.allowPlaintext",
      what:
        `the extender serves plain HTTP on ${address ?? "every interface"} (server.address): whoever reaches server.port can steer scheduling; ` +
        "set server.tls with clientCAFile (docs/security.md) or bind server.address to 127.0.0.1",
      allowed: config.server.allowPlaintext,
    });
  }
  const vcenters =
    config.vcenters.length > 0 ? config.vcenters.map((vc, i) => ({ at: `vcenters.${i}`, vc })) : [{ at: "vcenter", vc: config.vcenter }];
  for (const { at, vc } of vcenters) {
    if (vc.url?.toLowerCase().startsWith("http://"))
      uses.push({
        key: `${at}.allowPlaintext`,
        what: `${at}.url is http://: the vCenter password travels in clear; use https://`,
        allowed: vc.allowPlaintext,
      });
  }
  return uses;
}

/** The refusals, as ConfigError issues (`key: what, or set key: true`). */
export function plaintextIssues(config: Readonly<Config>): string[] {
  return plaintextUses(config)
    .filter((u) => !u.allowed)
    .map((u) => `${u.key}: ${u.what}, or set ${u.key}: true`);
}
