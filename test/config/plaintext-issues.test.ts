import { expect } from "chai";
import { extenderAddress, parseConfig, plaintextIssues, plaintextUses } from "../../src/config/index.js";

const VC = "vcenter: { url: https://vc.example.com }\n";
const TLS = "  tls: { certFile: /c, keyFile: /k, clientCAFile: /ca, allowedClientNames: [hvx-scheduler] }\n";

/** Issue 28: plain HTTP off this machine only when the operator says so. */
describe("plaintextIssues", () => {
  const cases: Array<{ name: string; yaml: string; want: RegExp[] }> = [
    {
      name: "given plain HTTP on every interface, returns server.allowPlaintext naming the address",
      yaml: VC,
      want: [
        /^server\.allowPlaintext: the extender serves plain HTTP on every interface \(server\.address\).*or set server\.allowPlaintext: true$/,
      ],
    },
    {
      name: "given plain HTTP on a pod address, returns server.allowPlaintext",
      yaml: VC + "server: { address: 10.0.0.5 }\n",
      want: [/on 10\.0\.0\.5/],
    },
    { name: "given plain HTTP on 127.0.0.1, returns nothing", yaml: VC + "server: { address: 127.0.0.1 }\n", want: [] },
    { name: "given plain HTTP on ::1, returns nothing", yaml: VC + "server: { address: '::1' }\n", want: [] },
    { name: "given server.allowPlaintext: true, returns nothing", yaml: VC + "server: { allowPlaintext: true }\n", want: [] },
    { name: "given server.tls, returns nothing", yaml: VC + "server:\n" + TLS, want: [] },
    { name: "given the demo (no vcenter.url), returns nothing: it binds 127.0.0.1", yaml: "", want: [] },
    {
      name: "given an http:// vCenter, returns vcenter.allowPlaintext",
      yaml: "vcenter: { url: http://vc.example.com }\nserver: { address: 127.0.0.1 }\n",
      want: [/^vcenter\.allowPlaintext: vcenter\.url is http:\/\/: the vCenter password travels in clear/],
    },
    {
      name: "given an http:// vCenter with vcenter.allowPlaintext: true, returns nothing",
      yaml: "vcenter: { url: http://vc.example.com, allowPlaintext: true }\nserver: { address: 127.0.0.1 }\n",
      want: [],
    },
    {
      name: "given a second http:// vCenter among several, returns its entry's key",
      yaml: "vcenters: [{ name: a, url: https://a.example.com }, { name: b, url: http://b.example.com }]\nserver: { address: 127.0.0.1 }\n",
      want: [/^vcenters\.1\.allowPlaintext: /],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = plaintextIssues(parseConfig(c.yaml));
      expect(got).to.have.length(c.want.length);
      c.want.forEach((re, i) => expect(got[i]).to.match(re));
    });

  it("given allowPlaintext: true on both, lists both uses as allowed (start-up warns about each)", () => {
    const c = parseConfig("vcenter: { url: http://vc.example.com, allowPlaintext: true }\nserver: { allowPlaintext: true }\n");
    expect(plaintextUses(c).map((u) => [u.key, u.allowed])).to.deep.equal([
      ["server.allowPlaintext", true],
      ["vcenter.allowPlaintext", true],
    ]);
  });
});

describe("extenderAddress", () => {
  it("given the demo without server.address, returns 127.0.0.1", () => expect(extenderAddress(parseConfig(""))).to.equal("127.0.0.1"));
  it("given a vCenter without server.address, returns undefined (every interface)", () =>
    expect(extenderAddress(parseConfig(VC))).to.equal(undefined));
  it("given server.address, returns it", () => expect(extenderAddress(parseConfig("server: { address: 0.0.0.0 }\n"))).to.equal("0.0.0.0"));
});

describe("server.tls.allowedClientNames", () => {
  it("given clientCAFile without allowedClientNames, refuses naming the key", () =>
    expect(() => parseConfig("server:\n  tls: { certFile: /c, keyFile: /k, clientCAFile: /ca }\n")).to.throw(
      /server\.tls\.allowedClientNames: is required with clientCAFile/,
    ));
  it("given allowedClientNames without clientCAFile, refuses naming the key", () =>
    expect(() => parseConfig("server:\n  tls: { certFile: /c, keyFile: /k, allowedClientNames: [a] }\n")).to.throw(
      /server\.tls\.allowedClientNames: needs clientCAFile/,
    ));
  it("given an empty list, refuses", () =>
    expect(() => parseConfig("server:\n  tls: { certFile: /c, keyFile: /k, clientCAFile: /ca, allowedClientNames: [] }\n")).to.throw(
      /server\.tls\.allowedClientNames/,
    ));
  it("given both, keeps the names", () =>
    expect(parseConfig("server:\n" + TLS).server.tls?.allowedClientNames).to.deep.equal(["hvx-scheduler"]));
});
