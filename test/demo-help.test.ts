import { readFileSync } from "node:fs";
import { expect } from "chai";
import { DEFAULT_DEMO_PORTS, demoCommandLines, demoHelp } from "../src/demo-help.js";
import { parseConfig } from "../src/config/index.js";

const README = new URL("../../README.md", import.meta.url);
const MARKER = "<!-- demo-commands";

/** The ```sh block right after the marker comment in README.md. */
function readmeDemoBlock(): string[] {
  const text = readFileSync(README, "utf8");
  const at = text.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no "${MARKER}" comment before the demo's commands`);
  const block = /```sh\n([\s\S]*?)\n```/.exec(text.slice(at));
  if (!block) throw new Error("no ```sh block after the demo-commands marker");
  return block[1]!.split("\n");
}

describe("demo commands", () => {
  it("given the default ports, the README's demo block is exactly what npm start prints", () => {
    expect(readmeDemoBlock()).to.deep.equal(demoCommandLines(DEFAULT_DEMO_PORTS, "examples"));
  });

  it("the default demo ports are the configuration's defaults", () => {
    const c = parseConfig(undefined);
    expect(DEFAULT_DEMO_PORTS).to.deep.equal({
      extender: `http://localhost:${c.server.port}`,
      admin: `http://localhost:${c.server.adminPort}`,
      admission: `http://localhost:${c.admission.port}`,
    });
  });

  it("npm start prints every command indented, with the ports it listens on", () => {
    const ports = { extender: "http://localhost:18888", admin: "http://localhost:19090", admission: "http://localhost:18443" };
    const printed = demoHelp("http://127.0.0.1:40000", ports, "examples")
      .split("\n")
      .filter((l) => l.startsWith("  "));
    expect(printed).to.deep.equal(demoCommandLines(ports, "examples").map((l) => `  ${l}`));
    expect(printed.join("\n")).to.not.include(":8888").and.to.not.include(":9090/");
  });

  it("given no webhook, leaves /mutate out", () => {
    const lines = demoCommandLines({ extender: "http://localhost:8888", admin: "http://localhost:9090" }, "examples");
    expect(lines.some((l) => l.includes("/mutate"))).to.equal(false);
    expect(lines.some((l) => l.includes("/filter"))).to.equal(true);
  });
});
