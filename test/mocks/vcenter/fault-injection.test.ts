import { expect } from "chai";
import { loadScenario, scenarioPath, startMockVcenter, type MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import { PASSWORD, USER, VI, automationLogin, basic, call, getWith, startSmall } from "./mock-vcenter-client.js";

describe("mock vCenter: fault injection", () => {
  let vc: MockVcenterHandle;
  afterEach(() => vc.close());

  const fixed = [
    { name: "an Automation call", path: "/api/vcenter/host", status: 500, check: (j: any) => expect(j.error_type).to.equal("ERROR") },
    {
      name: "an Automation call (503)",
      path: "/api/vcenter/host",
      status: 503,
      check: (j: any) => expect(j.error_type).to.equal("SERVICE_UNAVAILABLE"),
    },
    {
      name: "a VI/JSON call",
      path: `${VI}/ServiceInstance/ServiceInstance/content`,
      status: 502,
      check: (j: any) => expect(j._typeName).to.equal("SystemError"),
    },
  ];
  for (const c of fixed) {
    it(`given fixedStatus ${c.status}, ${c.name} answers ${c.status} with that API's error body`, async () => {
      vc = await startSmall();
      vc.controls.setFaults({ fixedStatus: c.status });
      const r = await call(`${vc.url}${c.path}`);
      expect(r.status).to.equal(c.status);
      c.check(r.json);
    });
  }

  it("given errorRate 1, every call answers errorStatus; back to 0, calls succeed", async () => {
    vc = await startSmall();
    const token = await automationLogin(vc.url);
    vc.controls.setFaults({ errorRate: 1, errorStatus: 504 });
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(504);
    vc.controls.setFaults({ errorRate: 0 });
    expect((await getWith(`${vc.url}/api/vcenter/host`, token)).status).to.equal(200);
  });

  it("given errorRate 0.5 and a seed, fails some calls and the sequence repeats for the same seed", async () => {
    const run = async () => {
      vc = await startSmall();
      const token = await automationLogin(vc.url);
      vc.controls.setFaults({ errorRate: 0.5, seed: 99 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await getWith(`${vc.url}/api/vcenter/host`, token)).status);
      await vc.close();
      return statuses;
    };
    const a = await run();
    const b = await run();
    vc = await startSmall(); // for afterEach
    expect(a).to.deep.equal(b);
    expect(a).to.include(200);
    expect(a).to.include(503);
  });

  it("given malformedRate 1, successful bodies are not valid JSON", async () => {
    vc = await startSmall();
    const token = await automationLogin(vc.url);
    vc.controls.setFaults({ malformedRate: 1 });
    const r = await getWith(`${vc.url}/api/vcenter/host`, token);
    expect(r.status).to.equal(200);
    expect(() => JSON.parse(r.text)).to.throw(SyntaxError);
  });

  it("given latencyMs far above the client's timeout, the client times out", async () => {
    vc = await startSmall();
    vc.controls.setFaults({ latencyMs: 5_000 });
    let error: unknown;
    try {
      await fetch(`${vc.url}/api/session`, {
        method: "POST",
        headers: { authorization: basic(USER, PASSWORD) },
        signal: AbortSignal.timeout(100),
      });
    } catch (err) {
      error = err;
    }
    expect((error as Error | undefined)?.name).to.equal("TimeoutError");
  });

  it("loads faulty.yaml with latency, errors and short sessions", async () => {
    const s = loadScenario(scenarioPath("faulty.yaml"));
    expect(s.faults).to.include({ errorRate: 0.2, sessionLifetimeSeconds: 60, sessionIdleSeconds: 30 });
    expect(s.faults.latencyMs).to.be.greaterThan(0);
    vc = await startMockVcenter({ scenario: s });
  });
});
