// Facts about the machine and the harness that make a result reproducible and comparable.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function environment() {
  const cpus = os.cpus();
  return {
    node: process.versions.node,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    hostname: os.hostname(),
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
