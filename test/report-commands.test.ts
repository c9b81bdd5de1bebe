import { expect } from "chai";
import { UsageError } from "../src/cli-args.js";
import { runReportCommand } from "../src/report-commands.js";

const LEDGER = {
  namespaces: [],
  hosts: [],
  totals: {
    namespacesScaled: 0,
    podsScaled: 0,
    original: { cpuMilli: 0, memoryBytes: 0 },
    scaled: { cpuMilli: 0, memoryBytes: 0 },
    hostsAboveCap: 0,
  },
};

async function run(argv: string[], answer: unknown): Promise<{ urls: string[]; out: string }> {
  const urls: string[] = [];
  let out = "";
  await runReportCommand(
    argv,
    (t) => (out += t),
    async (url) => {
      urls.push(url);
      return answer;
    },
  );
  return { urls, out };
}

describe("runReportCommand", () => {
  it("given report oversell without --url, reads http://localhost:9090/debug/oversell", async () => {
    const { urls, out } = await run(["report", "oversell"], LEDGER);
    expect(urls).to.deep.equal(["http://localhost:9090/debug/oversell"]);
    expect(out).to.contain("requests scaled from 0.0 to 0.0 cores");
  });
  it("given --json, prints the answer as JSON", async () => {
    const { out } = await run(["report", "oversell", "--url", "http://hvx:19090", "--json"], LEDGER);
    expect(JSON.parse(out)).to.deep.equal(LEDGER);
  });
  it("given advise --url, reads /debug/advice there", async () => {
    const { urls, out } = await run(["advise", "--url=http://hvx:19090/"], { findings: [] });
    expect(urls).to.deep.equal(["http://hvx:19090/debug/advice"]);
    expect(out).to.contain("no advice");
  });
  it("given advice from an hvx without vSphere data, says the source is down and why, not 'nothing found'", async () => {
    const { out } = await run(["advise"], {
      findings: [],
      sourceDown: "the vcenter source is down (no successful poll yet, 2 failed attempts): 404",
    });
    expect(out).to.contain("no vSphere data").and.contain("source is down").and.contain("404");
    expect(out).to.not.contain("nothing found");
  });
  const bad: Array<{ name: string; argv: string[]; answer: unknown; error: RegExp }> = [
    { name: "an unknown report", argv: ["report", "pods"], answer: LEDGER, error: /knows only 'oversell'/ },
    { name: "a URL that is not one", argv: ["advise", "--url", "localhost:9090"], answer: {}, error: /not a URL|must be http/ },
    { name: "an answer that is not a ledger", argv: ["report", "oversell"], answer: { hello: 1 }, error: /did not answer with a ledger/ },
    { name: "an answer without findings", argv: ["advise"], answer: [], error: /did not answer with findings/ },
    { name: "an unknown flag", argv: ["advise", "--fast"], answer: {}, error: /unknown option --fast/ },
  ];
  for (const c of bad) {
    it(`given ${c.name}, fails with a clear error`, async () => {
      let caught: unknown;
      try {
        await run(c.argv, c.answer);
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(Error);
      expect((caught as Error).message).to.match(c.error);
      if (c.name !== "an answer that is not a ledger" && c.name !== "an answer without findings")
        expect(caught).to.be.instanceOf(UsageError);
    });
  }
});
