import { expect } from "chai";
import { AutomationClient } from "../../src/vsphere/automation-client.js";
import { VcenterAuthError } from "../../src/vsphere/vcenter-auth-error.js";
import { VcenterHttpError } from "../../src/vsphere/vcenter-http-error.js";
import type { VcenterRequest, VcenterResponse, VcenterSend } from "../../src/vsphere/vcenter-http.js";
import { VcenterResponseError } from "../../src/vsphere/vcenter-response-error.js";

type Reply = { status: number; body?: unknown; raw?: string };
const reply = (r: Reply): VcenterResponse => ({
  status: r.status,
  header: () => undefined,
  bodyText: r.raw ?? (r.body === undefined ? "" : JSON.stringify(r.body)),
});
const vapiError = (type: string) => ({ error_type: type, messages: [{ args: [], default_message: type, id: `x.${type}` }] });

/** A scripted vCenter: `route(request)` answers each call; logins return tokens t1, t2, ... */
function fake(route: (req: VcenterRequest, token: string | undefined) => Reply) {
  const calls: VcenterRequest[] = [];
  let logins = 0;
  const send: VcenterSend = async (_api, req) => {
    calls.push(req);
    if (req.method === "POST" && req.path === "/api/session") {
      logins += 1;
      return reply({ status: 201, body: `t${logins}` });
    }
    return reply(route(req, req.headers?.["vmware-api-session-id"]));
  };
  const client = new AutomationClient({ send, username: "u", password: "p" });
  return { client, calls, logins: () => logins };
}

describe("AutomationClient", () => {
  it("given a login, sends Basic auth once and then the session header", async () => {
    const f = fake(() => ({ status: 200, body: [{ cluster: "domain-c8", name: "prod-a", ha_enabled: true }] }));
    expect(await f.client.listClusters()).to.deep.equal([{ cluster: "domain-c8", name: "prod-a" }]);
    await f.client.listClusters();
    expect(f.calls[0]?.headers?.["Authorization"]).to.equal(`Basic ${Buffer.from("u:p").toString("base64")}`);
    expect(f.calls[1]?.headers?.["vmware-api-session-id"]).to.equal("t1");
    expect(f.logins()).to.equal(1);
  });

  it("given an expired session (401 UNAUTHENTICATED), logs in again once and retries", async () => {
    const f = fake((_req, token) => (token === "t1" ? { status: 401, body: vapiError("UNAUTHENTICATED") } : { status: 200, body: [] }));
    expect(await f.client.listHosts()).to.deep.equal([]);
    expect(f.logins()).to.equal(2);
  });

  const errors: Array<{ name: string; reply: Reply; want: string }> = [
    {
      name: "UNABLE_TO_ALLOCATE_RESOURCE as 500",
      reply: { status: 500, body: vapiError("UNABLE_TO_ALLOCATE_RESOURCE") },
      want: "UNABLE_TO_ALLOCATE_RESOURCE",
    },
    {
      name: "UNABLE_TO_ALLOCATE_RESOURCE as 400",
      reply: { status: 400, body: vapiError("UNABLE_TO_ALLOCATE_RESOURCE") },
      want: "UNABLE_TO_ALLOCATE_RESOURCE",
    },
    { name: "SERVICE_UNAVAILABLE", reply: { status: 503, body: vapiError("SERVICE_UNAVAILABLE") }, want: "SERVICE_UNAVAILABLE" },
  ];
  for (const c of errors) {
    it(`given ${c.name}, throws VcenterHttpError keyed on error_type`, async () => {
      const f = fake(() => c.reply);
      const err = await f.client.listVmsOnHost("host-1").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(VcenterHttpError);
      expect((err as VcenterHttpError).errorType).to.equal(c.want);
      expect(f.logins()).to.equal(1);
    });
  }

  it("given a VM list, filters by host and keeps memory_size_MiB", async () => {
    const f = fake(() => ({
      status: 200,
      body: [
        { vm: "vm-1", name: "w1", power_state: "POWERED_ON", cpu_count: 4, memory_size_MiB: 16384 },
        { vm: "vm-2", name: "w2", power_state: "POWERED_OFF" },
      ],
    }));
    const vms = await f.client.listVmsOnHost("host-9");
    expect(f.calls[1]?.query).to.deep.equal({ hosts: ["host-9"] });
    expect(vms[0]).to.deep.equal({ vm: "vm-1", name: "w1", power_state: "POWERED_ON", cpu_count: 4, memory_size_MiB: 16384 });
    expect(vms[1]?.cpu_count).to.equal(undefined);
  });

  const uuids: Array<{ name: string; reply: Reply; want: string | undefined }> = [
    {
      name: "an upper-case BIOS UUID, returns it in lower case",
      reply: { status: 200, body: { identity: { name: "w", bios_uuid: "4226ABCD-0000-1111-2222-333344445555" } } },
      want: "4226abcd-0000-1111-2222-333344445555",
    },
    { name: "no identity block, returns undefined", reply: { status: 200, body: { name: "w" } }, want: undefined },
    { name: "NOT_FOUND, returns undefined", reply: { status: 404, body: vapiError("NOT_FOUND") }, want: undefined },
  ];
  for (const c of uuids) {
    it(`given ${c.name}`, async () => {
      const f = fake(() => c.reply);
      expect(await f.client.getVmBiosUuid("vm-7")).to.equal(c.want);
      expect(f.calls[1]?.path).to.equal("/api/vcenter/vm/vm-7");
    });
  }

  it("given a garbage body, throws a response error without the body", async () => {
    const f = fake(() => ({ status: 200, raw: '[{"host":"host-1","na' }));
    const err = await f.client.listHosts().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterResponseError);
    expect((err as Error).message).to.not.include("host-1");
  });

  it("given refused credentials, throws an auth error without them", async () => {
    const send: VcenterSend = async () => reply({ status: 401, body: vapiError("UNAUTHENTICATED") });
    const client = new AutomationClient({ send, username: "admin", password: "hunter2-secret" });
    const err = await client.listClusters().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterAuthError);
    expect((err as Error).message).to.not.include("hunter2-secret");
  });
});
