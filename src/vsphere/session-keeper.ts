import type { VcenterApi } from "./vcenter-api.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";

/** What an attempt returns when vCenter says the session is not (or no longer) valid. */
export const SESSION_REJECTED: unique symbol = Symbol("session rejected");
export type SessionAttempt<T> = (token: string) => Promise<T | typeof SESSION_REJECTED>;

/**
 * Decides whether a login may be attempted now (the account-lockout guard). `check` throws
 * (a VcenterAuthError) to refuse the attempt; `refused` hears of every login vCenter refused.
 */
export interface LoginGate {
  check(api: VcenterApi): void;
  refused(api: VcenterApi, err: VcenterAuthError): void;
}

/**
 * Holds one API's session token. Logs in lazily; when a call is rejected as
 * unauthenticated it logs in again once (concurrent rejections share that one login)
 * and retries the call once. A second rejection is a VcenterAuthError. Every login first
 * asks the gate, and a refused login is reported to it.
 */
export class SessionKeeper {
  private token: string | undefined;
  private loggingIn: Promise<string> | undefined;

  constructor(
    private readonly api: VcenterApi,
    private readonly login: () => Promise<string>,
    private readonly onRelogin: () => void = () => {},
    private readonly gate?: LoginGate,
  ) {}

  async call<T>(attempt: SessionAttempt<T>): Promise<T> {
    const first = await this.currentToken();
    const out = await attempt(first);
    if (out !== SESSION_REJECTED) return out;
    if (this.token === first) {
      this.token = undefined;
      this.onRelogin();
    }
    const second = await this.currentToken();
    const retried = await attempt(second);
    if (retried !== SESSION_REJECTED) return retried;
    if (this.token === second) this.token = undefined;
    throw new VcenterAuthError(this.api, "a fresh session was rejected as unauthenticated");
  }

  /** The token to send, for the rare call made outside `call` (logout). */
  peek(): string | undefined {
    return this.token;
  }

  forget(): void {
    this.token = undefined;
  }

  private currentToken(): Promise<string> {
    if (this.token !== undefined) return Promise.resolve(this.token);
    if (!this.loggingIn) {
      const attempt = async (): Promise<string> => {
        this.gate?.check(this.api);
        try {
          return await this.login();
        } catch (err) {
          if (err instanceof VcenterAuthError) this.gate?.refused(this.api, err);
          throw err;
        }
      };
      this.loggingIn = attempt()
        .then((token) => {
          this.token = token;
          return token;
        })
        .finally(() => {
          this.loggingIn = undefined;
        });
    }
    return this.loggingIn;
  }
}
