import { expect } from "chai";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { buildAdminApp } from "../../src/server/admin-app.js";
import { renderUiPage } from "../../src/server/ui/ui-page.js";

describe("GET /ui on the admin port", () => {
  it("serves one self-contained HTML page: no external asset, a strict CSP, the poll interval as refresh", async () => {
    const app = buildAdminApp({ registry: new Registry(), debugHosts: () => ({}), uiPage: () => renderUiPage({ refreshSeconds: 20 }) });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ui`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.match(/^text\/html/);
      expect(res.headers.get("content-security-policy")).to.contain("default-src 'none'").and.contain("connect-src 'self'");
      const html = await res.text();
      expect(html).to.contain("const REFRESH_MS = 20000;");
      // Nothing loaded from elsewhere: no src= or href= pointing at a scheme other than data:.
      expect(html.match(/(?:src|href)=["'](?!data:)[a-z]+:/gi) ?? []).to.deep.equal([]);
      for (const path of ["/debug/hosts", "/debug/oversell", "/debug/advice", "/debug/explain"]) expect(html).to.contain(path);
    } finally {
      server.close();
    }
  });

  it("without a page configured, /ui is the admin port's 404", async () => {
    const app = buildAdminApp({ registry: new Registry(), debugHosts: () => ({}) });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ui`);
      expect(res.status).to.equal(404);
    } finally {
      server.close();
    }
  });
});
