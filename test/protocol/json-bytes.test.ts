import { expect } from "chai";
import { JsonBytes } from "../../src/protocol/json-bytes.js";

describe("JsonBytes", () => {
  it("given more text than expected, grows and keeps every byte written before", () => {
    const out = new JsonBytes(1);
    const parts = ["[", '"node-1"', ",", "x".repeat(300), "]"];
    for (const part of parts) out.ascii(part);
    expect(out.done().toString("latin1")).to.equal(parts.join(""));
  });

  it("given text beyond ASCII, writes it as UTF-8 (a character of up to 3 bytes, a surrogate pair of 4)", () => {
    const text = '"esx-\u00fc \u2028 \u{1f525}"';
    const bytes = new JsonBytes(2).ascii("{").utf8(text).ascii("}").done();
    expect(bytes.equals(Buffer.from(`{${text}}`, "utf8"))).to.equal(true);
  });

  it("given nothing, is empty", () => {
    expect(new JsonBytes(0).done().length).to.equal(0);
  });
});
