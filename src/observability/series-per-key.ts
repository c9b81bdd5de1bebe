import { gaugeHeader, labelsText } from "./exposition-text.js";

interface Kept {
  readonly values: readonly string[];
  readonly line: string;
  /** The last render that put this key. */
  seen: number;
}

/** Puts one series: its key (a node) and its label values in `labelNames`' order. */
export type PutSeries = (key: string, values: readonly string[]) => void;

/**
 * The exposition text of a gauge family with one series per key (a node), each set to 1, kept
 * between renders: a line is written again only for a key whose label values changed, and the
 * family's text only when a line changed or a key came or went.
 */
export class SeriesPerKey {
  private readonly header: string;
  private readonly kept = new Map<string, Kept>();
  private renders = 0;
  private text: string;

  constructor(
    private readonly name: string,
    help: string,
    private readonly labelNames: readonly string[],
  ) {
    this.header = gaugeHeader(name, help);
    this.text = this.header;
  }

  /** The family's text with the series `fill` puts (each key once), and no other. */
  render(fill: (put: PutSeries) => void): string {
    const render = ++this.renders;
    let changed = false;
    let put = 0;
    fill((key, values) => {
      put++;
      const known = this.kept.get(key);
      if (known && sameValues(known.values, values)) {
        known.seen = render;
        return;
      }
      this.kept.set(key, { values, line: this.lineOf(values), seen: render });
      changed = true;
    });
    if (put !== this.kept.size) {
      for (const [key, { seen }] of this.kept) if (seen !== render) this.kept.delete(key);
      changed = true;
    }
    if (changed) {
      const lines = [this.header];
      for (const { line } of this.kept.values()) lines.push(line);
      this.text = lines.join("");
    }
    return this.text;
  }

  private lineOf(values: readonly string[]): string {
    return `${this.name}${labelsText(this.labelNames.map((n, i) => [n, values[i] ?? ""] as const))} 1\n`;
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
