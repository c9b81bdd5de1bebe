import { Registry, type Metric, type PrometheusContentType, type RegistryContentType } from "prom-client";

/** A metric family hvx renders as exposition text itself: `# HELP`, `# TYPE` and its samples, each line ending in a newline. */
export interface TextFamily {
  readonly name: string;
  render(): string;
}

const EOF = "# EOF\n";

/**
 * A prom-client registry whose `metrics()` also writes families rendered as text elsewhere,
 * after prom-client's own: a family of thousands of series (one per Kubernetes node) can keep
 * its text between scrapes and rebuild only what changed, where prom-client builds a label
 * object and formats every series on every scrape. Those families are not in
 * `getSingleMetric` or `getMetricsAsJSON`, nor given `setDefaultLabels`' labels (hvx sets none);
 * a name is either prom-client's or a text family's.
 */
export class TextFamilyRegistry<T extends RegistryContentType = PrometheusContentType> extends Registry<T> {
  private readonly families: TextFamily[] = [];

  addTextFamily(family: TextFamily): void {
    if (this.getSingleMetric(family.name) || this.families.some((f) => f.name === family.name)) {
      throw new Error(`A metric with the name ${family.name} has already been registered.`);
    }
    this.families.push(family);
  }

  override registerMetric<L extends string>(metric: Metric<L>): void {
    // prom-client's metrics all have their name, though its types do not say so.
    const { name } = metric as unknown as { readonly name: string };
    if (this.families.some((f) => f.name === name)) throw new Error(`A metric with the name ${name} has already been registered.`);
    super.registerMetric(metric);
  }

  override clear(): void {
    super.clear();
    this.families.length = 0;
  }

  override async metrics(): Promise<string> {
    const own = await super.metrics();
    if (this.families.length === 0) return own;
    // Concatenated, not joined: V8 keeps the parts as they are until the reply is encoded, which
    // copies them once (a join copied the families' hundreds of KB once more per scrape).
    let texts = "";
    // OpenMetrics has no blank lines and ends in `# EOF`; the text format separates families with one.
    if ((this.contentType as RegistryContentType) === Registry.OPENMETRICS_CONTENT_TYPE && own.endsWith(EOF)) {
      for (const family of this.families) texts += family.render();
      return own.slice(0, -EOF.length) + texts + EOF;
    }
    for (const family of this.families) texts += `\n${family.render()}`;
    return own + texts;
  }
}
