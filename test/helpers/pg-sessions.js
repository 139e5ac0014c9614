// The sessions a PostgreSQL server has open under one application name (pg_stat_activity): how the driver tests
// count the connections a driver opened and closed.
import pg from 'pg';
import { clientConfig } from '../../adapters/postgresql/connection.js';

export async function sessionsNamed(options, applicationName) {
  const client = new pg.Client(clientConfig(options));
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    return rows[0].n;
  } finally {
    await client.end();
  }
}
