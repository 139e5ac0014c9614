// Installing a server from Debian's packages, which needs root.
import { spawn } from 'node:child_process';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { isRoot } from './process.js';

const LOCK_WAIT_S = 600;

function runVisible(program, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', process.stderr, process.stderr] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args.join(' ')} exited with ${code}`))));
  });
}

export async function aptInstall(name, packages, log) {
  // Another installer on the machine (a second CI job, unattended upgrades) may hold dpkg's lock for a while: wait
  // for it rather than fail.
  const wait = ['-o', `DPkg::Lock::Timeout=${LOCK_WAIT_S}`];
  const commands = [['apt-get', [...wait, 'update']], ['apt-get', [...wait, 'install', '-y', '--no-install-recommends', ...packages]]];
  if (!isRoot()) {
    const text = commands.map(([program, args]) => `${program} ${args.join(' ')}`).join('\n  ');
    throw new BenchError(ErrorCodes.USAGE, `${name} is not installed; as root, run:\n  ${text}`);
  }
  for (const [program, args] of commands) {
    log(`$ ${program} ${args.join(' ')}`);
    await runVisible(program, args);
  }
}
