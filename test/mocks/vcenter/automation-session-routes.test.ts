import { expect } from "chai";
import type { MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import {
  PASSWORD,
  USER,
  VI,
  automationLogin,
  basic,
  call,
  getWith,
  manualClock,
  smallScenario,
  startSmall,
  viLogin,
} from "./mock-vcenter-client.js";

const UNAUTHENTICATED = {
  error_type: "UNAUTHENTICATED",
  messages: [{ args: [], default_message: "Authentication required.", id: "com.vmware.vapi.endpoint.method.authentication.required" }],
};

describe("mock vCenter: Automation API session", () => {
  let vc: MockVcenterHandle;
  let clock: ReturnType<typeof manualClock>;
  beforeEach(async () => {
    clock = manualClock();
    vc = await startSmall({ clock: clock.now, scenario: smallScenario({ faults: { sessionIdleSeconds: 1800 } }) });
  });
  afterEach(() => vc.close());

  it("given good Basic credentials, answers 201 with the token as a JSON string", async () => {
    const r = await call(`${vc.url}/api/session`, { method: "POST", headers: { authorization: basic(USER, PASSWORD) } });
    expect(r.status).to.equal(201);
    expect(r.text).to.match(/^"[0-9a-f]{32}"$/);
    expect(vc.controls.stats().logins.automation).to.equal(1);
  });

  const badLogins: Array<{ name: string; headers: Record<string, string> }> = [
    { name: "wrong password", headers: { authorization: basic(USER, "nope") } },
    { name: "unknown user", headers: { authorization: basic("root", PASSWORD) } },
    { name: "no Authorization header", headers: {} },
    { name: "not Basic", headers: { authorization: "Bearer abc" } },
  ];
  for (const c of badLogins) {
    it(`given ${c.name}, answers 401 with the standard UNAUTHENTICATED body`, async () => {
      const r = await call(`${vc.url}/api/session`, { method: "POST", headers: c.headers });
      expect(r.status).to.equal(401);
      expect(r.json).to.deep.equal(UNAUTHENTICATED);
      expect(r.text).not.to.contain(PASSWORD);
    });
  }

  it("given a session, GET /api/session describes it and DELETE ends it (204, then 401)", async () => {
    const token = await automationLogin(vc.url);
    const info = await getWith(`${vc.url}/api/session`, token);
    expect(info.status).to.equal(200);
    expect(info.json).to.deep.equal({
      user: "VSPHERE.LOCAL\\Administrator",
      created_time: "2026-11-29T10:00:00.000Z",
      last_accessed_time: "2026-11-29T10:00:00.000Z",
    });
    const del = await call(`${vc.url}/api/session`, { method: "DELETE", headers: { "vmware-api-session-id": token } });
    expect(del.status).to.equal(204);
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(401);
  });

  const badTokens = [
    { name: "no session header", token: undefined },
    { name: "an unknown token", token: "0123456789abcdef0123456789abcdef" },
  ];
  for (const c of badTokens) {
    it(`given ${c.name}, inventory calls answer 401 UNAUTHENTICATED and are counted`, async () => {
      const r = await call(`${vc.url}/api/vcenter/vm`, c.token ? { headers: { "vmware-api-session-id": c.token } } : {});
      expect(r.status).to.equal(401);
      expect(r.json).to.deep.equal(UNAUTHENTICATED);
      expect(vc.controls.stats().unauthorizedServed).to.equal(1);
    });
  }

  it("given a VI/JSON token, the Automation API refuses it (each API has its own login)", async () => {
    const viToken = await viLogin(vc.url);
    expect((await getWith(`${vc.url}/api/vcenter/host`, viToken)).status).to.equal(401);
    expect((await getWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/perfCounter`, viToken)).status).to.equal(200);
  });

  it("given idle time beyond sessionIdleSeconds, the token expires; activity keeps it alive", async () => {
    const token = await automationLogin(vc.url);
    clock.advanceS(1700);
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(200);
    clock.advanceS(1700); // 1700 s since the last call, 3400 s since login: still alive
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(200);
    clock.advanceS(1801);
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(401);
  });

  it("given sessionLifetimeSeconds, the token expires that long after login however busy", async () => {
    vc.controls.setFaults({ sessionLifetimeSeconds: 60 });
    const token = await automationLogin(vc.url);
    clock.advanceS(40);
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(200);
    clock.advanceS(21);
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(401);
  });

  it("given expireAllSessions(), every live token answers 401 and a new login works", async () => {
    const token = await automationLogin(vc.url);
    vc.controls.expireAllSessions();
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(401);
    const again = await automationLogin(vc.url);
    expect((await getWith(`${vc.url}/api/vcenter/host`, again)).status).to.equal(200);
    expect(vc.controls.stats().logins.automation).to.equal(2);
  });
});
