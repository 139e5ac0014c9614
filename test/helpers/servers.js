// How server-backed tests find their database: BENCH_<ID>_URL when set (e.g.
// BENCH_ARANGODB_URL=http://root:pw@127.0.0.1:8529/bench), else the local server that
// `bench server start <family>` runs under $BENCH_CACHE_DIR (or the default cache). Without either they skip
// with the reason, unless BENCH_REQUIRE names the adapter (CI sets it), in which case they fail: a skipped test
// is not a pass.
import { defaultCacheDir } from '../../core/paths.js';
import { runningServer } from '../../server/state.js';
import { SERVER_CONNECT_TIMEOUT_MS } from './limits.js';

const required = new Set((process.env.BENCH_REQUIRE ?? '').split(',').map((id) => id.trim()).filter(Boolean));

export function urlEnv(description) {
  return `BENCH_${description.id.toUpperCase()}_URL`;
}

function fromUrl(text) {
  const url = new URL(text);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : null,
    user: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)) : null,
  };
}

function fromLocalServer(description) {
  const state = description.server ? runningServer(defaultCacheDir(), description.server) : null;
  return state && { host: state.host, port: state.port, user: state.user, database: state.database, password: undefined };
}

// { options } to connect with, or { skip: reason }. Throws when the adapter is required and absent.
export function serverTarget(description, extra = {}) {
  const env = urlEnv(description);
  const connection = process.env[env] ? fromUrl(process.env[env]) : fromLocalServer(description);
  if (!connection) {
    const reason = description.server
      ? `no local ${description.server} server is running: start one with \`npx bench server start ${description.server}\`, or set ${env}`
      : `no ${description.name} server to test against: set ${env} (none can be installed on this machine)`;
    if (required.has(description.id)) throw new Error(`BENCH_REQUIRE lists ${description.id}, but ${reason}`);
    return { skip: reason };
  }
  return {
    options: {
      ...description.connection.defaults,
      ...Object.fromEntries(Object.entries(connection).filter(([, value]) => value !== null && value !== undefined)),
      namespace: 'dbshootout_test',
      concurrency: 25,
      connectTimeoutMs: SERVER_CONNECT_TIMEOUT_MS,
      dataDir: defaultCacheDir(),
      ...extra,
    },
  };
}

// A target's connection as a user gives it on the command line: `--host`, `--port`, `--user`, `--database` (or the
// `names` given) for each option set, and `env`, the password in the adapter's variable when there is one.
export function connectionFlags(description, options = {}, names = ['host', 'port', 'user', 'database']) {
  const flags = names.filter((name) => options[name] !== null && options[name] !== undefined)
    .flatMap((name) => [`--${name}`, String(options[name])]);
  const env = description.connection?.passwordEnv && options.password !== undefined
    ? { [description.connection.passwordEnv]: options.password } : {};
  return { flags, env };
}
