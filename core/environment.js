// Facts about the machine and the harness that make a result reproducible and comparable.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// The CPU quota of this process's cgroup (v2), in cores; null when there is none or it cannot be read.
function cgroupCpuLimit() {
  try {
    const [quota, period] = readFileSync('/sys/fs/cgroup/cpu.max', 'utf8').trim().split(' ');
    return quota === 'max' ? null : Math.round((Number(quota) / Number(period)) * 100) / 100;
  } catch {
    return null;
  }
}

export function environment() {
  const cpus = os.cpus();
  return {
    node: process.versions.node,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    hostname: os.hostname(),
    platform: os.platform(),
    kernel: os.release(),
    arch: os.arch(),
    // The cores this process may use (CPU affinity), which a container can set below `cores`.
    availableCores: os.availableParallelism(),
    cpuQuotaCores: cgroupCpuLimit(),
    // Other work on the machine when the invocation started: on a shared machine it explains slow runs.
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
    freeMemoryBytes: os.freemem(),
  };
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return null;
  }
}

export function harness() {
  const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url)));
  return { name, version, commit: gitCommit() };
}

// The installed version of an npm package, read from its package.json.
export function packageVersion(name) {
  if (!name) return null;
  try {
    return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url))).version;
  } catch {
    return null;
  }
}
