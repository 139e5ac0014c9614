// Where a command writes, checked before any work: a bad --out then costs a second and exit code 2, not a
// dataset generated and imported for nothing.
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../core/errors.js';
import { makeDirectory } from '../core/paths.js';
import { systemReason } from './errors.js';

// Creating and removing a file of our own is the only sure test of writing: permissions alone miss read-only
// mounts, ACLs and /proc.
function probeWrite(dir) {
  const probe = path.join(dir, `.bench-write-probe-${process.pid}`);
  closeSync(openSync(probe, 'wx'));
  unlinkSync(probe);
}

// `dir` (made if missing) as an absolute path, or a usage error saying why it cannot hold the results;
// `label` names it in that error.
export function checkOutputDirectory(dir, label = `--out ${dir}`) {
  const resolved = path.resolve(dir);
  try {
    makeDirectory(resolved);
  } catch (error) {
    if (error.code === 'ENOTDIR') {
      throw usageError(`${label}${error.path === resolved ? '' : `: ${error.path}`} is a file, not a directory`);
    }
    throw usageError(`${label}: cannot create the directory: ${systemReason(error)}`);
  }
  try {
    probeWrite(resolved);
  } catch (error) {
    throw usageError(`${label}: cannot write in it: ${systemReason(error)}`);
  }
  return resolved;
}

// `file` as an absolute path, when it can be written: not a directory, in a writable directory (made if
// missing).
export function checkOutputFile(file) {
  const resolved = path.resolve(file);
  let stats = null;
  try {
    stats = statSync(resolved);
  } catch (error) {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw usageError(`--out ${file}: ${systemReason(error)}`);
  }
  if (stats?.isDirectory()) {
    throw usageError(`--out ${file} is a directory; name a file in it`);
  }
  checkOutputDirectory(path.dirname(resolved), `the directory of --out ${file}`);
  return resolved;
}
