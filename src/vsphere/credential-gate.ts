import { readFileSync } from "node:fs";
import type { AuthSuspension } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import type { VcenterCredentials } from "./automation-client.js";
import type { LoginGate } from "./session-keeper.js";
import type { VcenterApi } from "./vcenter-api.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";

export interface CredentialGateOptions {
  readonly credentials: VcenterCredentials;
  /** Files the credentials came from (`HVX_VCENTER_USERNAME_FILE` / `_PASSWORD_FILE`), re-read by `refresh`. */
  readonly files?: { readonly username?: string; readonly password?: string };
  /** `vcenter.authRetrySeconds`: no login this long after vCenter refused the credentials. */
  readonly authRetrySeconds: number;
  readonly clock: () => number;
  readonly log: Logger;
  /** Hears of each refused login (a metric). */
  readonly onRefused: (api: VcenterApi) => void;
}

/**
 * The credentials in use and the account-lockout guard: after vCenter refuses a login, no
 * login is tried for `authRetrySeconds` unless the credential files change, so that hvx never
 * locks the (often shared) account.
 */
export class CredentialGate implements LoginGate {
  private current: VcenterCredentials;
  private fileText: { username?: string; password?: string };
  private suspended: (AuthSuspension & { readonly api: VcenterApi }) | undefined;

  constructor(private readonly options: CredentialGateOptions) {
    this.current = options.credentials;
    this.fileText = this.readFiles();
  }

  credentials(): VcenterCredentials {
    return this.current;
  }

  /** Set while logins are suspended. */
  suspension(): (AuthSuspension & { readonly api: VcenterApi }) | undefined {
    return this.suspended;
  }

  /** Throws (a VcenterAuthError) while logins are suspended. */
  check(api: VcenterApi): void {
    const s = this.suspended;
    if (s && this.options.clock() < s.retryAfterMs) throw this.suspendedError(api);
  }

  /** Throws while suspended, naming the API that was refused (a cycle then only re-reads the files). */
  checkCycle(): void {
    if (this.suspended) this.check(this.suspended.api);
  }

  refused(api: VcenterApi, err: VcenterAuthError): void {
    const now = this.options.clock();
    const retryAfterMs = now + this.options.authRetrySeconds * 1000;
    this.suspended = { api, error: err.message, failedAtMs: now, retryAfterMs };
    this.options.onRefused(api);
    this.options.log.error(
      { api, retryAfter: new Date(retryAfterMs).toISOString() },
      "vCenter refused the credentials; no login before vcenter.authRetrySeconds have passed (or the credential files change), so the account is not locked",
    );
  }

  /** Re-reads the credential files; a change is used at the next login and lifts a suspension. */
  refresh(): void {
    const files = this.options.files;
    if (!files || (files.username === undefined && files.password === undefined)) return;
    const text = this.readFiles();
    const changed =
      (text.username !== undefined && text.username !== this.fileText.username) ||
      (text.password !== undefined && text.password !== this.fileText.password);
    if (!changed) return;
    this.fileText = { ...this.fileText, ...text };
    this.current = { username: text.username ?? this.current.username, password: text.password ?? this.current.password };
    if (this.suspended) {
      this.suspended = undefined;
      this.options.log.info("vCenter credential files changed; logging in again");
    } else {
      this.options.log.info("vCenter credential files changed; the next login uses them");
    }
  }

  private suspendedError(api: VcenterApi): VcenterAuthError {
    const s = this.suspended!;
    return new VcenterAuthError(
      api,
      `logins suspended until ${new Date(s.retryAfterMs).toISOString()} after vCenter refused the credentials (vcenter.authRetrySeconds); change the credential files to retry sooner`,
    );
  }

  /** Contents of the credential files, trailing newline removed; an unreadable file is left out. */
  private readFiles(): { username?: string; password?: string } {
    const files = this.options.files ?? {};
    const out: { username?: string; password?: string } = {};
    for (const key of ["username", "password"] as const) {
      const path = files[key];
      if (path === undefined) continue;
      try {
        const value = readFileSync(path, "utf8").replace(/\r?\n$/, "");
        if (value !== "") out[key] = value;
      } catch {
        // Mid-rotation (a Secret volume swaps a symlink): keep the credentials in use.
      }
    }
    return out;
  }
}
