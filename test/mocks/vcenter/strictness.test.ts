import { expect } from "chai";
import { COUNTERS, counterFullName, type MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import {
  PASSWORD,
  T0_MS,
  USER,
  VI,
  automationLogin,
  basic,
  call,
  getWith,
  manualClock,
  postWith,
  smallScenario,
  startSmall,
  viLogin,
} from "./mock-vcenter-client.js";

const OFFSET = 300;
const key = (name: string) => OFFSET + COUNTERS.find((x) => counterFullName(x) === name)!.slot;
const ref = (type: string, value: string) => ({ _typeName: "ManagedObjectReference", type, value });
const realtime = (id: string, counters: string[]) => ({
  _typeName: "PerfQuerySpec",
  entity: ref("VirtualMachine", id),
  metricId: counters.map((n) => ({ _typeName: "PerfMetricId", counterId: key(n), instance: "" })),
  intervalId: 20,
  maxSample: 1,
});

describe("mock vCenter: as strict as the real server", () => {
  let vc: MockVcenterHandle;
  let clock: ReturnType<typeof manualClock>;
  beforeEach(async () => {
    clock = manualClock(T0_MS + 5_000);
    vc = await startSmall({ clock: clock.now, scenario: smallScenario({ counterKeyOffset: OFFSET }) });
  });
  afterEach(() => vc.close());

  describe("Content-Type of request bodies", () => {
    const loginUrl = () => `${vc.url}${VI}/SessionManager/SessionManager/Login`;
    const body = JSON.stringify({ userName: USER, password: PASSWORD });
    const cases: Array<{ name: string; headers: Record<string, string> }> = [
      { name: "no Content-Type", headers: {} },
      { name: "text/plain", headers: { "content-type": "text/plain" } },
      { name: "application/x-www-form-urlencoded", headers: { "content-type": "application/x-www-form-urlencoded" } },
    ];
    for (const c of cases) {
      it(`given a VI/JSON Login body with ${c.name}, answers 415 and opens no session`, async () => {
        // fetch adds text/plain to a string body unless told otherwise: send bytes for "no Content-Type".
        const r = await call(loginUrl(), {
          method: "POST",
          headers: c.headers,
          body: c.name === "no Content-Type" ? new TextEncoder().encode(body) : body,
        });
        expect(r.status).to.equal(415);
        expect(r.json._typeName).to.equal("InvalidRequest");
        expect(vc.controls.stats().logins.viJson).to.equal(0);
      });
    }

    it("given application/json with a charset, accepts the body", async () => {
      const r = await call(loginUrl(), { method: "POST", headers: { "content-type": "application/json; charset=utf-8" }, body });
      expect(r.status).to.equal(200);
    });

    it("given an Automation API POST with a text body, answers 415 INVALID_ARGUMENT", async () => {
      const r = await call(`${vc.url}/api/session`, {
        method: "POST",
        headers: { authorization: basic(USER, PASSWORD), "content-type": "text/plain" },
        body: "x",
      });
      expect(r.status).to.equal(415);
      expect(r.json.error_type).to.equal("INVALID_ARGUMENT");
    });

    it("given body-less POSTs (api/session, CurrentTime, Logout), needs no Content-Type", async () => {
      const token = await automationLogin(vc.url);
      expect(token).to.match(/^[0-9a-f]{32}$/);
      expect((await call(`${vc.url}${VI}/ServiceInstance/ServiceInstance/CurrentTime`, { method: "POST" })).status).to.equal(200);
      const vi = await viLogin(vc.url);
      const out = await call(`${vc.url}${VI}/SessionManager/SessionManager/Logout`, {
        method: "POST",
        headers: { "vmware-api-session-id": vi },
      });
      expect(out.status).to.equal(204);
      expect(vc.controls.stats().logouts).to.deep.equal({ automation: 0, viJson: 1, soap: 0 });
    });
  });

  describe("query parameters", () => {
    let token: string;
    beforeEach(async () => {
      token = await automationLogin(vc.url);
    });

    const refused: Array<{ name: string; path: string }> = [
      // the old /rest spelling: must not silently list every VM
      { name: "filter.hosts on the VM list", path: "/api/vcenter/vm?filter.hosts=host-1" },
      { name: "a typo on the host list", path: "/api/vcenter/host?host=host-1" },
      { name: "any parameter on one VM", path: "/api/vcenter/vm/vm-1?fields=identity" },
      { name: "a parameter on the cluster list", path: "/api/vcenter/cluster?power_states=POWERED_ON" },
    ];
    for (const c of refused) {
      it(`given ${c.name}, answers 400 INVALID_ARGUMENT naming it`, async () => {
        const r = await getWith(`${vc.url}${c.path}`, token);
        expect(r.status).to.equal(400);
        expect(r.json.error_type).to.equal("INVALID_ARGUMENT");
        expect(r.json.messages[0].default_message).to.match(/Unexpected query parameter/);
      });
    }

    for (const filter of ["folders=group-v3", "datacenters=datacenter-1", "resource_pools=resgroup-9"]) {
      it(`given the real but unmodelled filter ${filter}, answers 400 rather than list everything`, async () => {
        const r = await getWith(`${vc.url}/api/vcenter/vm?${filter}`, token);
        expect(r.status).to.equal(400);
        expect(r.json.messages[0].default_message).to.match(/does not model/);
      });
    }

    it("given a query parameter on a VI/JSON call, answers 400 InvalidRequest", async () => {
      const r = await call(`${vc.url}${VI}/ServiceInstance/ServiceInstance/content?pretty=1`);
      expect(r.status).to.equal(400);
      expect(r.json._typeName).to.equal("InvalidRequest");
    });

    it("given the documented filters, still answers 200", async () => {
      const r = await getWith(`${vc.url}/api/vcenter/vm?hosts=host-1&power_states=POWERED_ON`, token);
      expect(r.status).to.equal(200);
      expect(r.json.map((v: { vm: string }) => v.vm)).to.deep.equal(["vm-1", "vm-2"]);
    });
  });

  describe("PerfQuerySpec as vCenter deserializes it", () => {
    let token: string;
    const queryPerf = (querySpec: unknown) => postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerf`, token, { querySpec });
    beforeEach(async () => {
      token = await viLogin(vc.url);
    });

    const malformed: Array<{ name: string; spec: object; message: RegExp }> = [
      {
        name: "a PerfMetricId without instance",
        spec: { ...realtime("vm-1", []), metricId: [{ counterId: key("cpu.ready.summation") }] },
        message: /Required property instance is missing from data object of type PerfMetricId/,
      },
      {
        name: "a PerfMetricId without counterId",
        spec: { ...realtime("vm-1", []), metricId: [{ instance: "" }] },
        message: /Required property counterId is missing/,
      },
      {
        name: "no entity",
        spec: { metricId: [], intervalId: 20 },
        message: /Required property entity is missing from data object of type PerfQuerySpec/,
      },
      {
        name: "a wrong _typeName",
        spec: { ...realtime("vm-1", ["cpu.ready.summation"]), _typeName: "PerfMetricId" },
        message: /PerfQuerySpec is expected/,
      },
    ];
    for (const c of malformed) {
      it(`given ${c.name}, answers 400 InvalidRequest instead of a silent default`, async () => {
        const r = await queryPerf([c.spec]);
        expect(r.status).to.equal(400);
        expect(r.json._typeName).to.equal("InvalidRequest");
        expect(r.json.faultMessage[0].message).to.match(c.message);
      });
    }

    it("given no intervalId, answers from the historical interval: 300 s samples, summations over 300 s", async () => {
      const { intervalId: _omit, maxSample: _ignored, ...spec } = realtime("vm-1", ["cpu.ready.summation"]);
      const r = await queryPerf([spec]);
      expect(r.status).to.equal(200);
      const info = r.json[0].sampleInfo as Array<{ timestamp: string; interval: number }>;
      expect(info.every((s) => s.interval === 300)).to.equal(true);
      // clock 10:00:05 -> the newest 300 s sample ends at 10:00:00; the last hour is kept
      expect(info.at(-1)?.timestamp).to.equal("2026-11-29T10:00:00Z");
      expect(info.length).to.equal(12);
      // 10 % x 4 vCPUs over 300 s = 8000 ms per 20 s x 15 = 120000 ms
      expect(r.json[0].value[0].value.at(-1)).to.equal(120_000);
    });

    it("given no metricId, QueryPerf returns every counter of the entity with all instances", async () => {
      const { metricId: _omit, ...spec } = realtime("vm-1", []);
      const r = await queryPerf([spec]);
      const ids = (r.json[0].value as Array<{ id: { counterId: number; instance: string } }>).map(
        (s) => `${s.id.counterId}/${s.id.instance}`,
      );
      expect(ids)
        .to.include(`${key("cpu.ready.summation")}/`)
        .and.to.include(`${key("cpu.ready.summation")}/3`);
      expect(ids.length).to.equal(COUNTERS.filter((c) => c.entities.includes("vm")).length + 4);
    });

    it("given no metricId, QueryPerfComposite answers InvalidArgument querySpec.metricId (it is required there)", async () => {
      const r = await postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerfComposite`, token, {
        querySpec: { _typeName: "PerfQuerySpec", entity: ref("HostSystem", "host-1"), intervalId: 20 },
      });
      expect(r.status).to.equal(500);
      expect(r.json).to.include({ _typeName: "InvalidArgument", invalidProperty: "querySpec.metricId" });
    });
  });

  describe("advanced settings and the metric limit", () => {
    let token: string;
    const queryOptions = (name?: string) =>
      postWith(`${vc.url}${VI}/OptionManager/VpxSettings/QueryOptions`, token, name === undefined ? {} : { name });
    const queryPerf = (querySpec: unknown) => postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerf`, token, { querySpec });
    const specs = (metrics: number) => Array.from({ length: metrics }, () => realtime("vm-1", ["cpu.ready.summation"]));
    beforeEach(async () => {
      token = await viLogin(vc.url);
    });

    it("given no maxQueryMetrics setting, QueryOptions answers InvalidName and the limit is 256", async () => {
      const r = await queryOptions("config.vpxd.stats.maxQueryMetrics");
      expect(r.status).to.equal(500);
      expect(r.json).to.include({ _typeName: "InvalidName", name: "config.vpxd.stats.maxQueryMetrics" });
      expect((await queryPerf(specs(256))).status).to.equal(200);
      expect((await queryPerf(specs(257))).json._typeName).to.equal("RestrictedByAdministrator");
    });

    it("given the setting lowered to 64, serves it as an int OptionValue and refuses 65 metrics with RestrictedByAdministrator", async () => {
      vc.controls.setAdvancedSetting("config.vpxd.stats.maxQueryMetrics", 64);
      const r = await queryOptions("config.vpxd.stats.maxQueryMetrics");
      expect(r.status).to.equal(200);
      expect(r.json).to.deep.equal([
        { _typeName: "OptionValue", key: "config.vpxd.stats.maxQueryMetrics", value: { _typeName: "int", _value: 64 } },
      ]);
      expect((await queryPerf(specs(64))).status).to.equal(200);
      const refused = await queryPerf(specs(65));
      expect(refused.status).to.equal(500);
      expect(refused.json).to.include({ _typeName: "RestrictedByAdministrator", details: "vpxd.stats.maxQueryMetrics" });
    });

    it("given a tree node name, returns the settings under it; -1 lifts the limit", async () => {
      vc.controls.setAdvancedSetting("config.vpxd.stats.maxQueryMetrics", "-1");
      const r = await queryOptions("config.vpxd.stats.");
      expect(r.json).to.deep.equal([
        { _typeName: "OptionValue", key: "config.vpxd.stats.maxQueryMetrics", value: { _typeName: "string", _value: "-1" } },
      ]);
      expect((await queryPerf(specs(300))).status).to.equal(200);
    });

    it("given no session, QueryOptions answers NotAuthenticated", async () => {
      const r = await call(`${vc.url}${VI}/OptionManager/VpxSettings/QueryOptions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(r.json._typeName).to.equal("NotAuthenticated");
    });
  });

  describe("clock offset", () => {
    it("given clockOffsetSeconds, CurrentTime, the Date header and sample times all run ahead", async () => {
      vc.controls.setFaults({ clockOffsetSeconds: 600 });
      const r = await call(`${vc.url}${VI}/ServiceInstance/ServiceInstance/CurrentTime`, { method: "POST" });
      expect(r.json).to.equal(new Date(T0_MS + 605_000).toISOString());
      expect(Date.parse(r.headers.get("date")!)).to.equal(T0_MS + 605_000);
      const token = await viLogin(vc.url);
      const q = await postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerf`, token, {
        querySpec: [realtime("vm-1", ["cpu.ready.summation"])],
      });
      expect(q.json[0].sampleInfo[0].timestamp).to.equal("2026-11-29T10:10:00Z");
      vc.controls.setFaults({ clockOffsetSeconds: -600 });
      const behind = await call(`${vc.url}${VI}/ServiceInstance/ServiceInstance/CurrentTime`, { method: "POST" });
      expect(behind.json).to.equal(new Date(T0_MS - 595_000).toISOString());
    });
  });
});
