import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certificateNotAfterMs } from "../../src/server/certificate-not-after.js";

describe("certificateNotAfterMs", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-notafter-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function selfSigned(name: string, days: number): Buffer {
    execFileSync(
      "/usr/bin/openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, `${name}.key`),
        "-out",
        join(dir, `${name}.crt`),
        "-days",
        String(days),
        "-subj",
        `/CN=${name}`,
      ],
      { stdio: "ignore" },
    );
    return readFileSync(join(dir, `${name}.crt`));
  }

  it("given a certificate valid N days, returns a notAfter N days after its notBefore", () => {
    const pem = selfSigned("ten", 10);
    const text = execFileSync("/usr/bin/openssl", ["x509", "-noout", "-startdate", "-enddate"], { input: pem }).toString();
    const notBefore = Date.parse(/notBefore=(.*)/.exec(text)![1]!);
    const notAfter = Date.parse(/notAfter=(.*)/.exec(text)![1]!);
    expect(notAfter - notBefore).to.equal(10 * 86_400_000);
    expect(certificateNotAfterMs(pem)).to.equal(notAfter);
  });

  it("given a chain, returns the leaf's (first) notAfter", () => {
    const leaf = selfSigned("leaf", 3);
    const other = selfSigned("other", 300);
    expect(certificateNotAfterMs(Buffer.concat([leaf, other]))).to.equal(certificateNotAfterMs(leaf));
    expect(certificateNotAfterMs(leaf)).to.be.below(certificateNotAfterMs(other)!);
  });

  it("given garbage, returns undefined instead of throwing", () => {
    expect(certificateNotAfterMs("not a certificate")).to.equal(undefined);
  });
});
