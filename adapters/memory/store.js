// A complete adapter over plain JavaScript maps. It runs the conformance suite so the suite itself is
// tested, and it measures the harness's own overhead: its operations cost almost nothing, so any time
// the runner reports on top of them is the runner's.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from './crud.js';
import { graphOperations } from './graph.js';
import { CASES, createCollection, importDocuments, indexCollection } from './queries.js';

// Stores outlive adapter instances, as a server's data outlives its connections: each run of a
// benchmark connects afresh and must find the imported dataset.
const databases = new Map();

function database(name) {
  let db = databases.get(name);
  if (!db) {
    db = new Map();
    databases.set(name, db);
  }
  return db;
}

function emptyNamespace() {
  return {
    marker: null, profiles: new Map(), out: new Map(), relations: 0, temp: new Map(), queries: new Map(), graph: new Map(), indexed: false,
  };
}

export class MemoryAdapter {
  constructor(options) {
    this.databaseName = options.database ?? 'default';
    this.namespace = options.namespace;
    this.connected = false;
    // The graph suite's operations (graph.js), over the namespace's edge collections.
    this.graph = graphOperations({ collections: () => this.#ns().graph });
  }

  static plantForeign(options) {
    const ns = emptyNamespace();
    ns.profiles.set('P1', Object.freeze({ _key: 'P1', owner: 'someone else' }));
    database(options.database ?? 'default').set(options.namespace, ns);
  }

  static dropNamespace(options) {
    database(options.database ?? 'default').delete(options.namespace);
  }

  async connect() {
    this.connected = true;
  }

  async close() {
    this.connected = false;
  }

  async serverVersion() {
    return `node ${process.versions.node}`;
  }

  async settings() {
    return {};
  }

  async terms() {
    return { settings: {}, applied: [], problems: [] };
  }

  async warmup() {}

  #ns() {
    if (!this.connected) throw new Error('memory adapter: not connected');
    const ns = database(this.databaseName).get(this.namespace);
    if (!ns) throw new Error(`memory adapter: namespace "${this.namespace}" does not exist; reset it first`);
    return ns;
  }

  async inspectNamespace() {
    const ns = database(this.databaseName).get(this.namespace);
    if (!ns) return { state: 'absent', marker: null };
    if (!ns.marker) return { state: 'foreign', marker: null };
    return { state: 'owned', marker: structuredClone(ns.marker) };
  }

  async resetNamespace() {
    const { state } = await this.inspectNamespace();
    if (state === 'foreign') {
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN,
        `memory database "${this.databaseName}" holds a namespace "${this.namespace}" that db-shootout did not create`);
    }
    const ns = emptyNamespace();
    ns.marker = {};
    database(this.databaseName).set(this.namespace, ns);
  }

  async writeMarker(marker) {
    this.#ns().marker = structuredClone(marker);
  }

  async importProfiles(docs) {
    const { profiles } = this.#ns();
    // Stored documents are frozen: reads hand them out without copying, and nobody can alter the store
    // through an answer.
    for (const doc of docs) profiles.set(doc._key, Object.freeze({ ...doc }));
  }

  async importRelations(edges) {
    const ns = this.#ns();
    for (const { _from, _to } of edges) {
      let targets = ns.out.get(_from);
      if (!targets) {
        targets = new Set();
        ns.out.set(_from, targets);
      }
      if (!targets.has(_to)) {
        targets.add(_to);
        ns.relations += 1;
      }
    }
  }

  async createIndexes() {
    this.#ns().indexed = true;
  }

  async counts() {
    const ns = this.#ns();
    return { profiles: ns.profiles.size, relations: ns.relations };
  }

  async singleRead(key) {
    return this.#ns().profiles.get(key) ?? null;
  }

  #temp(name) {
    const collection = this.#ns().temp.get(name);
    if (!collection) throw new Error(`memory adapter: no temporary collection "${name}"`);
    return collection;
  }

  async createTempCollection(name) {
    this.#ns().temp.set(name, new Map());
  }

  async dropTempCollection(name) {
    this.#ns().temp.delete(name);
  }

  async countDocuments(name) {
    return this.#temp(name).size;
  }

  async readDocument(name, key) {
    return this.#temp(name).get(key) ?? null;
  }

  async readCollection(name) {
    return [...this.#temp(name).values()];
  }

  async singleWrite(collection, doc) {
    insertDocument(this.#temp(collection), doc);
  }

  async singleWriteSync(collection, doc) {
    return this.singleWrite(collection, doc);
  }

  // --- the crud suite's document operations (crud.js); `durable` changes nothing in memory ---

  async insertDocument(collection, doc) {
    insertDocument(this.#temp(collection), doc);
  }

  async getDocument(collection, key) {
    return getDocument(this.#temp(collection), key);
  }

  async updateDocument(collection, key, doc) {
    updateDocument(this.#temp(collection), key, doc);
  }

  async scanDocuments(collection, fromKey, limit) {
    return scanDocuments(this.#temp(collection), fromKey, limit);
  }

  async deleteDocument(collection, key) {
    deleteDocument(this.#temp(collection), key);
  }

  // --- the queries suite (queries.js) ---

  #queryCollection(name) {
    const collection = this.#ns().queries.get(name);
    if (!collection) throw new Error(`memory adapter: no query collection "${name}"`);
    return collection;
  }

  async createQueryCollection(name) {
    this.#ns().queries.set(name, createCollection());
  }

  async importQueryDocuments(name, docs) {
    importDocuments(this.#queryCollection(name), docs);
  }

  async indexQueryCollection(name) {
    indexCollection(this.#queryCollection(name));
  }

  async countQueryDocuments(name) {
    return this.#ns().queries.get(name)?.documents.length ?? 0;
  }

  async dropQueryCollection(name) {
    this.#ns().queries.delete(name);
  }

  async query(caseName, name, params) {
    if (!Object.hasOwn(CASES, caseName)) throw new Error(`memory adapter: unknown query case ${caseName}`);
    return CASES[caseName](this.#queryCollection(name), params);
  }

  async aggregation() {
    const histogram = {};
    for (const doc of this.#ns().profiles.values()) {
      const age = String(doc.AGE ?? null);
      histogram[age] = (histogram[age] ?? 0) + 1;
    }
    return histogram;
  }

  #out(key) {
    return this.#ns().out.get(key) ?? new Set();
  }

  #documents(keys) {
    const { profiles } = this.#ns();
    return keys.map((key) => profiles.get(key)).filter((doc) => doc !== undefined);
  }

  async neighbors(key) {
    return [...this.#out(key)];
  }

  async neighborsData(key) {
    return this.#documents([...this.#out(key)]);
  }

  #twoHops(key) {
    const reached = new Set();
    for (const first of this.#out(key)) {
      reached.add(first);
      for (const second of this.#out(first)) reached.add(second);
    }
    reached.delete(key);
    return [...reached];
  }

  async neighbors2(key) {
    return this.#twoHops(key);
  }

  async neighbors2data(key) {
    return this.#documents(this.#twoHops(key));
  }

  async shortestPath(from, to, maxDepth) {
    if (from === to) return [from];
    const parent = new Map([[from, null]]);
    let frontier = [from];
    for (let depth = 0; depth < maxDepth && frontier.length > 0; depth += 1) {
      const next = [];
      for (const node of frontier) {
        for (const target of this.#out(node)) {
          if (parent.has(target)) continue;
          parent.set(target, node);
          if (target === to) return pathTo(parent, to);
          next.push(target);
        }
      }
      frontier = next;
    }
    return null;
  }
}

function pathTo(parent, to) {
  const path = [];
  for (let node = to; node !== null; node = parent.get(node)) path.push(node);
  return path.reverse();
}
