// How server-backed tests find their database: the local server that `bench server start <family>` runs
// under $BENCH_CACHE_DIR (or the default cache). Without one they skip with the reason, unless
// BENCH_REQUIRE names the adapter (CI sets it), in which case they fail: a skipped test is not a pass.
import { defaultCacheDir } from '../../core/paths.js';
import { runningServer } from '../../server/state.js';

const required = new Set((process.env.BENCH_REQUIRE ?? '').split(',').map((id) => id.trim()).filter(Boolean));

// { options } to connect with, or { skip: reason }. Throws when the adapter is required and absent.
export function serverTarget(description, extra = {}) {
  const state = runningServer(defaultCacheDir(), description.server);
  if (!state) {
    const reason = `no local ${description.server} server is running: start one with \`npx bench server start ${description.server}\``;
    if (required.has(description.id)) throw new Error(`BENCH_REQUIRE lists ${description.id}, but ${reason}`);
    return { skip: reason };
  }
  return {
    options: {
      host: state.host,
      port: state.port,
      user: state.user,
      database: state.database,
      password: undefined,
      namespace: 'dbshootout_test',
      concurrency: 25,
      connectTimeoutMs: 5000,
      dataDir: defaultCacheDir(),
      ...extra,
    },
  };
}
