import { createHash } from "node:crypto";

/** Who a bearer token belongs to, as a TokenReview answers (authentication.k8s.io/v1 `UserInfo`). */
export interface ReviewedUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The API server's two reviews (adapter: src/cluster/access-reviewer.ts). */
export interface AccessReviewer {
  /** TokenReview: the token's user, or undefined when the API server does not authenticate it. */
  authenticate(token: string): Promise<ReviewedUser | undefined>;
  /** SubjectAccessReview of a non-resource URL (`/debug/hosts`, `get`). */
  authorize(user: ReviewedUser, path: string, verb: string): Promise<boolean>;
}

export type AccessDecision = "allowed" | "unauthenticated" | "forbidden";

export interface DelegatedAccessOptions {
  /** How long a decision is reused (kube-rbac-proxy: seconds, not minutes). */
  readonly ttlMs: number;
  /** Epoch ms. */
  readonly clock: () => number;
  /** Decisions remembered at most (oldest forgotten first). */
  readonly maxEntries?: number;
}

/**
 * `server.debugAccess: delegated` (issue 28): a bearer token is checked with a TokenReview and
 * the request's path and verb with a SubjectAccessReview on a non-resource URL, as kube-rbac-proxy
 * and the Kubernetes components do; each decision is reused for `ttlMs`. The cache is keyed by a
 * SHA-256 of the token (the token itself is never kept) and bounded. A review that fails (the API
 * server down) is not cached and rejects: the caller answers 503, never "allowed".
 */
export class DelegatedAccess {
  private readonly decisions = new Map<string, { decision: AccessDecision; atMs: number }>();

  constructor(
    private readonly reviewer: AccessReviewer,
    private readonly o: DelegatedAccessOptions,
  ) {}

  async decide(token: string | undefined, path: string, verb: string): Promise<AccessDecision> {
    if (token === undefined || token === "") return "unauthenticated";
    const key = `${createHash("sha256").update(token).digest("hex")} ${verb} ${path}`;
    const nowMs = this.o.clock();
    const kept = this.decisions.get(key);
    if (kept && nowMs - kept.atMs < this.o.ttlMs) return kept.decision;
    const user = await this.reviewer.authenticate(token);
    const decision: AccessDecision =
      user === undefined ? "unauthenticated" : (await this.reviewer.authorize(user, path, verb)) ? "allowed" : "forbidden";
    this.decisions.delete(key);
    if (this.decisions.size >= (this.o.maxEntries ?? 1000)) this.decisions.delete(this.decisions.keys().next().value as string);
    this.decisions.set(key, { decision, atMs: nowMs });
    return decision;
  }
}
