import { expect } from "chai";
import { SESSION_REJECTED, SessionKeeper } from "../../src/vsphere/session-keeper.js";
import { VcenterAuthError } from "../../src/vsphere/vcenter-auth-error.js";

function keeper() {
  let logins = 0;
  let relogins = 0;
  const k = new SessionKeeper(
    "automation",
    async () => {
      logins += 1;
      await new Promise((r) => setImmediate(r));
      return `token-${logins}`;
    },
    () => {
      relogins += 1;
    },
  );
  return { k, counts: () => ({ logins, relogins }) };
}

describe("SessionKeeper", () => {
  it("given no session, logs in once for concurrent calls", async () => {
    const { k, counts } = keeper();
    const tokens = await Promise.all([1, 2, 3].map(() => k.call(async (t) => t)));
    expect(tokens).to.deep.equal(["token-1", "token-1", "token-1"]);
    expect(counts()).to.deep.equal({ logins: 1, relogins: 0 });
  });

  it("given a rejected session, logs in again once and retries with the new token", async () => {
    const { k, counts } = keeper();
    await k.call(async (t) => t);
    const seen: string[] = [];
    const out = await k.call(async (t) => {
      seen.push(t);
      return t === "token-1" ? SESSION_REJECTED : "ok";
    });
    expect(out).to.equal("ok");
    expect(seen).to.deep.equal(["token-1", "token-2"]);
    expect(counts()).to.deep.equal({ logins: 2, relogins: 1 });
  });

  it("given many concurrent calls rejected together, shares one re-login", async () => {
    const { k, counts } = keeper();
    await k.call(async (t) => t);
    const outs = await Promise.all(Array.from({ length: 5 }, () => k.call(async (t) => (t === "token-1" ? SESSION_REJECTED : t))));
    expect(outs).to.deep.equal(Array(5).fill("token-2"));
    expect(counts()).to.deep.equal({ logins: 2, relogins: 1 });
  });

  it("given a fresh session rejected again, throws an auth error instead of looping", async () => {
    const { k, counts } = keeper();
    const err = await k
      .call(async () => SESSION_REJECTED)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).to.be.instanceOf(VcenterAuthError);
    expect(counts().logins).to.equal(2);
  });

  it("given a failing login, rejects and tries again on the next call", async () => {
    let attempts = 0;
    const k = new SessionKeeper("vijson", async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("down");
      return "t";
    });
    expect(await k.call(async (t) => t).catch((e: Error) => e.message)).to.equal("down");
    expect(await k.call(async (t) => t)).to.equal("t");
  });

  it("given a gate that refuses, makes no login attempt; a refused login is reported to the gate once", async () => {
    let attempts = 0;
    const refused: string[] = [];
    let open = true;
    const gate = {
      check: (api: string) => {
        if (!open) throw new VcenterAuthError("vijson", `suspended (${api})`);
      },
      refused: (api: string) => refused.push(api),
    };
    const k = new SessionKeeper(
      "vijson",
      async () => {
        attempts += 1;
        throw new VcenterAuthError("vijson", "login refused (500 InvalidLogin)");
      },
      () => {},
      gate,
    );
    await Promise.all([1, 2].map(() => k.call(async (t) => t).catch(() => undefined)));
    expect(attempts).to.equal(1);
    expect(refused).to.deep.equal(["vijson"]);
    open = false;
    const err = await k
      .call(async (t) => t)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((err as Error).message).to.match(/suspended/);
    expect(attempts).to.equal(1);
    expect(refused).to.deep.equal(["vijson"]);
  });
});
