// The flags of the benchmark scripts that measure a server, and the `bench run` argv they make: the server is
// reached like `bench run` reaches it, the local one of `bench server start <server>` unless named.
import { parseArgs } from 'node:util';
import { defaultCacheDir } from '../core/paths.js';

const CONNECT_TIMEOUT_S = 10;

// The parsed flags: --host, --port, --user (and --database unless `database` is false), then the script's own
// `flags` ({ name: default }), all strings.
export function serverArgs(flags, { database = true } = {}) {
  const own = Object.fromEntries(Object.entries(flags).map(([name, value]) => [name, { type: 'string', default: value }]));
  const server = ['host', 'port', 'user', ...(database ? ['database'] : [])];
  const options = { ...Object.fromEntries(server.map((name) => [name, { type: 'string' }])), ...own };
  return parseArgs({ options }).values;
}

// The argv that adapterOptions and serverProcess take, from the parsed flags; `extra` adds to it (a --driver).
export function serverArgv(args, extra = {}) {
  return {
    host: args.host,
    port: args.port === undefined ? undefined : Number(args.port),
    user: args.user,
    database: args.database,
    namespace: args.namespace,
    concurrency: Number(args.concurrency),
    'connect-timeout': CONNECT_TIMEOUT_S,
    'cache-dir': defaultCacheDir(),
    ...extra,
  };
}
