import { expect } from "chai";
import { OverlayMap } from "../../src/model/overlay-map.js";

const base = new Map([
  ["a", 1],
  ["b", 2],
  ["c", 3],
]);
const plain = (m: ReadonlyMap<string, number>) => ({
  size: m.size,
  entries: [...m],
  keys: [...m.keys()],
  values: [...m.values()],
  each: (() => {
    const seen: Array<[string, number]> = [];
    m.forEach((v, k) => seen.push([k, v]));
    return seen;
  })(),
});

describe("OverlayMap", () => {
  const cases: Array<{ name: string; changes: Array<[string, number | undefined]>; want: Array<[string, number]> }> = [
    {
      name: "no change",
      changes: [],
      want: [
        ["a", 1],
        ["b", 2],
        ["c", 3],
      ],
    },
    {
      name: "a changed value, in place",
      changes: [["b", 20]],
      want: [
        ["a", 1],
        ["b", 20],
        ["c", 3],
      ],
    },
    {
      name: "a deleted key",
      changes: [["a", undefined]],
      want: [
        ["b", 2],
        ["c", 3],
      ],
    },
    {
      name: "an added key, at the end",
      changes: [["d", 4]],
      want: [
        ["a", 1],
        ["b", 2],
        ["c", 3],
        ["d", 4],
      ],
    },
    {
      name: "a deleted key that the base lacks",
      changes: [["x", undefined]],
      want: [
        ["a", 1],
        ["b", 2],
        ["c", 3],
      ],
    },
    {
      name: "all at once",
      changes: [
        ["d", 4],
        ["a", undefined],
        ["c", 30],
      ],
      want: [
        ["b", 2],
        ["c", 30],
        ["d", 4],
      ],
    },
  ];
  for (const c of cases) {
    it(`given ${c.name}, answers size, lookups and every iteration as the applied copy does`, () => {
      const overlay = new OverlayMap(base, new Map(c.changes));
      const want = new Map(c.want);
      expect(plain(overlay)).to.deep.equal(plain(want));
      for (const k of ["a", "b", "c", "d", "x"]) {
        expect(overlay.get(k), k).to.equal(want.get(k));
        expect(overlay.has(k), k).to.equal(want.has(k));
      }
    });
  }

  it("given patches in a row, never stacks overlays and flattens past maxChanges, with the same content as a copy", () => {
    let patched: ReadonlyMap<string, number> = base;
    const copy = new Map(base);
    const kinds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const key = `k${i}`;
      patched = OverlayMap.patched(
        patched,
        new Map([
          [key, i],
          ["a", undefined],
        ]),
        4,
      );
      copy.set(key, i);
      copy.delete("a");
      kinds.push(patched instanceof OverlayMap ? "overlay" : "flat");
      expect(new Map(patched)).to.deep.equal(copy);
      expect(patched.size).to.equal(copy.size);
    }
    // changes carried: 2, 3, 4, then 5 > 4 -> one flat copy, then 1 + 1 again
    expect(kinds).to.deep.equal(["overlay", "overlay", "overlay", "flat", "overlay", "overlay"]);
  });

  it("leaves the maps it was built from untouched", () => {
    const changes = new Map<string, number | undefined>([["a", undefined]]);
    const before = OverlayMap.patched(base, changes, 1);
    OverlayMap.patched(before, new Map([["b", 9]]), 10);
    expect([...base]).to.deep.equal([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    expect([...before]).to.deep.equal([
      ["b", 2],
      ["c", 3],
    ]);
  });

  describe("differingKeys", () => {
    const plain = new Map([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    const cases: Array<{ name: string; a: ReadonlyMap<string, number>; b: ReadonlyMap<string, number>; want: string[] | undefined }> = [
      { name: "the same plain map: none", a: plain, b: plain, want: [] },
      { name: "an overlay and its base: the keys it changes", a: plain, b: new OverlayMap(plain, new Map([["b", 9]])), want: ["b"] },
      {
        name: "two overlays on one base: the keys whose values differ, not those overlaid alike",
        a: new OverlayMap(
          plain,
          new Map<string, number | undefined>([
            ["a", 7],
            ["c", undefined],
          ]),
        ),
        b: new OverlayMap(new OverlayMap(plain, new Map([["a", 7]])), new Map([["d", 4]])),
        want: ["c", "d"],
      },
      { name: "two plain maps: undefined (only a full comparison can tell)", a: plain, b: new Map(plain), want: undefined },
    ];
    for (const c of cases) it(`given ${c.name}`, () => expect(OverlayMap.differingKeys(c.a, c.b)?.sort()).to.deep.equal(c.want));
  });
});
