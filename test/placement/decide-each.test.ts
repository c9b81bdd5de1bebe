import { expect } from "chai";
import fc from "fast-check";
import { decideEach } from "../../src/placement/decide-each.js";

describe("decideEach", () => {
  // Decisions are shared objects, as kept decisions are: one per key.
  const pool = new Map<string, { key: string }>();
  const decision = (key: string) => pool.get(key) ?? pool.set(key, { key }).get(key)!;

  it("given earlier decisions that are all the very same objects, hands the earlier array back", () => {
    const earlier = decideEach(["a", "b"], decision);
    expect(decideEach(["a", "b"], decision, earlier)).to.equal(earlier);
  });

  it("given one different decision, answers a new array and leaves the earlier one as it was", () => {
    const earlier = decideEach(["a", "b", "c"], decision);
    const now = decideEach(["a", "x", "c"], decision, earlier);
    expect(now).to.not.equal(earlier);
    expect(now).to.deep.equal([decision("a"), decision("x"), decision("c")]);
    expect(earlier).to.deep.equal([decision("a"), decision("b"), decision("c")]);
    expect(decideEach(["a", "b"], decision, earlier)).to.deep.equal([decision("a"), decision("b")]);
  });

  it("given any nodes and earlier decisions, decides each node once, in order, as map would", () => {
    const keys = fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 8 });
    fc.assert(
      fc.property(keys, fc.option(keys, { nil: undefined }), (nodes, before) => {
        const earlier = before === undefined ? undefined : decideEach(before, decision);
        const asked: string[] = [];
        const out = decideEach(nodes, (n) => (asked.push(n), decision(n)), earlier);
        expect(asked).to.deep.equal(nodes);
        expect(out).to.deep.equal(nodes.map(decision));
        if (earlier !== undefined) expect(earlier).to.deep.equal(before!.map(decision));
      }),
      { numRuns: 300 },
    );
  });
});
