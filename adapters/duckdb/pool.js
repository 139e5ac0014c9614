// A fixed set of connections to one DuckDB instance, one operation per connection at a time. A connection runs
// one query at a time, and @duckdb/node-api runs each query on a libuv worker thread, so operations on different
// connections really overlap. close() never frees a native handle under a running statement: it refuses
// operations still waiting for a connection, interrupts the running ones, waits until they settled, and only
// then disconnects the connections and closes the instance.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { BenchError, ErrorCodes } from '../../core/errors.js';

export class ConnectionPool {
  #instance;
  #idle;
  #all;
  #waiting = [];
  #running = new Set();
  #busy = new Set();
  #closing = null;

  constructor(instance, connections) {
    this.#instance = instance;
    this.#all = connections.map((connection) => ({ connection, statements: new Map() }));
    this.#idle = [...this.#all];
  }

  // Opens (and creates) the database file with `config` (DuckDB's settings, as strings) and `size` connections.
  static async open(file, config, size) {
    let instance;
    const connections = [];
    try {
      if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
      instance = await DuckDBInstance.create(file, config);
      for (let i = 0; i < size; i += 1) connections.push(await instance.connect());
    } catch (error) {
      for (const connection of connections) connection.disconnectSync();
      instance?.closeSync();
      throw new BenchError(ErrorCodes.CONNECT, `duckdb: cannot open ${file}: ${error.message}`, { cause: error });
    }
    return new ConnectionPool(instance, connections);
  }

  get closed() {
    return this.#closing !== null;
  }

  // Runs `work(session)` on a free connection and resolves with its answer.
  async use(work) {
    const slot = await this.#acquire();
    const running = (async () => work(this.#session(slot)))();
    this.#running.add(running);
    try {
      return await running;
    } finally {
      this.#running.delete(running);
      this.#release(slot);
    }
  }

  async close() {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown() {
    for (const { reject } of this.#waiting.splice(0)) {
      reject(new Error('duckdb: the adapter was closed before the operation got a connection'));
    }
    for (const slot of this.#busy) slot.connection.interrupt();
    await Promise.allSettled([...this.#running]);
    for (const { connection, statements } of this.#all) {
      for (const statement of statements.values()) statement.destroySync();
      statements.clear();
      connection.disconnectSync();
    }
    this.#instance.closeSync();
  }

  #acquire() {
    if (this.closed) return Promise.reject(new Error('duckdb: not connected (the adapter was closed)'));
    const slot = this.#idle.pop();
    if (slot) {
      this.#busy.add(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  #release(slot) {
    const next = this.closed ? undefined : this.#waiting.shift();
    if (next) {
      next.resolve(slot);
      return;
    }
    this.#busy.delete(slot);
    this.#idle.push(slot);
  }

  // What an operation may do with its connection. Statements are prepared once per connection and SQL text;
  // DuckDB binds a prepared statement again when a table it reads was dropped and created anew.
  #session({ connection, statements }) {
    const prepared = async (sql) => {
      if (this.closed) throw new Error('duckdb: the adapter was closed during the operation');
      let statement = statements.get(sql);
      if (!statement) {
        statement = await connection.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    };
    return {
      connection,
      // The rows of a query, as a result reader (getRowsJS(), columnNames()). `types` gives the type of a value
      // the driver cannot infer (a list).
      read: async (sql, values = [], types = undefined) => {
        const statement = await prepared(sql);
        statement.bind(values, types);
        return statement.runAndReadAll();
      },
      // The rows of a query sent unprepared, planned anew each time. A table's count(*) goes this way: a prepared
      // count(*) of a table, executed again after concurrent upserts on other connections, can answer the count of
      // before them (DuckDB 1.5.6; test/duckdb/graph.test.js holds the case).
      readFresh: async (sql, values = []) => {
        if (this.closed) throw new Error('duckdb: the adapter was closed during the operation');
        return connection.runAndReadAll(sql, values);
      },
      // A statement's count of rows inserted, updated or deleted.
      run: async (sql, values = []) => {
        const statement = await prepared(sql);
        statement.bind(values);
        return (await statement.run()).rowsChanged;
      },
      // Statements whose text changes or that run once (DDL, transactions), without preparing them for reuse.
      exec: async (sql) => {
        if (this.closed) throw new Error('duckdb: the adapter was closed during the operation');
        await connection.run(sql);
      },
    };
  }
}
