import { expect } from "chai";
import { readVcenterCredentialFiles } from "../../src/config/vcenter-credential-files.js";

describe("readVcenterCredentialFiles", () => {
  const cases: Array<{ name: string; env: Record<string, string>; want: object }> = [
    {
      name: "both _FILE variables",
      env: { HVX_VCENTER_USERNAME_FILE: "/s/u", HVX_VCENTER_PASSWORD_FILE: "/s/p" },
      want: { username: "/s/u", password: "/s/p" },
    },
    // the plain variable wins over the file, as in parseConfig: that file is not the source, so it is not watched
    { name: "a plain password next to its file", env: { HVX_VCENTER_PASSWORD: "x", HVX_VCENTER_PASSWORD_FILE: "/s/p" }, want: {} },
    { name: "an empty plain variable", env: { HVX_VCENTER_PASSWORD: "", HVX_VCENTER_PASSWORD_FILE: "/s/p" }, want: { password: "/s/p" } },
    { name: "nothing", env: {}, want: {} },
  ];
  for (const c of cases) {
    it(`given ${c.name}, returns ${JSON.stringify(c.want)}`, () => {
      expect(readVcenterCredentialFiles(c.env)).to.deep.equal(c.want);
    });
  }
});
