import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { listYamlFiles, MANIFESTS_DIR, PROJECT_ROOT, type Obj } from "./load-manifests.js";
import { objectKey, OVERLAYS, overlayWarnings, renderOverlay } from "./render-overlay.js";
import { parseConfig } from "../../src/config/index.js";
import { unknownSchedulerFields } from "./scheduler-config-fields.js";
import { unknownFields } from "./unknown-fields.js";
import { validateObject } from "./validate-object.js";

const rendered = new Map(OVERLAYS.map((name) => [name, renderOverlay(name)]));
const render = (name: (typeof OVERLAYS)[number]): Obj[] => rendered.get(name)!;
const find = (objs: Obj[], kind: string, name: string, namespace?: string): Obj => {
  const hits = objs.filter(
    (o) => o.kind === kind && o.metadata?.name === name && (namespace === undefined || o.metadata?.namespace === namespace),
  );
  expect(hits, `${kind} ${name}`).to.have.length(1);
  return hits[0]!;
};
const base = render("extender");
/** Objects of base/ an overlay changes on purpose (checked in its own tests below). */
// overlays/second-scheduler* mount the extender's certificate and close the extender port's
// open rule (second-scheduler-mtls.test.ts).
const PATCHED: Partial<Record<(typeof OVERLAYS)[number], string[]>> = {
  "extender-only": ["Deployment/hvx-system/hvx", "ConfigMap/hvx-system/hvx-config"],
  "second-scheduler": ["Deployment/hvx-system/hvx", "NetworkPolicy/hvx-system/hvx"],
  "second-scheduler-gen-certs": ["Deployment/hvx-system/hvx", "NetworkPolicy/hvx-system/hvx"],
};

describe("manifests/overlays (rendered with kubectl kustomize)", function () {
  this.timeout(30_000); // kubectl runs once per overlay
  it("given every directory under overlays/, kubectl kustomize renders it", () => {
    const dirs = readdirSync(join(MANIFESTS_DIR, "overlays"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(dirs).to.include.members([...OVERLAYS]);
    for (const dir of dirs) expect(renderOverlay(dir).length, dir).to.be.greaterThan(0);
  });

  it("given every directory under overlays/ and base/, kubectl kustomize renders it without a warning (no bases:, no patchesStrategicMerge:)", () => {
    const dirs = readdirSync(join(MANIFESTS_DIR, "overlays"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(dirs.map((dir) => [dir, overlayWarnings(dir)])).to.deep.equal(dirs.map((dir) => [dir, ""]));
  });

  for (const name of OVERLAYS) {
    it(`given overlays/${name}, every object is valid against its Kubernetes (or cert-manager) OpenAPI schema and unique`, async () => {
      const objs = render(name);
      const problems = (await Promise.all(objs.map(validateObject))).flat();
      expect(problems).to.deep.equal([]);
      const unknown = objs.flatMap((o) => (unknownFields(o) ?? []).map((path) => `${objectKey(o)}: ${path}`));
      expect(unknown, "fields the API types do not have").to.deep.equal([]);
      const builtIn = objs.filter((o) => !String(o.apiVersion).startsWith("cert-manager.io/"));
      expect(builtIn.filter((o) => unknownFields(o) === undefined).map(objectKey), "built-in kinds without a model").to.deep.equal([]);
      const keys = objs.map(objectKey);
      expect(new Set(keys).size, "no object twice").to.equal(keys.length);
    });

    it(`given overlays/${name}, it holds every hvx object of base/, unchanged but for the ones it patches`, () => {
      const objs = render(name);
      for (const obj of base.filter((o) => !(PATCHED[name] ?? []).includes(objectKey(o))))
        expect(
          objs.find((o) => objectKey(o) === objectKey(obj)),
          objectKey(obj),
        ).to.deep.equal(obj);
    });
  }

  it("given a Deployment whose replicas is not a number, the schema validation reports it (the check can fail)", async () => {
    const deployment = structuredClone(find(base, "Deployment", "hvx"));
    deployment.spec.replicas = "two";
    expect((await validateObject(deployment)).join("\n")).to.match(/replicas/);
    expect(await validateObject({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } })).to.have.length(1);
  });

  it("given a misspelt field anywhere in an object, the unknown-field check names its path (the check can fail)", () => {
    const deployment = structuredClone(find(base, "Deployment", "hvx"));
    deployment.spec.template.spec.containers[0].imagePullPolcy = "Always";
    deployment.spec.template.metadata.labelz = {};
    expect(unknownFields(deployment)).to.deep.equal([".spec.template.metadata.labelz", ".spec.template.spec.containers[0].imagePullPolcy"]);
  });

  it("given overlays/extender, it is hvx alone: no webhook configuration and no second scheduler", () => {
    expect(base.map((o) => o.kind)).to.not.include.members(["MutatingWebhookConfiguration"]);
    expect(base.some((o) => o.metadata?.name === "hvx-scheduler")).to.equal(false);
  });
});

describe("the documented `kubectl apply -k` commands", function () {
  this.timeout(30_000);
  /** Overlays owned elsewhere in the project that the docs may name (rendered above when present). */
  const ELSEWHERE = ["monitoring"];
  const cases = [{ doc: "manifests/README.md" }, { doc: "docs/install.md" }];
  for (const c of cases) {
    it(`given ${c.doc}, every overlay is documented and every documented overlay is one that renders`, () => {
      const text = readFileSync(join(PROJECT_ROOT, c.doc), "utf8");
      const named = new Set([...text.matchAll(/kubectl (?:apply|delete) -k manifests\/overlays\/([a-z-]+)/g)].map((m) => m[1]!));
      expect([...named]).to.include.members([...OVERLAYS]);
      const dirs = readdirSync(join(MANIFESTS_DIR, "overlays"));
      for (const name of named) {
        expect([...OVERLAYS, ...ELSEWHERE], `${c.doc} names overlays/${name}`).to.include(name);
        if (dirs.includes(name))
          expect((rendered.get(name as (typeof OVERLAYS)[number]) ?? renderOverlay(name)).length, name).to.be.greaterThan(0);
      }
    });
  }
});

describe("manifests/overlays/webhook and webhook-gen-certs", () => {
  it("given either overlay, the webhook configuration carries no caBundle field, so re-applying it keeps the injected CA", () => {
    for (const name of ["webhook", "webhook-gen-certs"] as const) {
      const mwc = find(render(name), "MutatingWebhookConfiguration", "hvx");
      for (const hook of mwc.webhooks as Obj[]) expect(hook.clientConfig, name).to.not.have.property("caBundle");
      expect(mwc.webhooks[0].namespaceSelector.matchLabels, name).to.deep.equal({ "hvx.io/oversell": "enabled" });
    }
  });

  it("given overlays/webhook, cert-manager injects the CA of the Certificate whose Secret hvx mounts and whose names are the Service's", () => {
    const objs = render("webhook");
    const mwc = find(objs, "MutatingWebhookConfiguration", "hvx");
    const [ns, certName] = String(mwc.metadata.annotations["cert-manager.io/inject-ca-from"]).split("/");
    const cert = find(objs, "Certificate", certName!, ns);
    const deployment = find(objs, "Deployment", "hvx");
    const volumes = deployment.spec.template.spec.volumes as Obj[];
    expect(volumes.map((v) => v.secret?.secretName)).to.include(cert.spec.secretName);
    const svc = mwc.webhooks[0].clientConfig.service;
    expect(cert.spec.dnsNames).to.include(`${svc.name}.${svc.namespace}.svc`);
  });

  it("given either overlay, a ValidatingAdmissionPolicy bound with Deny lets only named groups change hvx.io/ namespace labels", () => {
    for (const name of ["webhook", "webhook-gen-certs"] as const) {
      const objs = render(name);
      const policy = find(objs, "ValidatingAdmissionPolicy", "hvx-namespace-labels");
      expect(policy.apiVersion, name).to.equal("admissionregistration.k8s.io/v1");
      expect(policy.spec.failurePolicy, name).to.equal("Fail");
      expect(policy.spec.matchConstraints.resourceRules, name).to.deep.equal([
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["namespaces"] },
      ]);
      const variables = new Map((policy.spec.variables as Obj[]).map((v) => [v.name, String(v.expression)]));
      expect(variables.get("allowedGroups"), name).to.equal("['system:masters', 'hvx:namespace-labellers']");
      expect(variables.get("hvxLabelsUnchanged"), name).to.include("startsWith('hvx.io/')");
      expect(policy.spec.validations[0].expression, name).to.match(/^variables\.hvxLabelsUnchanged \|\| .*variables\.allowedGroups/);
      const binding = find(objs, "ValidatingAdmissionPolicyBinding", "hvx-namespace-labels");
      expect(binding.spec, name).to.deep.equal({ policyName: policy.metadata.name, validationActions: ["Deny"] });
    }
  });

  it("given overlays/webhook-gen-certs, no cert-manager object or annotation is in it", () => {
    const objs = render("webhook-gen-certs");
    expect(objs.filter((o) => String(o.apiVersion).startsWith("cert-manager.io/"))).to.deep.equal([]);
    expect(find(objs, "MutatingWebhookConfiguration", "hvx").metadata.annotations ?? {}).to.not.have.property(
      "cert-manager.io/inject-ca-from",
    );
  });
});

describe("manifests/overlays/second-scheduler", () => {
  const objs = render("second-scheduler");
  const deployment = find(objs, "Deployment", "hvx-scheduler");
  const pod: Obj = deployment.spec.template.spec;
  const container: Obj = pod.containers[0];
  const configMap = find(objs, "ConfigMap", pod.volumes.find((v: Obj) => v.configMap !== undefined).configMap.name);
  const config = parseYaml(configMap.data["config.yaml"]) as Obj;
  const sa = { kind: "ServiceAccount", name: pod.serviceAccountName, namespace: deployment.metadata.namespace };

  it("runs the upstream kube-scheduler image at a pinned version with the mounted configuration", () => {
    expect(container.image).to.match(/^registry\.k8s\.io\/kube-scheduler:v1\.\d+\.\d+$/);
    const mount = (container.volumeMounts as Obj[])[0]!;
    const flag = (container.command as string[]).find((a) => a.startsWith("--config="));
    expect(flag).to.equal(`--config=${mount.mountPath}/config.yaml`);
    find(objs, "ServiceAccount", sa.name, sa.namespace);
    expect(pod.schedulerName ?? "default-scheduler", "it is placed by the cluster's own scheduler").to.equal("default-scheduler");
  });

  it("configures one profile hvx-scheduler with hvx as an ignorable, node-cache-capable filter/prioritize/preempt extender", () => {
    expect(config.apiVersion).to.equal("kubescheduler.config.k8s.io/v1");
    expect(unknownSchedulerFields(config)).to.deep.equal([]);
    expect(config.profiles).to.deep.equal([{ schedulerName: "hvx-scheduler" }]);
    expect(config.extenders).to.have.length(1);
    const ext: Obj = config.extenders[0];
    expect(ext).to.include({
      filterVerb: "filter",
      prioritizeVerb: "prioritize",
      preemptVerb: "preempt",
      nodeCacheCapable: true,
      ignorable: true,
    });
    const url = new URL(ext.urlPrefix);
    const svc = find(objs, "Service", "hvx");
    expect(url.hostname).to.equal(`${svc.metadata.name}.${svc.metadata.namespace}.svc`);
    expect(Number(url.port)).to.equal((svc.spec.ports as Obj[]).find((p) => p.name === "extender")?.port);
  });

  it("given a misspelt or misplaced field, the v1 field check names it (the check can fail)", () => {
    const cases = [
      { name: "extender typo", edit: (c: Obj) => (c.extenders[0].nodeCacheCapabale = true), want: ".extenders[0].nodeCacheCapabale" },
      { name: "v1beta1-only top-level field", edit: (c: Obj) => (c.healthzBindAddress = "0.0.0.0:10251"), want: ".healthzBindAddress" },
      {
        name: "leader election typo",
        edit: (c: Obj) => (c.leaderElection.resourceNamepsace = "x"),
        want: ".leaderElection.resourceNamepsace",
      },
      {
        name: "profile plugin typo",
        edit: (c: Obj) => (c.profiles[0].plugins = { score: { enabeld: [] } }),
        want: ".profiles[0].plugins.score.enabeld",
      },
    ];
    for (const c of cases) {
      const copy = structuredClone(config);
      c.edit(copy);
      expect(unknownSchedulerFields(copy), c.name).to.deep.equal([c.want]);
    }
  });

  it("given the same extender settings as manifests/kube-scheduler-config.yaml (but mutual TLS), the two paths behave alike", () => {
    const merged = parseYaml(readFileSync(join(MANIFESTS_DIR, "kube-scheduler-config.yaml"), "utf8")) as Obj;
    const withoutTls = ({ urlPrefix, enableHTTPS: _https, tlsConfig: _tls, ...rest }: Obj) => ({
      ...rest,
      url: urlPrefix.replace(/^https?:/, ""),
    });
    expect(config.extenders.map(withoutTls)).to.deep.equal(merged.extenders.map(withoutTls));
  });

  it("elects its leader on its own Lease, which its Role may get and update", () => {
    const le: Obj = config.leaderElection;
    expect(le).to.include({ leaderElect: true, resourceLock: "leases", resourceNamespace: "hvx-system", resourceName: "hvx-scheduler" });
    const role = find(objs, "Role", "hvx-scheduler-lease", le.resourceNamespace);
    const rule = (role.rules as Obj[]).find((r) => (r.resources as string[]).includes("leases"))!;
    expect(rule.apiGroups).to.deep.equal(["coordination.k8s.io"]);
    expect(rule.resourceNames).to.deep.equal([le.resourceName]);
    expect(rule.verbs).to.include.members(["get", "update"]);
    const binding = find(objs, "RoleBinding", "hvx-scheduler-lease", le.resourceNamespace);
    expect(binding.roleRef).to.include({ kind: "Role", name: role.metadata.name });
    expect(binding.subjects).to.deep.equal([sa]);
  });

  it("binds its ServiceAccount to system:kube-scheduler, system:volume-scheduler and extension-apiserver-authentication-reader", () => {
    const bound = objs
      .filter(
        (o) =>
          /^(Cluster)?RoleBinding$/.test(o.kind) && (o.subjects as Obj[]).some((s) => s.name === sa.name && s.namespace === sa.namespace),
      )
      .map((o) => `${o.kind}:${o.metadata.namespace ?? ""}:${o.roleRef.kind}/${o.roleRef.name}`);
    expect(bound).to.have.members([
      "ClusterRoleBinding::ClusterRole/system:kube-scheduler",
      "ClusterRoleBinding::ClusterRole/system:volume-scheduler",
      "RoleBinding:kube-system:Role/extension-apiserver-authentication-reader",
      "RoleBinding:hvx-system:Role/hvx-scheduler-lease",
    ]);
  });
});

describe("the hvx image name", () => {
  const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }).version;
  const image: string = find(base, "Deployment", "hvx").spec.template.spec.containers[0].image;

  it("is the Deployment's, tagged with package.json's version", () => {
    expect(image).to.match(new RegExp(`/hvx:${version.replace(/\./g, "\\.")}$`));
  });

  it("given manifests/, docs/ and the README, every registry reference to hvx names that same image", () => {
    const docsDir = join(PROJECT_ROOT, "docs");
    const files = [
      ...listYamlFiles(MANIFESTS_DIR),
      join(MANIFESTS_DIR, "README.md"),
      join(PROJECT_ROOT, "README.md"),
      ...readdirSync(docsDir)
        .filter((f) => f.endsWith(".md"))
        .map((f) => join(docsDir, f)),
    ];
    const others: string[] = [];
    for (const file of files) {
      // `<registry>/.../hvx:<tag>`; local builds (localhost/hvx:<version>) are the build script's, not a deployment's.
      for (const m of readFileSync(file, "utf8").matchAll(/\b[a-z0-9.-]+(?:\/[a-z0-9._-]+)*\/hvx:[\w.<>-]+/g)) {
        if (!m[0].startsWith("localhost/") && m[0] !== image) others.push(`${file.slice(PROJECT_ROOT.length)}: ${m[0]}`);
      }
    }
    expect(others).to.deep.equal([]);
  });
});

describe("manifests/overlays/extender-only", () => {
  const objs = render("extender-only");
  const deployment = find(objs, "Deployment", "hvx");
  const pod: Obj = deployment.spec.template.spec;
  const config = parseConfig(String(find(objs, "ConfigMap", "hvx-config").data["config.yaml"]), {});

  it("mounts no Secret nor ConfigMap it does not hold itself but the vCenter credentials, so no pod waits in ContainerCreating", () => {
    const held = new Set(objs.map(objectKey));
    const missing = (pod.volumes as Obj[])
      .flatMap((v) => [
        ...(v.secret ? [`Secret/hvx-system/${v.secret.secretName}`] : []),
        ...(v.configMap ? [`ConfigMap/hvx-system/${v.configMap.name}`] : []),
      ])
      .filter((key) => !held.has(key));
    expect(missing).to.deep.equal(["Secret/hvx-system/hvx-vcenter-credentials"]);
    const volumes = new Set((pod.volumes as Obj[]).map((v) => v.name));
    for (const c of pod.containers as Obj[]) for (const m of c.volumeMounts as Obj[]) expect(volumes.has(m.name), m.name).to.equal(true);
  });

  it("configures hvx without the webhook and with the system CAs, reading only files that are mounted", () => {
    expect(config.admission.enabled).to.equal(false);
    expect(config.vcenter.caFile).to.equal(undefined);
    expect(config.vcenter.url).to.be.a("string");
    expect(config.mode).to.equal("enforce");
    expect(objs.map((o) => o.kind)).to.not.include("MutatingWebhookConfiguration");
    const env = (pod.containers[0].env as Obj[]).filter((e) => String(e.value ?? "").startsWith("/etc/hvx/"));
    const mounts = (pod.containers[0].volumeMounts as Obj[]).map((m) => String(m.mountPath));
    for (const e of env)
      expect(
        mounts.some((m) => String(e.value).startsWith(`${m}/`)),
        e.name,
      ).to.equal(true);
  });

  it("given the base's Deployment, the check finds the webhook Secret and the CA ConfigMap missing (the check can fail)", () => {
    const held = new Set(objs.map(objectKey));
    const baseVolumes = find(base, "Deployment", "hvx").spec.template.spec.volumes as Obj[];
    const missing = baseVolumes.flatMap((v) => (v.secret ? [`Secret/hvx-system/${v.secret.secretName}`] : [])).filter((k) => !held.has(k));
    expect(missing).to.include("Secret/hvx-system/hvx-webhook-tls");
  });
});
