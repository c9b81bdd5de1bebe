import { expect } from "chai";
import { DEFAULT_EXPLAIN_URL, explainUrlFromEnv } from "../../src/config/explain-url.js";
import { parseConfig } from "../../src/config/index.js";

describe("explainUrlFromEnv", () => {
  const cases = [
    { name: "HVX_URL set", env: { HVX_URL: "http://hvx-admin.hvx:9090" }, want: "http://hvx-admin.hvx:9090" },
    { name: "HVX_URL unset", env: {}, want: DEFAULT_EXPLAIN_URL },
    { name: "HVX_URL blank", env: { HVX_URL: "  " }, want: DEFAULT_EXPLAIN_URL },
  ];
  for (const c of cases) it(`given ${c.name}, returns ${c.want}`, () => expect(explainUrlFromEnv(c.env)).to.equal(c.want));
  it("defaults to the default admin port (server.adminPort) on localhost", () =>
    expect(DEFAULT_EXPLAIN_URL).to.equal(`http://localhost:${parseConfig(undefined).server.adminPort}`));
});
