import { expect } from "chai";
import { SoapClient } from "../../src/vsphere/soap-client.js";
import { retrieveObject } from "../../src/vsphere/soap-property-collector.js";
import type { VcenterRequest, VcenterResponse, VcenterSend } from "../../src/vsphere/vcenter-http.js";

const ENV = (body: string) =>
  '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
const CONTENT = ENV(
  '<RetrieveServiceContentResponse xmlns="urn:vim25"><returnval><rootFolder type="Folder">group-d1</rootFolder>' +
    '<propertyCollector type="PropertyCollector">propertyCollector</propertyCollector><viewManager type="ViewManager">ViewManager</viewManager>' +
    '<sessionManager type="SessionManager">SessionManager</sessionManager><perfManager type="PerformanceManager">PerfMgr</perfManager>' +
    "</returnval></RetrieveServiceContentResponse>",
);
/** An object whose property the collector could not read because the session expired (pyvmomi #294 shows this shape). */
const MISSING = ENV(
  '<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval><objects><obj type="HostSystem">host-1</obj>' +
    '<missingSet><path>name</path><fault><fault xsi:type="NotAuthenticated"><object type="HostSystem">host-1</object>' +
    "<privilegeId>System.View</privilegeId></fault><localizedMessage></localizedMessage></fault></missingSet></objects></returnval></RetrievePropertiesExResponse>",
);
const FOUND = ENV(
  '<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval><objects><obj type="HostSystem">host-1</obj>' +
    '<propSet><name>name</name><val xsi:type="xsd:string">esx-01</val></propSet></objects></returnval></RetrievePropertiesExResponse>',
);

function fakeVcenter(retrieveAnswers: string[]): { send: VcenterSend; methods: string[] } {
  const methods: string[] = [];
  const reply = (status: number, bodyText: string, setCookie?: string): VcenterResponse => ({
    status,
    bodyText,
    header: (name) => (name === "set-cookie" ? setCookie : undefined),
  });
  const send: VcenterSend = async (_api, request: VcenterRequest) => {
    const method = /<soapenv:Body><(\w+)/.exec(request.text?.body ?? "")?.[1] ?? "";
    methods.push(method);
    if (method === "RetrieveServiceContent") return reply(200, CONTENT);
    if (method === "Login")
      return reply(
        200,
        ENV('<LoginResponse xmlns="urn:vim25"><returnval><key>k</key></returnval></LoginResponse>'),
        `vmware_soap_session="s${methods.length}"; Path=/`,
      );
    return reply(200, retrieveAnswers.shift()!);
  };
  return { send, methods };
}

describe("the PropertyCollector over SOAP", () => {
  it("given NotAuthenticated in an object's missingSet (an expired session), logs in again once and reads again", async () => {
    const vc = fakeVcenter([MISSING, FOUND]);
    let relogins = 0;
    const client = new SoapClient({ send: vc.send, username: "u", password: "p", apiVersion: "8.0.1.0", onRelogin: () => (relogins += 1) });
    const found = await retrieveObject(client, { type: "HostSystem", value: "host-1" }, ["name"]);
    expect(found?.props.get("name")?.text).to.equal("esx-01");
    expect(relogins).to.equal(1);
    expect(vc.methods.filter((m) => m === "Login")).to.have.length(2);
  });

  it("given a property missing for another reason (NoPermission), leaves it out without logging in again", async () => {
    const noPermission = MISSING.replace('xsi:type="NotAuthenticated"', 'xsi:type="NoPermission"');
    const vc = fakeVcenter([noPermission]);
    const client = new SoapClient({ send: vc.send, username: "u", password: "p", apiVersion: "8.0.1.0" });
    const found = await retrieveObject(client, { type: "HostSystem", value: "host-1" }, ["name"]);
    expect(found?.props.size).to.equal(0);
    expect(vc.methods.filter((m) => m === "Login")).to.have.length(1);
  });
});
