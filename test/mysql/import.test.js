// The bulk import streams each phase through LOAD DATA LOCAL INFILE statements that stay open across batches
// (bulk.js LoadStream). These tests watch the server's own view of them (the process list) and what ends or
// abandons them. Runs against the local server of `bench server start mariadb`.
import { after, afterEach, before, describe } from 'node:test';
import mysql from '../../adapters/mysql/description.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { serverTarget } from '../helpers/servers.js';
import { streamedImportTests } from '../helpers/streamed-import.js';

const NAMESPACE = 'dbshootout_test_import';
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });

describe('mysql streamed import', { skip }, () => {
  let admin;
  let adapters = [];

  async function open(concurrency = 4) {
    const adapter = mysql.create({ ...options, concurrency });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  // The connections of this test's namespace running a LOAD DATA, by id.
  async function loadingConnections() {
    const [rows] = await admin.query(
      "SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE 'LOAD DATA%' AND INFO LIKE ? ORDER BY ID",
      [`%${NAMESPACE}%`],
    );
    return rows.map(({ id }) => id);
  }

  async function profileCount() {
    const [[row]] = await admin.query(`SELECT COUNT(*) AS n FROM \`${NAMESPACE}\`.profiles`);
    return Number(row.n);
  }

  before(async () => {
    admin = await openConnection(options);
  });

  afterEach(async () => {
    for (const adapter of adapters) await adapter.close();
    adapters = [];
    await admin.query(`DROP DATABASE IF EXISTS \`${NAMESPACE}\``);
  });

  after(async () => {
    await admin?.end();
  });

  streamedImportTests({ open, loading: loadingConnections, profileCount });
});
