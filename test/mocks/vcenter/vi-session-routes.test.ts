import { expect } from "chai";
import type { MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import { PASSWORD, USER, VI, call, getWith, manualClock, smallScenario, startSmall, viLogin } from "./mock-vcenter-client.js";

const login = (base: string, body: unknown, release = "8.0.1.0") =>
  call(`${base}/sdk/vim25/${release}/SessionManager/SessionManager/Login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("mock vCenter: VI/JSON session", () => {
  let vc: MockVcenterHandle;
  let clock: ReturnType<typeof manualClock>;
  beforeEach(async () => {
    clock = manualClock();
    vc = await startSmall({ clock: clock.now, scenario: smallScenario({ faults: { sessionIdleSeconds: 30 } }) });
  });
  afterEach(() => vc.close());

  it("serves ServiceInstance content without a login, naming SessionManager and PerfMgr", async () => {
    const r = await call(`${vc.url}${VI}/ServiceInstance/ServiceInstance/content`);
    expect(r.status).to.equal(200);
    expect(r.json._typeName).to.equal("ServiceContent");
    expect(r.json.sessionManager).to.deep.equal({ _typeName: "ManagedObjectReference", type: "SessionManager", value: "SessionManager" });
    expect(r.json.perfManager).to.deep.equal({ _typeName: "ManagedObjectReference", type: "PerformanceManager", value: "PerfMgr" });
  });

  it("given a served release, Login returns the token in the vmware-api-session-id header and a UserSession", async () => {
    const r = await login(vc.url, { userName: USER, password: PASSWORD }, "8.0.1.0");
    expect(r.status).to.equal(200);
    expect(r.headers.get("vmware-api-session-id")).to.match(/^[0-9a-f]{32}$/);
    expect(r.json._typeName).to.equal("UserSession");
    expect(r.json.userName).to.equal("VSPHERE.LOCAL\\Administrator");
  });

  // A vCenter 8.0.1 serves the VI/JSON release 8.0.1.0 only; newer releases, older ones
  // (VI/JSON started with 8.0.1) and words are all 404.
  for (const release of ["8.0.3.0", "8.0.0.0", "9.0", "latest"]) {
    it(`given release ${release}, which this vCenter does not serve, answers 404 on every VI/JSON path`, async () => {
      expect((await call(`${vc.url}/sdk/vim25/${release}/ServiceInstance/ServiceInstance/content`)).status).to.equal(404);
      expect((await login(vc.url, { userName: USER, password: PASSWORD }, release)).status).to.equal(404);
      expect(vc.controls.stats().logins.viJson).to.equal(0);
    });
  }

  it("given viJsonReleases in the scenario, serves each of them", async () => {
    await vc.close();
    vc = await startSmall({ clock: clock.now, scenario: smallScenario({ viJsonReleases: ["8.0.2.0", "8.0.3.0"] }) });
    expect((await login(vc.url, { userName: USER, password: PASSWORD }, "8.0.3.0")).status).to.equal(200);
    expect((await login(vc.url, { userName: USER, password: PASSWORD }, "8.0.1.0")).status).to.equal(404);
  });

  const badLogins = [
    { name: "a wrong password", body: { userName: USER, password: "x" } },
    { name: "no body fields", body: {} },
  ];
  for (const c of badLogins) {
    it(`given ${c.name}, Login answers an InvalidLogin fault (HTTP 500) without a token`, async () => {
      const r = await login(vc.url, c.body);
      expect(r.status).to.equal(500);
      expect(r.headers.get("vmware-api-session-id")).to.equal(null);
      expect(r.json._typeName).to.equal("InvalidLogin");
      expect(r.json.faultMessage[0]).to.include({ _typeName: "LocalizableMessage" });
    });
  }

  it("given a malformed JSON body, Login answers 400 with an InvalidRequest fault", async () => {
    const r = await call(`${vc.url}${VI}/SessionManager/SessionManager/Login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(r.status).to.equal(400);
    expect(r.json._typeName).to.equal("InvalidRequest");
  });

  it("given no or an expired token, answers a NotAuthenticated fault (HTTP 500 by default)", async () => {
    const none = await call(`${vc.url}${VI}/PerformanceManager/PerfMgr/perfCounter`);
    expect(none.status).to.equal(500);
    expect(none.json).to.include({ _typeName: "NotAuthenticated", privilegeId: "System.View" });
    expect(none.json.object).to.deep.equal({ _typeName: "ManagedObjectReference", type: "PerformanceManager", value: "PerfMgr" });
    const token = await viLogin(vc.url);
    clock.advanceS(31);
    const expired = await getWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/perfCounter`, token);
    expect(expired.json._typeName).to.equal("NotAuthenticated");
    expect(vc.controls.stats().unauthorizedServed).to.equal(2);
  });

  it("given viNotAuthenticatedStatus 401, the NotAuthenticated fault comes with 401", async () => {
    vc.controls.setFaults({ viNotAuthenticatedStatus: 401 });
    const r = await getWith(`${vc.url}${VI}/HostSystem/host-1/summary`, "deadbeef");
    expect(r.status).to.equal(401);
    expect(r.json._typeName).to.equal("NotAuthenticated");
  });

  it("given Logout, the token stops working", async () => {
    const token = await viLogin(vc.url);
    const out = await call(`${vc.url}${VI}/SessionManager/SessionManager/Logout`, {
      method: "POST",
      headers: { "vmware-api-session-id": token },
    });
    expect(out.status).to.equal(204);
    expect((await getWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/perfCounter`, token)).json._typeName).to.equal("NotAuthenticated");
    expect(vc.controls.stats().logins.viJson).to.equal(1);
  });
});
