type Env = Readonly<Record<string, string | undefined>>;

/** The files the vCenter credentials were read from, for the poller to watch for rotation. */
export interface VcenterCredentialFiles {
  readonly username?: string;
  readonly password?: string;
}

/**
 * `HVX_VCENTER_USERNAME_FILE` / `HVX_VCENTER_PASSWORD_FILE`, each only when it is the
 * source actually used (the plain variable wins, as in parseConfig).
 */
export function readVcenterCredentialFiles(env: Env = process.env): VcenterCredentialFiles {
  const out: { username?: string; password?: string } = {};
  const file = (name: string) => ((env[name] ?? "") === "" && (env[`${name}_FILE`] ?? "") !== "" ? env[`${name}_FILE`] : undefined);
  const username = file("HVX_VCENTER_USERNAME");
  const password = file("HVX_VCENTER_PASSWORD");
  if (username !== undefined) out.username = username;
  if (password !== undefined) out.password = password;
  return out;
}
