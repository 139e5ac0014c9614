// Fetching server distributions from Maven Central with the machine's Maven. The dependency plugin is named
// with its version: Maven's default one is too old for these goals.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { run } from './process.js';

const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.6.1';
// Maven prints little with -q; a slow mirror is the only reason to wait this long.
const MAVEN_TIMEOUT_MS = 15 * 60_000;

// Maven's own account of a failure: its [ERROR] lines, without colour codes and the advice it prints after them.
function mavenErrors(output) {
  return output.replace(/\x1b\[[0-9;]*m/g, '').split('\n')
    .filter((line) => line.startsWith('[ERROR]'))
    .map((line) => line.replace(/^\[ERROR\]\s*/, '').replace(/\s*-> \[Help 1\]$/, ''))
    .filter((line) => line && !/^(To see the full stack|Re-run Maven|For more information|\[Help 1\])/.test(line))
    .join('\n');
}

// -U: a version once not found is asked for again (Maven would otherwise remember the failure for a day).
async function mvn(goal, cwd, coordinates) {
  const args = ['-B', '-q', '-U', ...goal];
  try {
    await run('mvn', args, { cwd, timeout: MAVEN_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    if (error.code === 'ENOENT') throw new BenchError(ErrorCodes.USAGE, `Maven (mvn) is not installed; it fetches ${coordinates} from Maven Central`);
    const said = mavenErrors(`${error.stdout ?? ''}\n${error.stderr ?? ''}`) || error.message;
    throw new BenchError(ErrorCodes.CONNECT, `cannot fetch ${coordinates} from Maven Central\ntried: mvn ${args.join(' ')}\n${said}`);
  }
}

// Copies an artifact's runtime dependencies (itself included) into `dir`.
export async function copyDependencies({ groupId, artifactId, version }, dir) {
  mkdirSync(dir, { recursive: true });
  const project = path.join(dir, '..', 'pom.xml');
  writeFileSync(project, `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>db-shootout</groupId><artifactId>server-jars</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></dependency>
  </dependencies>
</project>
`);
  await mvn([`${DEPENDENCY_PLUGIN}:copy-dependencies`, `-DoutputDirectory=${dir}`, '-DincludeScope=runtime', '-f', project], path.dirname(project),
    `${groupId}:${artifactId}:${version}`);
}

// Downloads one artifact into the local repository and returns its path there.
export async function fetchArtifact({ groupId, artifactId, version, packaging }) {
  const coordinates = `${groupId}:${artifactId}:${version}:${packaging}`;
  await mvn([`${DEPENDENCY_PLUGIN}:get`, `-Dartifact=${coordinates}`, '-Dtransitive=false'], os.tmpdir(), coordinates);
  return path.join(os.homedir(), '.m2', 'repository', ...groupId.split('.'), artifactId, version, `${artifactId}-${version}.${packaging}`);
}
