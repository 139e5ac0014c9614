// The durability terms on MariaDB/MySQL (adapters/README.md, "Terms"). Durability is server-wide there: InnoDB's
// innodb_flush_log_at_trx_commit (1: the redo log is fsynced at every commit; 2: written at commit, fsynced once a
// second; 0: neither at commit) and, with the binary log on, sync_binlog (1: fsynced at every commit). No session
// can choose its own, so the harness sets them only on a server `bench server` runs, and otherwise reads them.

// What each term needs of the two settings.
const NEEDS = {
  relaxed: { flush: ['0', '2'], flushTo: '2', binlog: (value) => value !== '1', binlogTo: '0' },
  durable: { flush: ['1'], flushTo: '1', binlog: (value) => value === '1', binlogTo: '1' },
};

async function read(connection) {
  const [[row]] = await connection.query(`
    SELECT @@GLOBAL.innodb_flush_log_at_trx_commit AS innodb_flush_log_at_trx_commit, @@GLOBAL.log_bin AS log_bin,
           @@GLOBAL.sync_binlog AS sync_binlog, @@GLOBAL.innodb_flush_method AS innodb_flush_method,
           @@GLOBAL.innodb_doublewrite AS innodb_doublewrite`);
  // Where each value came from: MariaDB's GLOBAL_VALUE_ORIGIN (COMPILE-TIME, CONFIG, COMMAND-LINE, SQL, ...);
  // MySQL has no such table here, so its values are reported as the server's.
  const origins = new Map();
  try {
    const [rows] = await connection.query(`
      SELECT LOWER(VARIABLE_NAME) AS name, GLOBAL_VALUE_ORIGIN AS origin FROM information_schema.SYSTEM_VARIABLES
      WHERE VARIABLE_NAME IN ('INNODB_FLUSH_LOG_AT_TRX_COMMIT', 'LOG_BIN', 'SYNC_BINLOG', 'INNODB_FLUSH_METHOD', 'INNODB_DOUBLEWRITE')`);
    for (const { name, origin } of rows) origins.set(name, origin);
  } catch {
    // not MariaDB
  }
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [
    name, { value: String(value), source: `server (${origins.get(name)?.toLowerCase() ?? 'global'})` },
  ]));
}

// `connection`: a mysql2 pool or connection; `where`: host:port for the messages.
export async function mysqlTerms(connection, where, { durability, owned }) {
  const need = NEEDS[durability];
  const applied = [];
  if (owned) {
    const current = await read(connection);
    if (!need.flush.includes(current.innodb_flush_log_at_trx_commit.value)) {
      applied.push(`SET GLOBAL innodb_flush_log_at_trx_commit = ${need.flushTo}`);
    }
    if (current.log_bin.value === '1' && !need.binlog(current.sync_binlog.value)) applied.push(`SET GLOBAL sync_binlog = ${need.binlogTo}`);
    for (const statement of applied) await connection.query(statement);
  }
  const settings = await read(connection);
  const problems = [];
  const flush = settings.innodb_flush_log_at_trx_commit;
  if (!need.flush.includes(flush.value)) {
    problems.push(`innodb_flush_log_at_trx_commit is ${flush.value} on ${where} (${flush.source}): ${durability} writes need `
      + `${need.flush.join(' or ')} (SET GLOBAL innodb_flush_log_at_trx_commit = ${need.flushTo}, or innodb_flush_log_at_trx_commit=${need.flushTo} in the server's configuration)`);
  }
  const binlog = settings.sync_binlog;
  if (settings.log_bin.value === '1' && !need.binlog(binlog.value)) {
    problems.push(`sync_binlog is ${binlog.value} on ${where} with the binary log on (${binlog.source}): ${durability} writes need `
      + `sync_binlog=${need.binlogTo} (SET GLOBAL sync_binlog = ${need.binlogTo})`);
  }
  const [[{ bytes }]] = await connection.query('SELECT @@GLOBAL.innodb_buffer_pool_size AS bytes');
  const cache = { bytes: Number(bytes), settings: { innodb_buffer_pool_size: { value: String(bytes), source: 'server (global)' } } };
  return { settings, applied, problems, cache };
}

// One node's terms each, into the cluster's: its settings are the first node's, with every node's problems and
// applied statements (naming the node); the cache, the smallest any node has.
export function clusterTerms(nodes) {
  const [first] = nodes;
  const smallest = nodes.reduce((least, node) => (node.terms.cache.bytes < least.terms.cache.bytes ? node : least), first);
  return {
    settings: first.terms.settings,
    applied: nodes.flatMap(({ where, terms }) => terms.applied.map((statement) => `${statement} (on ${where})`)),
    problems: nodes.flatMap(({ terms }) => terms.problems),
    cache: smallest.terms.cache,
    nodes: nodes.map(({ where, terms }) => ({ endpoint: where, settings: terms.settings, cache: terms.cache })),
  };
}

const STATUS_FIGURES = {
  Questions: 'statements',
  Bytes_received: 'bytesReceived',
  Bytes_sent: 'bytesSent',
  Innodb_data_written: 'innodbDataWritten',
  Innodb_os_log_written: 'innodbLogWritten',
  wsrep_replicated_bytes: 'replicatedBytes',
  wsrep_received_bytes: 'receivedBytes',
  // Local transactions that failed certification against another node's, and those aborted by a replicated one.
  wsrep_local_cert_failures: 'certificationFailures',
  wsrep_local_bf_aborts: 'bruteForceAborts',
};
const STATUS_STATE = ['wsrep_cluster_size', 'wsrep_local_state_comment', 'wsrep_cluster_status', 'wsrep_node_name', 'wsrep_provider_version'];

// One server's counters (nodeFigures in adapter.js); a server without Galera has no wsrep ones.
export async function nodeFigures(connection, where) {
  const names = [...Object.keys(STATUS_FIGURES), ...STATUS_STATE];
  const [rows] = await connection.query(`SHOW GLOBAL STATUS WHERE Variable_name IN (${names.map(() => '?').join(', ')})`, names);
  const status = new Map(rows.map(({ Variable_name: name, Value: value }) => [name, value]));
  const figures = Object.fromEntries(Object.entries(STATUS_FIGURES).filter(([name]) => status.has(name))
    .map(([name, key]) => [key, Number(status.get(name))]));
  let galera = null;
  if (Number(status.get('wsrep_cluster_size') ?? 0) > 0) {
    // Whether its reads wait for the writes the cluster committed before them (0: no, they may lag).
    const [[{ syncWait }]] = await connection.query('SELECT @@GLOBAL.wsrep_sync_wait AS syncWait');
    galera = {
      clusterSize: Number(status.get('wsrep_cluster_size')), state: status.get('wsrep_local_state_comment'),
      status: status.get('wsrep_cluster_status'), node: status.get('wsrep_node_name'), provider: status.get('wsrep_provider_version'),
      syncWait: Number(syncWait),
    };
  }
  return { endpoint: where, ...figures, ...(galera && { galera }) };
}
