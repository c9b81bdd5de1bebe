import { expect } from "chai";
import { clientCertificateNames, isAllowedClient } from "../../src/server/client-names.js";

describe("clientCertificateNames", () => {
  const cases: Array<{ name: string; subjectaltname?: string; cn?: string | string[]; want: string[] }> = [
    {
      name: "given DNS, URI and IP entries and a CN, returns the DNS and URI names then the CN",
      subjectaltname: "DNS:hvx-scheduler, URI:spiffe://cluster.local/ns/hvx-system/sa/hvx-scheduler, IP Address:10.0.0.1",
      cn: "hvx-scheduler",
      want: ["hvx-scheduler", "spiffe://cluster.local/ns/hvx-system/sa/hvx-scheduler", "hvx-scheduler"],
    },
    { name: "given only a CN, returns it", cn: "kube-scheduler", want: ["kube-scheduler"] },
    { name: "given a repeated CN, returns each", cn: ["a", "b"], want: ["a", "b"] },
    // Node quotes an entry that holds a comma, so that it cannot pose as two entries.
    {
      name: "given a quoted DNS entry with a comma, returns it whole",
      subjectaltname: 'DNS:"evil, DNS:hvx-scheduler"',
      want: ["evil, DNS:hvx-scheduler"],
    },
    { name: "given an email SAN only, returns nothing", subjectaltname: "email:a@example.com", want: [] },
  ];
  for (const c of cases)
    it(c.name, () => {
      const cert = {
        subject: (c.cn === undefined ? {} : { CN: c.cn }) as never,
        ...(c.subjectaltname ? { subjectaltname: c.subjectaltname } : {}),
      };
      expect(clientCertificateNames(cert as never)).to.deep.equal(c.want);
    });
});

describe("isAllowedClient", () => {
  const allowed = new Set(["hvx-scheduler"]);
  it("given a listed name, returns true", () => expect(isAllowedClient(["localhost", "hvx-scheduler"], allowed)).to.equal(true));
  it("given only unlisted names, returns false", () => expect(isAllowedClient(["hvx.hvx-system.svc", "hvx"], allowed)).to.equal(false));
  it("given a name that differs in case, returns false", () => expect(isAllowedClient(["HVX-Scheduler"], allowed)).to.equal(false));
  it("given no name, returns false", () => expect(isAllowedClient([], allowed)).to.equal(false));
});
