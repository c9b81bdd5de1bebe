import { expect } from "chai";
import { offersRelease, parseReleaseList } from "../../src/vsphere/vcenter-release-list.js";
import { SoapParseError } from "../../src/vsphere/soap-envelope.js";

const list = (current: string, prior: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" ?>\n<namespaces version="1.0">\n <namespace>\n  <name>urn:vim25</name>\n  <version>${current}</version>\n` +
  `  <priorVersions>\n${prior.map((v) => `   <version>${v}</version>\n`).join("")}  </priorVersions>\n </namespace>\n` +
  " <namespace>\n  <name>urn:vim2</name>\n  <version>2.0</version>\n </namespace>\n</namespaces>\n";

describe("parseReleaseList / offersRelease", () => {
  const cases: Array<{ name: string; xml: string; release: string; want: boolean }> = [
    {
      name: "given vcsim's list (6.5, 6.0, 5.5), does not offer VI/JSON 8.0.1.0",
      xml: list("6.5", ["6.0", "5.5"]),
      release: "8.0.1.0",
      want: false,
    },
    {
      name: "given a vCenter 7.0.3's list, does not offer 8.0.1.0",
      xml: list("7.0.3.0", ["7.0.2.0", "6.7"]),
      release: "8.0.1.0",
      want: false,
    },
    { name: "given a vCenter 8.0.1's list, offers 8.0.1.0", xml: list("8.0.1.0", ["8.0.0.0", "7.0.3.0"]), release: "8.0.1.0", want: true },
    {
      name: "given a vCenter 8.0.2's list, offers 8.0.1.0 among its prior releases",
      xml: list("8.0.2.0", ["8.0.1.0"]),
      release: "8.0.1.0",
      want: true,
    },
  ];
  for (const c of cases) it(c.name, () => expect(offersRelease(parseReleaseList(c.xml), c.release)).to.equal(c.want));

  it("given a list of another namespace only, throws SoapParseError", () => {
    expect(() => parseReleaseList("<namespaces><namespace><name>urn:vim2</name><version>2.0</version></namespace></namespaces>")).to.throw(
      SoapParseError,
    );
  });

  it("given a 2015 vCenter 5.5 list (CRLF, a comment, urn:vim2), reads vim25 5.5 and its prior versions", () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8" ?>\r\n<!--\r\n Copyright 2008-2012 VMware, Inc. All rights reserved.\r\n-->\r\n' +
      list("5.5", ["5.1", "5.0"]).replace(/^<\?xml[^>]*>\n/, "");
    expect(parseReleaseList(xml)).to.deep.equal({ current: "5.5", prior: ["5.1", "5.0"] });
  });
});
