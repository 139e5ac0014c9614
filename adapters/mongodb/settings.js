// The server settings that affect results, read through diagnostic commands. Each is best effort: a user may
// lack the privilege for one (serverStatus needs clusterMonitor), and a command that does not apply to the
// deployment (replica-set commands on a standalone) is not sent. A command the server refuses is named under
// `unavailable`; any other error (the connection failing) is thrown.
import { MongoServerError } from 'mongodb';

// The deployment, from `hello`: a replica set names itself, a mongos says "isdbgrid".
export function topologyOf(hello) {
  if (hello.setName) return `replica set ${hello.setName}`;
  if (hello.msg === 'isdbgrid') return 'sharded cluster (mongos)';
  return 'standalone';
}

// The answers of the probes (absent when refused), as one flat object of the values that matter.
export function flattenSettings({ hello, serverStatus, journalCommitInterval, syncdelay, defaultRWConcern, replSetConfig }) {
  const settings = { topology: topologyOf(hello) };
  const set = (name, value) => {
    if (value !== undefined && value !== null) settings[name] = value;
  };
  set('storageEngine', serverStatus?.storageEngine?.name);
  set('wiredTigerCacheBytes', serverStatus?.wiredTiger?.cache?.['maximum bytes configured']);
  set('journalCommitIntervalMs', journalCommitInterval?.journalCommitInterval);
  set('syncPeriodSecs', syncdelay?.syncdelay);
  if (defaultRWConcern) {
    set('defaultWriteConcern', JSON.stringify(defaultRWConcern.defaultWriteConcern ?? {}));
    set('defaultWriteConcernSource', defaultRWConcern.defaultWriteConcernSource);
  }
  set('writeConcernMajorityJournalDefault', replSetConfig?.config?.writeConcernMajorityJournalDefault);
  return settings;
}

export async function readSettings(admin) {
  const hello = await admin.command({ hello: 1 });
  const refused = [];
  const probe = async (name, command) => {
    try {
      return await admin.command(command);
    } catch (error) {
      if (!(error instanceof MongoServerError)) throw error;
      refused.push(`${name}: ${error.codeName ?? error.message}`);
      return undefined;
    }
  };
  const replicaSet = Boolean(hello.setName);
  const answers = {
    hello,
    serverStatus: await probe('serverStatus', { serverStatus: 1, repl: 0, metrics: 0, locks: 0 }),
    journalCommitInterval: await probe('journalCommitInterval', { getParameter: 1, journalCommitInterval: 1 }),
    syncdelay: await probe('syncdelay', { getParameter: 1, syncdelay: 1 }),
    // The cluster-wide default write concern exists on replica sets and sharded clusters only.
    defaultRWConcern: topologyOf(hello) === 'standalone' ? undefined
      : await probe('getDefaultRWConcern', { getDefaultRWConcern: 1 }),
    replSetConfig: replicaSet ? await probe('replSetGetConfig', { replSetGetConfig: 1 }) : undefined,
  };
  const settings = flattenSettings(answers);
  if (refused.length > 0) settings.unavailable = refused.join('; ');
  return settings;
}
