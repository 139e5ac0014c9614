// Which release of a server `bench server` installs and starts (Neo4j and OrientDB, from Maven Central): the
// version string, the directory each release has under the family's cache directory, and the releases installed.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../core/errors.js';
import { serverDir } from './state.js';

// Numbers with dots, as Maven Central names these releases (5.26.30, 2025.10.1), with an optional qualifier
// (3.1.0-beta1). Nothing else: the string becomes a directory name and part of Maven coordinates.
const VERSION = /^(\d+(?:\.\d+){1,3})(?:-([0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*))?$/;

export function parseVersion(text) {
  const match = VERSION.exec(String(text ?? ''));
  if (!match) {
    throw usageError(`malformed version "${text}": expected numbers with dots, as 5.26.30 or 2025.10.1, with an optional qualifier (3.1.0-beta1)`);
  }
  return { text: match[0], numbers: match[1].split('.').map(Number), qualifier: match[2] ?? null };
}

// Orders releases as Maven does for these plain versions: by their numbers, a missing one counting as 0, and a
// qualified release (3.1.0-beta1) before the release itself.
export function compareVersions(a, b) {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  for (let i = 0; i < Math.max(x.numbers.length, y.numbers.length); i += 1) {
    const difference = (x.numbers[i] ?? 0) - (y.numbers[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (x.qualifier === y.qualifier) return 0;
  if (x.qualifier === null) return 1;
  if (y.qualifier === null) return -1;
  return x.qualifier < y.qualifier ? -1 : 1;
}

// The release asked for with --version, else `fallback` (the family's default): checked to be well formed and
// one the family can run. Null for a family whose version is its package's.
export function releaseOf(server, version, fallback = server.defaultVersion) {
  if (!server.defaultVersion) {
    if (version !== undefined) {
      throw usageError(`--version does not apply to ${server.name}: its version is the one its package installs (--version: neo4j, orientdb, ferretdb)`);
    }
    return null;
  }
  const release = parseVersion(version ?? fallback).text;
  server.checkVersion(release);
  return release;
}

// A release's own directory: <cache>/servers/<family>/<version>.
export function versionDir(cacheDir, family, release) {
  return path.join(serverDir(cacheDir, family), release);
}

// Where a release is, or goes when it is installed. The harness once installed its one release straight into
// the family's directory; a release found there is used where it is, so that an existing install and its data
// stay as they are.
export function releaseDir(server, cacheDir, release) {
  const familyDir = serverDir(cacheDir, server.family);
  if (release === null || server.installedIn(familyDir).includes(release)) return familyDir;
  return versionDir(cacheDir, server.family, release);
}

// The installed releases, oldest first: [{ release, dir, isDefault }].
export function installedReleases(server, cacheDir) {
  const familyDir = serverDir(cacheDir, server.family);
  const found = new Map(server.installedIn(familyDir).map((release) => [release, familyDir]));
  const entries = existsSync(familyDir) ? readdirSync(familyDir, { withFileTypes: true }) : [];
  for (const entry of entries.filter((candidate) => candidate.isDirectory() && VERSION.test(candidate.name))) {
    const dir = path.join(familyDir, entry.name);
    if (!found.has(entry.name) && server.installedIn(dir).includes(entry.name)) found.set(entry.name, dir);
  }
  return [...found.entries()].sort(([a], [b]) => compareVersions(a, b))
    .map(([release, dir]) => ({ release, dir, isDefault: release === server.defaultVersion }));
}
