/** Prometheus-style counters, exposed at `/metrics`. */
export class Metrics {
  private readonly counters = new Map<string, Map<string, number>>();

  /** Adds `by` to the counter `name` with the given labels. */
  increment(name: string, labels: Record<string, string> = {}, by = 1): void {
    const series = this.counters.get(name) ?? new Map<string, number>();
    this.counters.set(name, series);
    const key = labelKey(labels);
    series.set(key, (series.get(key) ?? 0) + by);
  }

  /** Current value of one series (0 when never incremented). */
  value(name: string, labels: Record<string, string> = {}): number {
    const key = labelKey(labels);
    return this.counters.get(name)?.get(key) ?? 0;
  }

  /** The Prometheus text exposition (dots in names become underscores). */
  render(): string {
    const lines: string[] = [];
    for (const [name, series] of this.counters) {
      const metric = name.replace(/[^a-zA-Z0-9_:]/g, '_');
      lines.push(`# TYPE ${metric} counter`);
      for (const [labels, value] of series) lines.push(`${metric}${labels ? `{${labels}}` : ''} ${value}`);
    }
    return lines.join('\n') + '\n';
  }
}

function labelKey(labels: Record<string, string>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${String(labels[k]).replace(/["\\\n]/g, '_')}"`)
    .join(',');
}
