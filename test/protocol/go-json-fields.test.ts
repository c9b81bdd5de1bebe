import { expect } from "chai";
import { goField, goFoldName } from "../../src/protocol/go-json-fields.js";

describe("goField (Go encoding/json key matching)", () => {
  it("given the exact Go field name, reads it", () => {
    expect(goField({ NodeNameToMetaVictims: 1 }, "NodeNameToMetaVictims")).to.equal(1);
  });

  it("given the key in another case, reads it as Go's decoder does", () => {
    for (const key of ["nodeNameToMetaVictims", "nodenametometavictims", "NODENAMETOMETAVICTIMS"]) {
      expect(goField({ [key]: 7 }, "NodeNameToMetaVictims"), key).to.equal(7);
    }
    expect(goField({ uid: "u" }, "UID")).to.equal("u");
  });

  it("given the runes Go folds onto ASCII (long s, Kelvin sign), matches them too", () => {
    expect(goField({ "Pod\u017f": [] }, "Pods")).to.deep.equal([]);
    expect(goFoldName("\u212aey")).to.equal("key");
  });

  it("given a different name or a similar non-ASCII key, reads nothing", () => {
    expect(goField({ nodeToVictims: 1 }, "NodeNameToVictims")).to.equal(undefined);
    expect(goField({ "P\u00f6d": 1 }, "Pod")).to.equal(undefined);
    expect(goField({ "Pod ": 1 }, "Pod")).to.equal(undefined);
  });

  it("given several keys that fold to the field, the last one in document order wins, as in Go", () => {
    expect(goField({ pod: 1, POD: 2 }, "Pod")).to.equal(2);
    expect(goField({ Pod: 1, pod: 2 }, "Pod")).to.equal(2);
  });

  it("never reads inherited properties", () => {
    expect(goField({}, "constructor")).to.equal(undefined);
    expect(goField(JSON.parse('{"__proto__": 5}') as Record<string, unknown>, "__proto__")).to.equal(5);
  });
});
