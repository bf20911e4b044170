// Loaded with --import (NODE_OPTIONS) into each process the mail benchmark times: on exit it
// writes the process's processor time (user and system) and peak memory to BENCH_CPU_FILE, so
// that the benchmark can show them beside the wall clock, which a shared machine makes noisy.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ cpuMs: (userCPUTime + systemCPUTime) / 1000, maxRssKb: maxRSS }));
  });
}
