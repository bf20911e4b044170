import { readFileSync } from 'node:fs';

// What the server benchmarks share: a server's memory read from /proc, percentiles, a watcher that
// asks a URL one request after the other, and the verdict lines that set the exit code.

/** A process's resident memory now, in MiB, from Linux's /proc; NaN elsewhere. */
export function rssMiB(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** The p-th percentile (0 to 1) of some durations, by the nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? Number.NaN;
}

/** Asks `url` one request after the other, and reads the process's memory, until `stop` is called: the durations and the highest memory seen. */
export function watch(url: string, pid: number | undefined): { stop(): Promise<{ durations: number[]; maxRss: number }> } {
  const durations: number[] = [];
  let maxRss = rssMiB(pid);
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      durations.push(performance.now() - started);
      maxRss = Math.max(maxRss, rssMiB(pid));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { durations, maxRss };
    },
  };
}

/** Verdict lines: each figure beside its budget, and whether all were within. */
export class Verdicts {
  within = true;

  /** Prints one figure against its budget; notes when it is over. */
  judge(label: string, figure: number, unit: string, budget: number): void {
    const ok = figure <= budget;
    this.within &&= ok;
    console.log(
      `${label.padEnd(62)}${`${figure.toFixed(unit === 's' ? 1 : 0)} ${unit}`.padStart(10)}   budget ${`${budget} ${unit}`.padEnd(10)} ${ok ? 'within' : 'OVER BUDGET'}`,
    );
  }

  /** Prints a figure that has no budget. */
  show(label: string, figure: string): void {
    console.log(`${label.padEnd(62)}${figure.padStart(10)}`);
  }
}
