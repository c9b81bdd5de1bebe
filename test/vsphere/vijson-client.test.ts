import { expect } from "chai";
import { VcenterAuthError } from "../../src/vsphere/vcenter-auth-error.js";
import { VcenterHttpError } from "../../src/vsphere/vcenter-http-error.js";
import type { VcenterRequest, VcenterResponse, VcenterSend } from "../../src/vsphere/vcenter-http.js";
import { VcenterResponseError } from "../../src/vsphere/vcenter-response-error.js";
import { faultDetail, faultType, VijsonClient } from "../../src/vsphere/vijson-client.js";

const BASE = "/sdk/vim25/8.0.1.0";
const CONTENT = {
  _typeName: "ServiceContent",
  sessionManager: { _typeName: "ManagedObjectReference", type: "SessionManager", value: "SessionManager" },
  perfManager: { _typeName: "ManagedObjectReference", type: "PerformanceManager", value: "PerfMgr" },
};
const fault = (t: string) => ({ _typeName: t, faultMessage: [] });
type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

function fake(route: (req: VcenterRequest, token: string | undefined) => Reply, loginReply?: (n: number) => Reply) {
  const calls: VcenterRequest[] = [];
  let logins = 0;
  const send: VcenterSend = async (_api, req) => {
    calls.push(req);
    let r: Reply;
    if (req.path === `${BASE}/ServiceInstance/ServiceInstance/content`) r = { status: 200, body: CONTENT };
    else if (req.path === `${BASE}/SessionManager/SessionManager/Login`) {
      logins += 1;
      r = loginReply?.(logins) ?? { status: 200, body: { _typeName: "UserSession" }, headers: { "vmware-api-session-id": `s${logins}` } };
    } else r = route(req, req.headers?.["vmware-api-session-id"]);
    const res: VcenterResponse = {
      status: r.status,
      header: (n) => r.headers?.[n],
      bodyText: r.body === undefined ? "" : JSON.stringify(r.body),
    };
    return res;
  };
  return { client: new VijsonClient({ send, release: "8.0.1.0", username: "u", password: "p" }), calls, logins: () => logins };
}

describe("VijsonClient", () => {
  it("given the service content, logs in at SessionManager and sends the token from the response header", async () => {
    const f = fake(() => ({ status: 200, body: [] }));
    await f.client.perfCounters();
    const login = f.calls.find((c) => c.path.endsWith("/Login"));
    expect(login?.body).to.deep.equal({ userName: "u", password: "p" });
    const perf = f.calls.find((c) => c.path === `${BASE}/PerformanceManager/PerfMgr/perfCounter`);
    expect(perf?.headers?.["vmware-api-session-id"]).to.equal("s1");
  });

  const expiries: Array<{ name: string; reply: Reply }> = [
    { name: "a NotAuthenticated fault with status 500", reply: { status: 500, body: fault("NotAuthenticated") } },
    { name: "a 401", reply: { status: 401 } },
  ];
  for (const c of expiries) {
    it(`given ${c.name}, logs in again once and retries`, async () => {
      const f = fake((_req, token) =>
        token === "s1" ? c.reply : { status: 200, body: { _typeName: "HostListSummary", hardware: { numCpuCores: 8 } } },
      );
      const summary = await f.client.hostSummary("host-16");
      expect(summary.hardware?.numCpuCores).to.equal(8);
      expect(f.logins()).to.equal(2);
    });
  }

  it("given another fault, throws VcenterHttpError named after the fault", async () => {
    const f = fake(() => ({ status: 500, body: fault("InvalidArgument") }));
    const err = await f.client.queryPerf([]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterHttpError);
    expect((err as VcenterHttpError).errorType).to.equal("InvalidArgument");
  });

  it("given QueryPerf, posts querySpec and accepts an empty body as no data", async () => {
    const f = fake(() => ({ status: 200 }));
    const spec = {
      _typeName: "PerfQuerySpec" as const,
      entity: { _typeName: "ManagedObjectReference" as const, type: "VirtualMachine", value: "vm-1" },
      metricId: [{ _typeName: "PerfMetricId" as const, counterId: 7013, instance: "" }],
      intervalId: 20,
      maxSample: 1,
    };
    expect(await f.client.queryPerf([spec])).to.deep.equal([]);
    const q = f.calls.find((c) => c.path === `${BASE}/PerformanceManager/PerfMgr/QueryPerf`);
    expect(q?.method).to.equal("POST");
    expect(q?.body).to.deep.equal({ querySpec: [spec] });
  });

  it("given InvalidLogin, throws an auth error without the password", async () => {
    const f = fake(
      () => ({ status: 200 }),
      () => ({ status: 500, body: fault("InvalidLogin") }),
    );
    const err = await f.client.perfCounters().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterAuthError);
    expect(JSON.stringify(err) + String(err)).to.not.include('"p"');
  });

  it("given a Login answer without the session header, throws a response error", async () => {
    const f = fake(
      () => ({ status: 200 }),
      () => ({ status: 200, body: { _typeName: "UserSession" } }),
    );
    expect(
      await f.client.perfCounters().then(
        () => undefined,
        (e: unknown) => e,
      ),
    ).to.be.instanceOf(VcenterResponseError);
  });

  it("given QueryOptions, posts the name to the ServiceContent's setting manager and returns the OptionValues", async () => {
    const option = { _typeName: "OptionValue", key: "config.vpxd.stats.maxQueryMetrics", value: { _typeName: "int", _value: 64 } };
    const f = fake(() => ({ status: 200, body: [option] }));
    expect(await f.client.queryOptions("config.vpxd.stats.maxQueryMetrics")).to.deep.equal([option]);
    const q = f.calls.find((c) => c.path.endsWith("/QueryOptions"));
    // CONTENT names no setting manager: the vCenter default VpxSettings is used
    expect(q?.path).to.equal(`${BASE}/OptionManager/VpxSettings/QueryOptions`);
    expect(q?.body).to.deep.equal({ name: "config.vpxd.stats.maxQueryMetrics" });
  });

  it("given RestrictedByAdministrator, the error carries its details (the setting name)", async () => {
    const f = fake(() => ({ status: 500, body: { ...fault("RestrictedByAdministrator"), details: "vpxd.stats.maxQueryMetrics" } }));
    const err = (await f.client.queryPerf([]).then(
      () => undefined,
      (e: unknown) => e,
    )) as VcenterHttpError;
    expect(err.errorType).to.equal("RestrictedByAdministrator");
    expect(err.faultDetail).to.equal("vpxd.stats.maxQueryMetrics");
    expect(err.message).to.match(/RestrictedByAdministrator: vpxd\.stats\.maxQueryMetrics/);
  });

  it("given CurrentTime, posts without a body and parses the dateTime", async () => {
    const f = fake(() => ({ status: 200, body: "2026-11-29T10:10:05.250Z" }));
    expect(await f.client.currentTimeMs()).to.equal(Date.UTC(2026, 10, 29, 10, 10, 5, 250));
    const q = f.calls.find((c) => c.path.endsWith("/CurrentTime"));
    expect(q?.path).to.equal(`${BASE}/ServiceInstance/ServiceInstance/CurrentTime`);
    expect(q?.body).to.equal(undefined);
  });

  it("given a session, Logout posts to SessionManager with the token and forgets it", async () => {
    const f = fake(() => ({ status: 204 }));
    expect(await f.client.logout()).to.equal(false); // no session yet: nothing to do
    await f.client.hostSummary("host-1").catch(() => undefined);
    expect(await f.client.logout()).to.equal(true);
    const out = f.calls.find((c) => c.path.endsWith("/Logout"));
    expect(out?.headers?.["vmware-api-session-id"]).to.equal("s1");
    expect(await f.client.logout()).to.equal(false);
  });

  const details: Array<{ body: string; want: string | undefined }> = [
    { body: '{"_typeName":"RestrictedByAdministrator","details":"vpxd.stats.maxQueryMetrics"}', want: "vpxd.stats.maxQueryMetrics" },
    { body: '{"_typeName":"InvalidArgument","invalidProperty":"querySpec.size"}', want: "querySpec.size" },
    { body: '{"_typeName":"RestrictedByAdministrator","details":"free text, with spaces"}', want: undefined },
    { body: "not json", want: undefined },
  ];
  for (const c of details) it(`faultDetail(${c.body}) is ${c.want}`, () => expect(faultDetail(c.body)).to.equal(c.want));

  const faults: Array<{ body: string; want: string | undefined }> = [
    { body: '{"_typeName":"NotAuthenticated"}', want: "NotAuthenticated" },
    { body: "[]", want: undefined },
    { body: "<html>", want: undefined },
    { body: '{"_typeName":"<script>"}', want: undefined },
  ];
  for (const c of faults) it(`faultType(${c.body}) is ${c.want}`, () => expect(faultType(c.body)).to.equal(c.want));
});
