import { expect } from "chai";
import { existsSync } from "node:fs";
import { parseConfig } from "../../src/config/index.js";
import { DEMO_PENDING_POD_REF } from "../../src/demo-help.js";
import { explainTableOf } from "../../src/explain-table.js";
import type { ExplainReply } from "../../src/protocol/explain-wire.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";

/**
 * Issue 12 section 4: `GET /ui` in a real browser (Debian's chromium driven by puppeteer-core),
 * against the demo (bundled mock vCenter, fake Kubernetes API). CI sets HVX_BROWSER_REQUIRED,
 * so a missing browser fails there instead of skipping. HVX_UI_SCREENSHOT=path saves the page.
 */
const CHROMIUM = process.env["HVX_CHROMIUM"] ?? "/usr/bin/chromium";

type HostsView = { hosts: Array<{ id: string; name: string; heat: string; vms: Array<{ name: string }> }> };

describe("the /ui page in chromium (demo, end to end)", function () {
  this.timeout(90_000);
  let hvx: RunningHvx;
  let browser: import("puppeteer-core").Browser | undefined;
  let admin = "";

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      if (process.env["HVX_BROWSER_REQUIRED"]) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium`);
      this.skip();
    }
    const config = parseConfig(
      [
        `server: { port: ${await freePort()}, adminPort: ${await freePort()} }`,
        "vcenter: { pollIntervalSeconds: 2 }",
        "admission: { enabled: false }",
      ].join("\n"),
    );
    hvx = await startHvx(config, silentLogger(), { inCluster: false, podNamespace: "hvx-system" });
    admin = `http://127.0.0.1:${hvx.adminPort}`;
    await until(
      async () =>
        ((await (await fetch(`${admin}/debug/hosts`)).json()) as { polledAt: string | null }).polledAt !== null ? true : undefined,
      30_000,
      "first poll",
    );
    const puppeteer = await import("puppeteer-core");
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
  });

  after(async () => {
    await browser?.close();
    await hvx?.stop();
  });

  it("loads without console errors and shows one tile per demo host with its heat", async () => {
    const page = await browser!.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(`${admin}/ui`, { waitUntil: "networkidle0" });
    await page.waitForSelector("body[data-loaded=true]");
    const expected = (await (await fetch(`${admin}/debug/hosts`)).json()) as HostsView;
    const tiles = await page.$$eval(".tile", (els) =>
      els.map((e) => ({ name: e.getAttribute("data-host"), heat: e.getAttribute("data-heat"), vms: e.querySelectorAll(".vm").length })),
    );
    expect(tiles.map((t) => t.name).sort()).to.deep.equal(expected.hosts.map((h) => h.name).sort());
    for (const h of expected.hosts) expect(tiles.find((t) => t.name === h.name)).to.deep.include({ heat: h.heat, vms: h.vms.length });
    // The demo scenario has hot, warm and cool hosts.
    expect(new Set(tiles.map((t) => t.heat))).to.include.members(["hot", "warm", "cool"]);
    expect(await page.$eval("#totals", (e) => e.textContent)).to.match(/^Requests scaled from .* hosts above the stacked cap\.$/);
    // A click shows the host's reasons.
    const hot = expected.hosts.find((h) => h.heat === "hot")!;
    await page.click(`.tile[data-host="${hot.name}"]`);
    const reasons = await page.$$eval("#reasons li", (els) => els.map((e) => e.textContent ?? ""));
    expect(reasons.some((r) => r.includes(`ESXi host ${hot.name}`))).to.equal(true, reasons.join("\n"));
    const shot = process.env["HVX_UI_SCREENSHOT"];
    if (shot) {
      // The advice needs a few polls of history; the picture is better with it (not asserted here).
      await page.waitForSelector(".finding", { timeout: 15_000 }).catch(() => undefined);
      await page.click(`.tile[data-host="${hot.name}"]`);
      await page.screenshot({ path: shot, fullPage: true });
    }
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it("given a hot host's nodes as ExtenderArgs, the explain form shows the CLI's table: one row per node, worst first, and its summary", async function () {
    const expected = (await (await fetch(`${admin}/debug/hosts`)).json()) as HostsView;
    const hot = expected.hosts.find((h) => h.heat === "hot")!;
    const args = {
      Pod: {
        metadata: { name: "web-0", namespace: "shop", uid: "u-web-0" },
        spec: { containers: [{ name: "web", resources: { requests: { cpu: "100m" } } }] },
      },
      Nodes: null,
      NodeNames: [...hot.vms.map((v) => v.name), "k8s-worker-19"],
    };
    const probe = await fetch(`${admin}/debug/explain`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(args),
    });
    if (probe.status === 404) this.skip();
    const want = explainTableOf((await probe.json()) as ExplainReply);
    const page = await browser!.newPage();
    await page.goto(`${admin}/ui`, { waitUntil: "networkidle0" });
    await page.$eval("#explain-args", (e, v) => ((e as unknown as { value: string }).value = v), JSON.stringify(args));
    await page.click("#explain-form button");
    await page.waitForSelector("#explain-table");
    const cells = await page.$$eval("#explain-table tr", (rows) => rows.map((r) => [...r.children].map((c) => c.textContent ?? "")));
    // the sample's age moves on between the two answers: every other cell is the CLI's
    const sampled = want.header.indexOf("SAMPLED");
    const aged = (rows: ReadonlyArray<readonly string[]>) =>
      rows.map((r) => r.map((c, i) => (i === sampled ? c.replace(/^\d+s ago$/, "Ns ago") : c)));
    expect(aged(cells)).to.deep.equal(aged([[...want.header], ...want.rows]));
    expect(cells.slice(1).map((r) => r[1])).to.deep.equal([...hot.vms.map(() => hot.name), "esx-13"]);
    expect(await page.$eval("#explain-summary", (e) => e.textContent)).to.equal(want.summary);
    await page.close();
  });

  it("given the demo's pending pod from the placeholder, explains it as one row per node without stretching the page", async () => {
    const page = await browser!.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(`${admin}/ui`, { waitUntil: "networkidle0" });
    await page.waitForSelector("body[data-loaded=true]");
    const height = () => page.evaluate("document.documentElement.scrollHeight") as Promise<number>;
    const before = await height();
    const placeholder = await page.$eval("#explain-pod", (e) => e.getAttribute("placeholder") ?? "");
    expect(placeholder).to.include(DEMO_PENDING_POD_REF);
    await page.type("#explain-pod", DEMO_PENDING_POD_REF);
    await page.click("#explain-form button");
    await page.waitForSelector("#explain-table, #explain-out .error");
    const rows = await page.$$eval("#explain-table tr", (els) => els.length);
    const want = explainTableOf(
      (await (await fetch(`${admin}/debug/explain?pod=${encodeURIComponent(DEMO_PENDING_POD_REF)}`)).json()) as ExplainReply,
    );
    // a header and the demo's 19 nodes; the nested JSON tables this replaced added about 8000 px
    expect(rows).to.equal(1 + want.rows.length);
    expect(want.rows).to.have.length(19);
    expect((await height()) - before).to.be.below(1200);
    await page.close();
  });

  it("shows on each hot or warm tile, without hovering, why: cpu ready on esx-01, balloon on esx-02, swap-in on esx-03", async () => {
    const page = await browser!.newPage();
    await page.goto(`${admin}/ui`, { waitUntil: "networkidle0" });
    await page.waitForSelector("body[data-loaded=true]");
    const why = new Map(
      await page.$$eval(".tile", (els) =>
        els.map((e) => [e.getAttribute("data-host") ?? "", [...e.querySelectorAll(".why")].map((w) => w.textContent ?? "")] as const),
      ),
    );
    expect(why.get("esx-01")).to.have.length(1);
    expect(why.get("esx-01")![0]).to.match(/^cpu ready [\d.]+% >= 10%$/);
    expect(why.get("esx-02")![0]).to.match(/^balloon [\d.]+% >= 1%$/);
    expect(why.get("esx-03")!.some((w) => /^swap-in rate [\d.]+ KB\/s >= 1 KB\/s$/.test(w))).to.equal(true, why.get("esx-03")!.join("; "));
    expect(why.get("esx-04")![0]).to.match(/^cpu ready \d+% >= 5%$/);
    expect(why.get("esx-05")).to.deep.equal([]);
    await page.close();
  });
});
