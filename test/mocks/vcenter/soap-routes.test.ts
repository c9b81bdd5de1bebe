import { expect } from "chai";
import type { MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import { PASSWORD, USER, smallScenario, startSmall } from "./mock-vcenter-client.js";

/**
 * The mock's vim25 SOAP endpoint, spoken to in raw XML (not through hvx's client), and its
 * release list: the shapes govmomi's vcsim and vCenter send.
 */
const envelope = (body: string) =>
  '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;

async function soap(base: string, body: string, cookie?: string): Promise<{ status: number; text: string; setCookie: string | null }> {
  const res = await fetch(`${base}/sdk`, {
    method: "POST",
    headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: '"urn:vim25/8.0.1.0"', ...(cookie ? { Cookie: cookie } : {}) },
    body: envelope(body),
  });
  return { status: res.status, text: await res.text(), setCookie: res.headers.get("set-cookie") };
}

const LOGIN = (password: string) =>
  `<Login xmlns="urn:vim25"><_this type="SessionManager">SessionManager</_this><userName>${USER}</userName><password>${password}</password></Login>`;

describe("mock vCenter: vim25 over SOAP (POST /sdk)", () => {
  let vc: MockVcenterHandle;
  afterEach(() => vc.close());

  it("given viJsonReleases [7.0.3.0], the release list says vim25 7.0.3.0 and no 8.0.1.0", async () => {
    vc = await startSmall({ scenario: smallScenario({ viJsonReleases: ["7.0.3.0"] }) });
    const text = await (await fetch(`${vc.url}/sdk/vimServiceVersions.xml`)).text();
    expect(text).to.match(/<name>urn:vim25<\/name>\s*<version>7\.0\.3\.0<\/version>/);
    expect(text).to.include("<version>6.7</version>").and.not.include("8.0.1.0");
  });

  it("given a wrong password, answers 500 with an InvalidLogin fault and no cookie", async () => {
    vc = await startSmall();
    const r = await soap(vc.url, LOGIN("nope"));
    expect(r.status).to.equal(500);
    expect(r.text).to.include('<detail><InvalidLoginFault xmlns="urn:vim25" xsi:type="InvalidLogin">');
    expect(r.setCookie).to.equal(null);
  });

  it("given Login, sets the vmware_soap_session cookie that later calls carry; without it, NotAuthenticated", async () => {
    vc = await startSmall();
    const login = await soap(vc.url, LOGIN(PASSWORD));
    expect(login.status).to.equal(200);
    const cookie = /vmware_soap_session="[^"]+"/.exec(login.setCookie ?? "")?.[0];
    expect(cookie).to.be.a("string");
    const query =
      '<QueryOptions xmlns="urn:vim25"><_this type="OptionManager">VpxSettings</_this><name>config.vpxd.stats.maxQueryMetrics</name></QueryOptions>';
    const anonymous = await soap(vc.url, query);
    expect(anonymous.status).to.equal(500);
    expect(anonymous.text).to.include('xsi:type="NotAuthenticated"');
    const authed = await soap(vc.url, query, cookie);
    // An unset setting: InvalidName naming it, as QueryOptions answers.
    expect(authed.text).to.include('xsi:type="InvalidName"').and.include("<name>config.vpxd.stats.maxQueryMetrics</name>");
  });

  it("given a property the mock does not have, answers InvalidProperty naming the path", async () => {
    vc = await startSmall();
    const cookie = /vmware_soap_session="[^"]+"/.exec((await soap(vc.url, LOGIN(PASSWORD))).setCookie ?? "")?.[0];
    const r = await soap(
      vc.url,
      '<RetrievePropertiesEx xmlns="urn:vim25"><_this type="PropertyCollector">propertyCollector</_this><specSet>' +
        "<propSet><type>PerformanceManager</type><pathSet>historicalIntervalz</pathSet></propSet>" +
        '<objectSet><obj type="PerformanceManager">PerfMgr</obj></objectSet></specSet><options></options></RetrievePropertiesEx>',
      cookie,
    );
    expect(r.status).to.equal(500);
    expect(r.text).to.include('xsi:type="InvalidProperty"').and.include("<name>historicalIntervalz</name>");
  });

  it("given a body that is not a SOAP envelope, answers a fault, not a crash", async () => {
    vc = await startSmall();
    const res = await fetch(`${vc.url}/sdk`, { method: "POST", headers: { "Content-Type": "text/xml" }, body: "{not xml" });
    expect(res.status).to.equal(500);
    expect(await res.text()).to.include("<soapenv:Fault>");
  });
});
