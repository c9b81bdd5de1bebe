import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { GARBAGE_COLLECTOR_FLAGS } from "../../src/server/garbage-collector-flags.js";

/** The flag names `node --v8-options` lists, e.g. "allocation-site-pretenuring". */
function knownV8Flags(): Set<string> {
  const help = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
  return new Set([...help.matchAll(/^ {2}--([a-z0-9-]+) \(/gm)].map((m) => m[1] as string));
}

/** "--no-allocation-site-pretenuring" -> "allocation-site-pretenuring"; "--x=80" -> "x". */
function flagName(flag: string): string {
  return flag.replace(/^--(no-)?/, "").replace(/=.*$/, "");
}

describe("garbage collector flags", () => {
  it("given the running Node.js, its V8 knows every flag hvx serve sets (an unknown one would be ignored with a warning)", () => {
    const known = knownV8Flags();
    expect(known.size, "flags parsed from --v8-options").to.be.greaterThan(100);
    expect(known.has("no-such-flag-hvx")).to.equal(false);
    for (const flag of GARBAGE_COLLECTOR_FLAGS) expect(known.has(flagName(flag)), flag).to.equal(true);
  });
});
