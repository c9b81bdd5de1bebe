import { expect } from "chai";
import { COMMAND_USAGE, commandHelp } from "../src/command-usage.js";

describe("commandHelp", () => {
  const cases: Array<{ name: string; argv: string[]; want: string | undefined }> = [
    { name: "explain --help", argv: ["explain", "--help"], want: `Usage: ${COMMAND_USAGE.explain}\n` },
    { name: "advise -h after a flag", argv: ["advise", "--url", "http://x:9090", "-h"], want: `Usage: ${COMMAND_USAGE.advise}\n` },
    { name: "report oversell --help", argv: ["report", "oversell", "--help"], want: `Usage: ${COMMAND_USAGE.report}\n` },
    { name: "explain without --help", argv: ["explain", "shop/web-1"], want: undefined },
    { name: "an unknown command with --help (left to the parser's error)", argv: ["frobnicate", "--help"], want: undefined },
  ];
  for (const c of cases)
    it(`given ${c.name}, returns ${c.want === undefined ? "undefined" : "its usage"}`, () => expect(commandHelp(c.argv)).to.equal(c.want));
});
