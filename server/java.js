// Which Java runs a release of a Java server: the lowest installed JDK that the release needs (Neo4j 5 runs on
// 17, the 2025.x line needs 21 or newer), unless --java-home or BENCH_JAVA_HOME names one. The JDKs looked at
// are those under /usr/lib/jvm, where Debian and the Temurin packages put them, and the one `java` on PATH
// belongs to; each is known by the JAVA_VERSION of its `release` file.
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../core/errors.js';

export const JVM_ROOT = '/usr/lib/jvm';

// "17.0.15" -> 17, "1.8.0_402" -> 8 (Java 8 and older were 1.x), "25" -> 25; null for anything else.
export function javaMajor(text) {
  const match = /^(\d+)(?:\.(\d+))?/.exec(String(text ?? ''));
  if (!match) return null;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

// { home, major } of the JDK in `home`, its major version null when its `release` file does not say; null when
// `home` has no bin/java.
export function jdkAt(home) {
  if (!existsSync(path.join(home, 'bin', 'java'))) return null;
  let major = null;
  try {
    major = javaMajor(/^JAVA_VERSION="([^"]+)"/m.exec(readFileSync(path.join(home, 'release'), 'utf8'))?.[1]);
  } catch {
    // No release file: the version stays unknown.
  }
  return { home, major };
}

// The JDKs found, each once (/usr/lib/jvm holds aliases of one JDK as symbolic links), lowest version first.
export function installedJdks({ root = JVM_ROOT, pathEnv = process.env.PATH ?? '' } = {}) {
  const homes = existsSync(root) ? readdirSync(root).map((name) => path.join(root, name)) : [];
  for (const dir of pathEnv.split(path.delimiter).filter(Boolean)) {
    const java = path.join(dir, 'java');
    // bin/java of a JDK, whatever chain of links (Debian's alternatives) leads to it.
    if (existsSync(java)) homes.push(path.dirname(path.dirname(realpathSync(java))));
  }
  const byRealPath = new Map();
  for (const home of homes) {
    const jdk = jdkAt(home);
    const real = jdk && realpathSync(home);
    if (jdk && jdk.major !== null && !byRealPath.has(real)) byRealPath.set(real, { home: real, major: jdk.major });
  }
  return [...byRealPath.values()].sort((a, b) => a.major - b.major || a.home.localeCompare(b.home));
}

// The JDK to run `who` (as "Neo4j 2025.10.1") with, which needs Java `needs` or newer. `override` (--java-home or
// BENCH_JAVA_HOME) is taken as it is, unless its release file says it is too old.
export function chooseJava({ needs, who, override, root = JVM_ROOT, pathEnv } = {}) {
  if (override) {
    const jdk = jdkAt(override);
    if (!jdk) throw usageError(`${override} (--java-home or BENCH_JAVA_HOME) holds no bin/java`);
    if (jdk.major !== null && jdk.major < needs) {
      throw usageError(`${who} needs Java ${needs} or newer; ${override} (--java-home or BENCH_JAVA_HOME) is Java ${jdk.major}`);
    }
    return jdk;
  }
  const jdks = installedJdks({ root, pathEnv });
  const fitting = jdks.find((jdk) => jdk.major >= needs);
  if (fitting) return fitting;
  const found = jdks.length > 0 ? jdks.map((jdk) => `Java ${jdk.major} (${jdk.home})`).join(', ') : `none in ${root} or on PATH`;
  throw usageError(`${who} needs Java ${needs} or newer; found: ${found}. Install a JDK of ${needs} or later, or name one with --java-home or BENCH_JAVA_HOME`);
}
