import { expect } from "chai";
import { DelegatedAccess, type AccessReviewer, type ReviewedUser } from "../../src/server/delegated-access.js";

/** A reviewer that knows one token (`t-jane`, allowed on /debug/hosts only) and counts its calls. */
function fakeReviewer(): AccessReviewer & { calls: string[]; down: boolean } {
  const jane: ReviewedUser = { username: "jane", groups: ["system:authenticated"] };
  const r = {
    calls: [] as string[],
    down: false,
    authenticate: async (token: string) => {
      r.calls.push("TokenReview");
      if (r.down) throw new Error("connect ECONNREFUSED");
      return token === "t-jane" ? jane : undefined;
    },
    authorize: async (user: ReviewedUser, path: string, verb: string) => {
      r.calls.push(`SubjectAccessReview ${user.username} ${verb} ${path}`);
      return path === "/debug/hosts" && verb === "get";
    },
  };
  return r;
}

describe("DelegatedAccess", () => {
  let nowMs = 0;
  const make = (reviewer: AccessReviewer, maxEntries?: number) =>
    new DelegatedAccess(reviewer, { ttlMs: 10_000, clock: () => nowMs, ...(maxEntries ? { maxEntries } : {}) });
  beforeEach(() => (nowMs = 1_000_000));

  const cases: Array<{ name: string; token?: string; path: string; verb: string; want: string; calls: string[] }> = [
    {
      name: "given no token, returns unauthenticated without asking the API server",
      path: "/debug/hosts",
      verb: "get",
      want: "unauthenticated",
      calls: [],
    },
    {
      name: "given a token the API server does not know, returns unauthenticated",
      token: "t-x",
      path: "/debug/hosts",
      verb: "get",
      want: "unauthenticated",
      calls: ["TokenReview"],
    },
    {
      name: "given a known user allowed on the path, returns allowed",
      token: "t-jane",
      path: "/debug/hosts",
      verb: "get",
      want: "allowed",
      calls: ["TokenReview", "SubjectAccessReview jane get /debug/hosts"],
    },
    {
      name: "given a known user not allowed on the path, returns forbidden",
      token: "t-jane",
      path: "/debug/explain",
      verb: "create",
      want: "forbidden",
      calls: ["TokenReview", "SubjectAccessReview jane create /debug/explain"],
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const reviewer = fakeReviewer();
      expect(await make(reviewer).decide(c.token, c.path, c.verb)).to.equal(c.want);
      expect(reviewer.calls).to.deep.equal(c.calls);
    });

  it("given the same token and path within the TTL, reuses the decision; after it, asks again", async () => {
    const reviewer = fakeReviewer();
    const access = make(reviewer);
    await access.decide("t-jane", "/debug/hosts", "get");
    nowMs += 9_999;
    expect(await access.decide("t-jane", "/debug/hosts", "get")).to.equal("allowed");
    expect(reviewer.calls).to.have.length(2);
    nowMs += 1;
    await access.decide("t-jane", "/debug/hosts", "get");
    expect(reviewer.calls).to.have.length(4);
  });

  it("given the API server down, rejects (the gate answers 503, never allowed) and caches nothing", async () => {
    const reviewer = fakeReviewer();
    const access = make(reviewer);
    reviewer.down = true;
    const err = await access.decide("t-jane", "/debug/hosts", "get").catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    reviewer.down = false;
    expect(await access.decide("t-jane", "/debug/hosts", "get")).to.equal("allowed");
  });

  it("given more decisions than maxEntries, forgets the oldest", async () => {
    const reviewer = fakeReviewer();
    const access = make(reviewer, 2);
    for (const path of ["/debug/a", "/debug/b", "/debug/c"]) await access.decide("t-jane", path, "get");
    reviewer.calls.length = 0;
    await access.decide("t-jane", "/debug/c", "get");
    expect(reviewer.calls, "kept").to.deep.equal([]);
    await access.decide("t-jane", "/debug/a", "get");
    expect(reviewer.calls, "forgotten").to.have.length(2);
  });
});
