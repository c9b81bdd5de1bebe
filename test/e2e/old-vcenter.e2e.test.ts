import { expect } from "chai";
import { existsSync } from "node:fs";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { parseConfig } from "../../src/config/index.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { freePort } from "../fixtures/net.js";

/**
 * Issue 27 §1 through the real wiring: hvx against a vCenter 7.0.3 (the mock with
 * `viJsonReleases: [7.0.3.0]`), which has no VI/JSON. `vcenter.api: auto` polls it over SOAP;
 * `vijson` fails, and then /debug/hosts (the /ui status line), /debug/advice and /debug/explain
 * say the source is down and what to set, never "nothing found" or a node-mapping error.
 */
describe("hvx against a vCenter 7.0.3 (end to end, in-process)", function () {
  this.timeout(60_000);
  const scenario = { ...loadScenario(demoScenarioPath()), viJsonReleases: ["7.0.3.0"] };
  let vcenter: MockVcenterHandle;
  let hvx: RunningHvx | undefined;

  before(async () => {
    vcenter = await startMockVcenter({ scenario });
  });
  after(async () => {
    await vcenter?.close();
  });
  afterEach(async () => {
    await hvx?.stop();
    hvx = undefined;
  });

  async function start(api: string): Promise<(path: string, init?: RequestInit) => Promise<Record<string, unknown>>> {
    const { username, password } = scenario.credentials;
    const config = parseConfig(
      [
        `server: { port: ${await freePort()}, adminPort: ${await freePort()}, address: 127.0.0.1 }`,
        `vcenter: { url: "${vcenter.url}", username: "${username}", password: "${password}", api: ${api}, pollIntervalSeconds: 1, allowPlaintext: true }`,
        "kubernetes: { enabled: false }",
        "nodeLabels: { enabled: false }",
      ].join("\n"),
    );
    hvx = await startHvx(config, silentLogger(), { inCluster: false, podNamespace: "hvx" });
    const port = hvx.adminPort;
    return async (path, init) => (await (await fetch(`http://127.0.0.1:${port}${path}`, init)).json()) as Record<string, unknown>;
  }

  async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 100; i++) {
      const v = await read();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("timed out");
  }

  it("given vcenter.api auto, polls it over SOAP: /debug/hosts lists the 13 demo hosts with esx-01 hot", async () => {
    const get = await start("auto");
    const hosts = await until(async () => {
      const h = await get("/debug/hosts");
      return h["polledAt"] ? h : undefined;
    });
    const list = hosts["hosts"] as Array<{ name: string; heat: string }>;
    expect(list).to.have.length(13);
    expect(list.find((h) => h.name === "esx-01")?.heat).to.equal("hot");
    expect(hosts["sourceDown"]).to.equal(null);
  });

  it("given vcenter.api vijson, /debug/hosts, /debug/advice and /debug/explain say the source is down, naming 7.0.3.0 and vcenter.api", async () => {
    const get = await start("vijson");
    const hosts = await until(async () => {
      const h = await get("/debug/hosts");
      return h["sourceDown"] && String(h["sourceDown"]).includes("failed attempt") ? h : undefined;
    });
    const down = String(hosts["sourceDown"]);
    expect(down).to.include("7.0.3.0").and.include("vcenter.api: soap").and.include("404");
    const advice = await get("/debug/advice");
    expect(String(advice["sourceDown"])).to.include("7.0.3.0");
    expect(advice["findings"]).to.be.an("array");
    const explain = await get("/debug/explain", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ Pod: { metadata: { name: "p", namespace: "ns" } }, Nodes: null, NodeNames: ["k8s-worker-01"] }),
    });
    expect(String(explain["sourceDown"])).to.include("7.0.3.0");
    expect(JSON.stringify(explain["nodes"])).to.not.include("no vSphere VM matches");
    await checkUiPage(hvx!.adminPort);
  });
});

const CHROMIUM = process.env["HVX_CHROMIUM"] ?? "/usr/bin/chromium";

/** /ui in chromium (when there is one, as in test/e2e/ui-page.e2e.test.ts): its status line and advice say the source is down. */
async function checkUiPage(adminPort: number): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    if (process.env["HVX_BROWSER_REQUIRED"]) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium`);
    return;
  }
  const puppeteer = await import("puppeteer-core");
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${adminPort}/ui`, { waitUntil: "networkidle0" });
    await page.waitForFunction('document.getElementById("status").textContent !== "loading"', { timeout: 20_000 });
    const status = await page.$eval("#status", (e) => e.textContent ?? "");
    expect(status).to.include("no vSphere data").and.include("7.0.3.0").and.not.include("polled never");
    expect(await page.$eval("#advice", (e) => e.textContent ?? "")).to.include("No advice: hvx has no vSphere data");
  } finally {
    await browser.close();
  }
}
