import { expect } from "chai";
import { UsageError } from "../src/cli-args.js";
import { mockPorts, scenarioPathsOf } from "../src/mock-vcenter-args.js";

describe("scenarioPathsOf (hvx mock-vcenter --scenario, repeated)", () => {
  const cases: Array<{ argv: string[]; want: string[] }> = [
    { argv: [], want: [] },
    { argv: ["--port", "9000"], want: [] },
    { argv: ["--scenario", "a.yaml"], want: ["a.yaml"] },
    { argv: ["--scenario", "a.yaml", "--port", "9000", "--scenario=b.yaml"], want: ["a.yaml", "b.yaml"] },
  ];
  for (const c of cases)
    it(`given ${JSON.stringify(c.argv)}, returns ${JSON.stringify(c.want)}`, () => expect(scenarioPathsOf(c.argv)).to.deep.equal(c.want));
});

describe("mockPorts", () => {
  it("given port N and three mocks, returns N, N+1, N+2", () => expect(mockPorts(8989, 3)).to.deep.equal([8989, 8990, 8991]));
  it("given port 0, returns a free port for each", () => expect(mockPorts(0, 2)).to.deep.equal([0, 0]));
  it("given a port too high for the count, throws a usage error naming the range", () =>
    expect(() => mockPorts(65535, 2)).to.throw(UsageError, /65535\.\.65536/));
});
