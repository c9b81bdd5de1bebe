import { expect } from "chai";
import { sessionCookie } from "../../src/vsphere/soap-client.js";
import { buildSoapRequest, child, parseSoapReply, SoapParseError, xsiType, type SoapFault } from "../../src/vsphere/soap-envelope.js";

const ENV_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" ' +
  'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>';
const ENV_CLOSE = "</soapenv:Body></soapenv:Envelope>";
const fault = (faultstring: string, detail: string) =>
  `${ENV_OPEN}<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>${faultstring}</faultstring>${detail}</soapenv:Fault>${ENV_CLOSE}`;

/**
 * Fault bodies in the shapes vCenter and govmomi's vcsim send (vcsim 0.24's own answers, captured
 * from the simulator; the detail element is `{Type}Fault` with `xsi:type="{Type}"`, as in the
 * vSphere Web Services SDK's WSDL).
 */
const faultCases: Array<{ name: string; body: string; want: SoapFault }> = [
  {
    name: "given vcsim's InvalidLogin, returns type InvalidLogin and the faultstring",
    body: fault("Login failure", '<detail><InvalidLoginFault xmlns="urn:vim25" xsi:type="InvalidLogin"></InvalidLoginFault></detail>'),
    want: { type: "InvalidLogin", message: "Login failure" },
  },
  {
    name: "given NotAuthenticated with object and privilegeId, returns type NotAuthenticated",
    body: fault(
      "The session is not authenticated.",
      '<detail><NotAuthenticatedFault xmlns="urn:vim25" xsi:type="NotAuthenticated"><object type="PerformanceManager">PerfMgr</object>' +
        "<privilegeId>System.View</privilegeId></NotAuthenticatedFault></detail>",
    ),
    want: { type: "NotAuthenticated", message: "The session is not authenticated." },
  },
  {
    name: "given QueryOptions' InvalidName, returns the setting's name as detail",
    body: fault(
      "",
      '<detail><InvalidNameFault xmlns="urn:vim25" xsi:type="InvalidName"><name>config.vpxd.stats.maxQueryMetrics</name></InvalidNameFault></detail>',
    ),
    want: { type: "InvalidName", detail: "config.vpxd.stats.maxQueryMetrics", message: "" },
  },
  {
    name: "given RestrictedByAdministrator over maxQueryMetrics, returns its details",
    body: fault(
      "Operation is restricted by the administrator - &apos;vpxd.stats.maxQueryMetrics&apos;.",
      '<detail><RestrictedByAdministratorFault xmlns="urn:vim25" xsi:type="RestrictedByAdministrator">' +
        "<details>vpxd.stats.maxQueryMetrics</details></RestrictedByAdministratorFault></detail>",
    ),
    want: {
      type: "RestrictedByAdministrator",
      detail: "vpxd.stats.maxQueryMetrics",
      message: "Operation is restricted by the administrator - 'vpxd.stats.maxQueryMetrics'.",
    },
  },
  {
    name: "given InvalidArgument querySpec.size, returns the invalid property",
    body: fault(
      "A specified parameter was not correct: querySpec.size",
      '<detail><InvalidArgumentFault xmlns="urn:vim25" xsi:type="InvalidArgument"><invalidProperty>querySpec.size</invalidProperty></InvalidArgumentFault></detail>',
    ),
    want: { type: "InvalidArgument", detail: "querySpec.size", message: "A specified parameter was not correct: querySpec.size" },
  },
  {
    name: "given a ManagedObjectNotFound whose obj text carries an encoded newline (vcsim), returns its type",
    body: fault(
      "The object has already been deleted or has not been completely created",
      '<detail><ManagedObjectNotFoundFault xmlns="urn:vim25" xsi:type="ManagedObjectNotFound"><obj type="ContainerView">&#xA;session[x]y</obj></ManagedObjectNotFoundFault></detail>',
    ),
    want: { type: "ManagedObjectNotFound", message: "The object has already been deleted or has not been completely created" },
  },
  {
    name: "given a detail without xsi:type, takes the type from the element name",
    body: fault("x", '<detail><SystemErrorFault xmlns="urn:vim25"><reason>disk full</reason></SystemErrorFault></detail>'),
    want: { type: "SystemError", message: "x" },
  },
  {
    name: "given a fault without detail (a request vcsim could not unmarshal), returns no type",
    body: fault("cannot unmarshal", ""),
    want: { message: "cannot unmarshal" },
  },
  {
    name: "given a fault whose details is free text, leaves the detail out (a name only, never a value)",
    body: fault(
      "",
      '<detail><RestrictedByAdministratorFault xmlns="urn:vim25" xsi:type="RestrictedByAdministrator"><details>password is hunter2</details></RestrictedByAdministratorFault></detail>',
    ),
    want: { type: "RestrictedByAdministrator", message: "" },
  },
];

describe("parseSoapReply", () => {
  for (const c of faultCases) {
    it(c.name, () => {
      expect(parseSoapReply(c.body)).to.deep.equal({ ok: false, fault: c.want });
    });
  }

  it("given vcsim's RetrievePropertiesEx answer, returns the returnval with xsi:type under any prefix and the MoRef type apart", () => {
    const body =
      `${ENV_OPEN}<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval><objects><obj type="VirtualMachine">vm-48</obj>` +
      '<propSet><name>runtime.host</name><val xmlns:XMLSchema-instance="http://www.w3.org/2001/XMLSchema-instance" ' +
      'XMLSchema-instance:type="ManagedObjectReference" type="HostSystem">host-21</val></propSet></objects></returnval>' +
      `</RetrievePropertiesExResponse>${ENV_CLOSE}`;
    const reply = parseSoapReply(body);
    if (!reply.ok) throw new Error("expected a result");
    const val = child(child(child(reply.returnval[0]!, "objects")!, "propSet")!, "val")!;
    expect([xsiType(val), val.attrs["type"], val.text]).to.deep.equal(["ManagedObjectReference", "HostSystem", "host-21"]);
  });

  it("given a void method's answer (Logout), returns no returnval", () => {
    expect(parseSoapReply(`${ENV_OPEN}<LogoutResponse xmlns="urn:vim25"></LogoutResponse>${ENV_CLOSE}`)).to.deep.equal({
      ok: true,
      returnval: [],
    });
  });

  const bad: Array<{ name: string; body: string }> = [
    { name: "an HTML error page", body: "<html><body>502 Bad Gateway</body>" },
    { name: "an empty body", body: "" },
    { name: "an envelope without Body", body: '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"/>' },
    { name: "JSON", body: '{"_typeName":"InvalidLogin"}' },
  ];
  for (const b of bad) {
    it(`given ${b.name}, throws SoapParseError`, () => {
      expect(() => parseSoapReply(b.body)).to.throw(SoapParseError);
    });
  }
});

describe("buildSoapRequest", () => {
  it("given Login credentials with XML specials, escapes them inside the method element, after _this", () => {
    const xml = buildSoapRequest("Login", { type: "SessionManager", value: "SessionManager" }, [
      ["userName", "a<b>@vsphere.local"],
      ["password", `p&"'`],
      ["locale", undefined],
    ]);
    expect(xml).to.include(
      '<Login xmlns="urn:vim25"><_this type="SessionManager">SessionManager</_this><userName>a&lt;b&gt;@vsphere.local</userName>' +
        "<password>p&amp;&quot;&apos;</password></Login>",
    );
    expect(xml).to.not.include("locale");
  });

  it("given arrays, MoRefs, typed objects and an anyType scalar, writes repeated elements, type attributes and xsi:type", () => {
    const xml = buildSoapRequest("UpdateOptions", { type: "OptionManager", value: "VpxSettings" }, [
      ["type", ["HostSystem", "VirtualMachine"]],
      ["container", { moRef: { type: "Folder", value: "group-d1" } }],
      [
        "changedValue",
        {
          xsiType: "OptionValue",
          fields: [
            ["key", "k"],
            ["value", { xsiType: "xsd:int", text: "2" }],
          ],
        },
      ],
      ["recursive", true],
    ]);
    expect(xml).to.include(
      '<type>HostSystem</type><type>VirtualMachine</type><container type="Folder">group-d1</container>' +
        '<changedValue xsi:type="OptionValue"><key>k</key><value xsi:type="xsd:int">2</value></changedValue><recursive>true</recursive>',
    );
    // Round trip: the envelope is well-formed SOAP.
    expect(() =>
      parseSoapReply(xml.replace("<UpdateOptions ", "<UpdateOptionsResponse ").replace("</UpdateOptions>", "</UpdateOptionsResponse>")),
    ).to.not.throw();
  });
});

describe("sessionCookie", () => {
  const cases: Array<{ name: string; header: string | undefined; want: string | undefined }> = [
    {
      name: "given vCenter's quoted cookie, keeps the quotes",
      header: 'vmware_soap_session="52ab3c"; Path=/; HttpOnly; Secure;',
      want: '"52ab3c"',
    },
    { name: "given vcsim's bare cookie, returns it", header: "vmware_soap_session=31d40ee6-a38b; Path=/; HttpOnly", want: "31d40ee6-a38b" },
    {
      name: "given several Set-Cookie lines, picks the session one",
      header: 'other=1; Path=/\nvmware_soap_session="x1"; Path=/',
      want: '"x1"',
    },
    { name: "given a look-alike cookie name, returns nothing", header: "my_vmware_soap_session=zz; Path=/", want: undefined },
    { name: "given no header, returns nothing", header: undefined, want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(sessionCookie(c.header)).to.equal(c.want));
});
