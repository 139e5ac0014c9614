// Tests that run code as the unprivileged user `nobody` (root reads and writes through any permission bits, so
// some refusals can only be seen as another user). nobody must reach the project's files: a clone under /root
// or in a `chmod 700` folder is out of its reach (MODULE_NOT_FOUND). projectForNobody() gives a root that
// nobody can read: the clone itself when it can, else a mirror of the clone in a fresh world-readable temporary
// folder (hard links where the file system allows, copies elsewhere), removed by dispose().
import { spawnSync } from 'node:child_process';
import {
  chmodSync, copyFileSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NOBODY = { uid: 65534, gid: 65534 };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// What nobody needs no part of: history, and what tools leave behind.
const SKIPPED = new Set(['.git', '.cache', 'bench-results', 'reports']);
const PROBE_MS = 30_000;

// Whether nobody can read each of `files` (and so traverse every folder above it), asked as nobody.
function readableByNobody(files) {
  const script = 'const fs = require("node:fs"); for (const file of process.argv.slice(1)) fs.accessSync(file, fs.constants.R_OK);';
  const probe = spawnSync(process.execPath, ['-e', script, ...files], { ...NOBODY, timeout: PROBE_MS, encoding: 'utf8' });
  if (probe.error) return { ok: false, reason: `node (${process.execPath}) cannot run as nobody: ${probe.error.message}` };
  return { ok: probe.status === 0, reason: probe.stderr.split('\n').find((line) => /Error/.test(line)) ?? `exit ${probe.status}` };
}

function needs(root) {
  return [path.join(root, 'bin', 'bench.js'), path.join(root, 'package.json'), realpathSync(path.join(root, 'node_modules'))];
}

// `from` copied into `to` for nobody to read: folders made afresh (0755), files hard-linked when others may
// read them already, else copied and made readable; links kept as they are (relative ones point into the copy).
function mirror(from, to) {
  mkdirSync(to);
  chmodSync(to, 0o755);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.stryker-tmp')) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) {
      const link = readlinkSync(source);
      // A link to a folder nobody cannot reach (node_modules of an unreadable clone) is copied instead.
      if (path.isAbsolute(link) && !readableByNobody([realpathSync(source)]).ok) mirror(realpathSync(source), target);
      else symlinkSync(link, target);
    } else if (entry.isDirectory()) {
      mirror(source, target);
    } else if (entry.isFile()) {
      const { mode } = lstatSync(source);
      try {
        if ((mode & 0o004) === 0) throw new Error('not readable by others');
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
        chmodSync(target, (mode & 0o777) | 0o444);
      }
    }
  }
}

// { root, dispose() } with the project's files under `root` readable by nobody, or { skip: reason }.
export function projectForNobody() {
  if (readableByNobody(needs(ROOT)).ok) return { root: ROOT, dispose() {} };
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-nobody-'));
  const dispose = () => rmSync(folder, { recursive: true, force: true });
  try {
    chmodSync(folder, 0o755);
    const root = path.join(folder, 'project');
    mirror(ROOT, root);
    const check = readableByNobody(needs(root));
    if (check.ok) return { root, dispose };
    dispose();
    return { skip: `nobody can reach neither ${ROOT} nor a copy in ${os.tmpdir()}: ${check.reason}` };
  } catch (error) {
    dispose();
    throw error;
  }
}
