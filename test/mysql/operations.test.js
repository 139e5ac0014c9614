// The mysql adapter's operations against the local MariaDB server, on a hand-made graph whose answers are
// known, and its shortest path against a JavaScript breadth-first search on random graphs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import mysql from '../../adapters/mysql/description.js';
import { loadRows, tsvChunks } from '../../adapters/mysql/bulk.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_test_operations';
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });

// A hand-made Pokec-like graph. P7 has no incoming relation, P8 no outgoing one; P1 <-> P2 is reciprocal;
// P4 -> P5 -> P6 -> P4 is a cycle; P1 -> P2 is listed twice. The documents hold every character that LOAD
// DATA or SQL text treats specially, and text outside the Basic Multilingual Plane.
const PROFILES = [
  {
    _key: 'P1', public: 1, completion_percentage: 14, gender: 1, region: 'zilinsky kraj, zilina',
    last_login: '2012-05-25 11:20:00.0', registration: '2005-04-03 00:00:00.0', AGE: 26,
    body: '185 cm, 90 kg', I_am_working_in_field: 'it', spoken_languages: 'slovensky, anglicky',
  },
  {
    _key: 'P2', public: 1, completion_percentage: 62, gender: 0, region: 'zilinsky kraj, kysucke nove mesto',
    last_login: '2012-05-25 23:08:00.0', registration: '2007-11-30 00:00:00.0', AGE: 0,
    hobbies: 'čítanie, <b>tanec</b>, cestovanie', pets: 'mačka', I_like_books: 'Harry Potter',
  },
  {
    _key: 'P3', public: 0, completion_percentage: 38, gender: 0, region: 'bratislavsky kraj, bratislava - karlova ves',
    last_login: '2012-05-10 18:05:00.0', registration: '2010-05-23 00:00:00.0', AGE: 0,
    more: 'tab\there, newline\nhere, CR\rhere, backslash \\ and \\N and \\t, quotes \' " `, NUL \u0000 end',
  },
  {
    _key: 'P4', public: 1, completion_percentage: 12, gender: 1, region: 'banskobystricky kraj, brezno',
    last_login: '2012-05-25 18:46:00.0', registration: '2006-12-13 00:00:00.0', AGE: 17,
    eye_color: 'hnedé', hair_color: 'čierne', fun: 'NULL',
  },
  {
    _key: 'P5', public: 1, completion_percentage: 0, region: 'trnavsky kraj, galanta',
    last_login: '2012-04-02 13:13:00.0', registration: '2003-01-21 00:00:00.0', AGE: 26,
    music: 'emoji 😀 and 𝄞, a lone surrogate \ud800 too',
  },
  {
    _key: 'P6', public: 0, completion_percentage: 47, gender: 0, region: 'kosicky kraj, kosice - sever',
    last_login: '2012-05-24 20:42:00.0', registration: '2009-08-08 00:00:00.0', AGE: 21,
    music: 'rock, metal', movies: 'horory', more: '<br />nič viac',
  },
  {
    _key: 'P7', public: 1, completion_percentage: 100, gender: 1, region: 'presovsky kraj, poprad',
    last_login: '2012-05-25 09:00:00.0', registration: '2004-02-15 00:00:00.0', AGE: 33,
    children: 'zatiaľ nie', marital_status: 'slobodný(á)', hobbies: '',
  },
  {
    _key: 'P8', public: 1, completion_percentage: 5, gender: 0, region: 'nitriansky kraj, nitra',
    last_login: '2012-05-20 07:30:00.0', registration: '2011-09-01 00:00:00.0',
  },
];

const RELATIONS = [
  ['P1', 'P2'], ['P2', 'P1'], ['P1', 'P3'], ['P2', 'P4'], ['P3', 'P4'],
  ['P4', 'P5'], ['P5', 'P6'], ['P6', 'P4'], ['P5', 'P8'], ['P7', 'P1'],
  ['P7', 'P3'], ['P3', 'P6'], ['P6', 'P8'], ['P3', 'P2'], ['P1', 'P2'],
].map(([_from, _to]) => ({ _from, _to }));

const EDGE_SET = new Set(RELATIONS.map(({ _from, _to }) => `${_from}>${_to}`));
const byKey = new Map(PROFILES.map((doc) => [doc._key, doc]));
const docsOf = (keys) => keys.map((key) => byKey.get(key));
const sortedKeys = (keys) => [...keys].sort();
const sortedDocs = (docs) => [...docs].sort((a, b) => a._key.localeCompare(b._key));

function assertValidPath(path, edges, from, to, hops, label) {
  assert.ok(Array.isArray(path), `${label}: ${JSON.stringify(path)} is a path`);
  assert.equal(path.length - 1, hops, `${label}: ${path.join(' > ')} should have ${hops} hops`);
  assert.equal(path[0], from, label);
  assert.equal(path.at(-1), to, label);
  for (let i = 1; i < path.length; i += 1) {
    assert.ok(edges.has(`${path[i - 1]}>${path[i]}`), `${label}: ${path[i - 1]} -> ${path[i]} is not a relation`);
  }
}

async function dropNamespace(namespace) {
  const connection = await openConnection(options);
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${namespace}\``);
  } finally {
    await connection.end();
  }
}

describe('mysql adapter on a hand-made graph', { skip }, () => {
  let db;

  before(async () => {
    db = mysql.create(options);
    await db.connect();
    await db.resetNamespace();
    await db.writeMarker({ dataset: 'hand-made' });
    await db.importProfiles(PROFILES.slice(0, 5));
    await db.importProfiles(PROFILES.slice(5));
    await db.importRelations(RELATIONS.slice(0, 4));
    await db.importRelations(RELATIONS.slice(4));
    await db.createIndexes();
    await db.warmup();
  });

  after(async () => {
    await db?.close();
    await dropNamespace(NAMESPACE);
  });

  test('counts every imported profile and relation, duplicates included', async () => {
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('singleRead returns the exact document, and null for a missing key', async () => {
    for (const doc of PROFILES) assert.deepStrictEqual(await db.singleRead(doc._key), doc);
    assert.equal(await db.singleRead('P999'), null);
  });

  test('keys compare exactly: case and accents matter', async () => {
    assert.equal(await db.singleRead('p1'), null);
    assert.deepEqual(await db.neighbors('p1'), []);
    await db.createTempCollection('keys');
    await db.singleWrite('keys', { _key: 'K', v: 1 });
    await db.singleWrite('keys', { _key: 'k', v: 2 });
    await db.singleWrite('keys', { _key: 'é', v: 3 });
    await db.singleWrite('keys', { _key: 'e', v: 4 });
    assert.equal(await db.countDocuments('keys'), 4);
    assert.deepEqual(await db.readDocument('keys', 'k'), { _key: 'k', v: 2 });
    assert.deepEqual(await db.readDocument('keys', 'é'), { _key: 'é', v: 3 });
    await db.dropTempCollection('keys');
  });

  test('aggregation counts profiles per AGE, keyed by the age as a string, absent AGE as "null"', async () => {
    assert.deepStrictEqual(await db.aggregation(), { 0: 2, 17: 1, 21: 1, 26: 2, 33: 1, null: 1 });
  });

  test('neighbors returns the distinct targets of outgoing relations', async () => {
    const expected = {
      P1: ['P2', 'P3'], P2: ['P1', 'P4'], P3: ['P2', 'P4', 'P6'], P4: ['P5'],
      P5: ['P6', 'P8'], P6: ['P4', 'P8'], P7: ['P1', 'P3'], P8: [], P999: [],
    };
    for (const [key, keys] of Object.entries(expected)) {
      assert.deepStrictEqual(sortedKeys(await db.neighbors(key)), keys, key);
      assert.deepStrictEqual(sortedDocs(await db.neighborsData(key)), docsOf(keys), key);
    }
  });

  test('neighbors2 returns the distinct keys within two hops, without the start', async () => {
    const expected = {
      P1: ['P2', 'P3', 'P4', 'P6'], P2: ['P1', 'P3', 'P4', 'P5'], P3: ['P1', 'P2', 'P4', 'P5', 'P6', 'P8'],
      P4: ['P5', 'P6', 'P8'], P5: ['P4', 'P6', 'P8'], P6: ['P4', 'P5', 'P8'],
      P7: ['P1', 'P2', 'P3', 'P4', 'P6'], P8: [], P999: [],
    };
    for (const [key, keys] of Object.entries(expected)) {
      assert.deepStrictEqual(sortedKeys(await db.neighbors2(key)), keys, key);
      assert.deepStrictEqual(sortedDocs(await db.neighbors2data(key)), docsOf(keys), key);
    }
  });

  test('shortestPath finds a minimal path made of existing relations', async () => {
    assert.deepStrictEqual(await db.shortestPath('P7', 'P8', 10), ['P7', 'P3', 'P6', 'P8']);
    assert.deepStrictEqual(await db.shortestPath('P1', 'P2', 1), ['P1', 'P2']);
    assert.deepStrictEqual(await db.shortestPath('P5', 'P4', 10), ['P5', 'P6', 'P4']);
    const cases = [['P1', 'P5', 3], ['P2', 'P6', 3], ['P7', 'P5', 3], ['P3', 'P1', 2], ['P6', 'P5', 2]];
    for (const [from, to, hops] of cases) {
      assertValidPath(await db.shortestPath(from, to, 10), EDGE_SET, from, to, hops, `${from} -> ${to}`);
    }
  });

  test('shortestPath follows relations only in their direction', async () => {
    assert.equal(await db.shortestPath('P8', 'P1', 10), null);
    assert.equal(await db.shortestPath('P1', 'P7', 10), null);
    assert.equal(await db.shortestPath('P4', 'P1', 10), null);
    assert.equal(await db.shortestPath('P1', 'P999', 10), null);
  });

  test('shortestPath returns null when the path needs more than maxDepth hops', async () => {
    assert.equal(await db.shortestPath('P7', 'P8', 2), null);
    assert.deepStrictEqual(await db.shortestPath('P7', 'P8', 3), ['P7', 'P3', 'P6', 'P8']);
    assert.equal(await db.shortestPath('P1', 'P2', 0), null);
  });

  test('shortestPath from a key to itself is that key alone', async () => {
    assert.deepStrictEqual(await db.shortestPath('P3', 'P3', 0), ['P3']);
    assert.deepStrictEqual(await db.shortestPath('P8', 'P8', 5), ['P8']);
  });

  test('both write modes insert into a temporary collection', async () => {
    await db.createTempCollection('writes');
    await db.singleWrite('writes', { _key: 'W1', AGE: 30, region: 'žilinský kraj', more: 'a\tb\\c 😀' });
    await db.singleWriteSync('writes', { _key: 'W2', AGE: 31 });
    assert.equal(await db.countDocuments('writes'), 2);
    assert.deepStrictEqual(await db.readDocument('writes', 'W1'),
      { _key: 'W1', AGE: 30, region: 'žilinský kraj', more: 'a\tb\\c 😀' });
    assert.deepStrictEqual(await db.readDocument('writes', 'W2'), { _key: 'W2', AGE: 31 });
    assert.equal(await db.readDocument('writes', 'W3'), null);
    await assert.rejects(db.singleWrite('writes', { _key: 'W1' }), { code: 'ER_DUP_ENTRY' });

    await db.createTempCollection('writes');
    assert.equal(await db.countDocuments('writes'), 0, 'creating again drops the leftover');
    await db.dropTempCollection('writes');
    await assert.rejects(db.countDocuments('writes'), { code: 'ER_NO_SUCH_TABLE' });
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('temporary collection names must be identifiers', async () => {
    await assert.rejects(db.createTempCollection('x; DROP DATABASE dbshootout'), { code: 'E_USAGE' });
    await assert.rejects(db.singleWrite('a-b', { _key: 'W1' }), { code: 'E_USAGE' });
    await assert.rejects(db.createTempCollection('x'.repeat(61)), { code: 'E_USAGE' });
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('reports its version and the settings that matter', async () => {
    assert.match(await db.serverVersion(), /^10\.11\.\d+-MariaDB/);
    const settings = await db.settings();
    assert.deepStrictEqual(Object.keys(settings), [
      'innodb_buffer_pool_size', 'innodb_flush_log_at_trx_commit', 'log_bin', 'sync_binlog',
      'innodb_doublewrite', 'max_connections', 'version_comment',
    ]);
    assert.equal(typeof settings.innodb_buffer_pool_size, 'number');
    assert.ok([0, 1, 2].includes(settings.innodb_flush_log_at_trx_commit));
    assert.equal(typeof settings.version_comment, 'string');
  });
});

describe('mysql bulk import', { skip }, () => {
  const namespace = `${NAMESPACE}_bulk`;
  let db;
  let connection;

  before(async () => {
    db = mysql.create({ ...options, namespace });
    await db.connect();
    connection = await openConnection(options);
  });

  after(async () => {
    await connection?.end();
    await db?.close();
    await dropNamespace(namespace);
  });

  test('a batch that LOAD DATA only partly takes is an import error, not a silent loss', async () => {
    await db.resetNamespace();
    await assert.rejects(db.importProfiles([{ _key: 'P1', AGE: 1 }, { _key: 'P1', AGE: 2 }]),
      { code: 'E_IMPORT', message: /took 1 of 2 rows.*Duplicate entry/ });
    await assert.rejects(db.importRelations([{ _from: 'P1', _to: 'P'.repeat(40) }]),
      { code: 'E_IMPORT', message: /took 1 of 1 rows with 1 warnings/ });
  });

  test('keys holding the characters LOAD DATA treats specially arrive unchanged', async () => {
    await db.resetNamespace();
    const keys = ['a\tb', 'c\nd', 'e\\f', '\\N', 'NULL', '', 'g\\'];
    await db.importRelations(keys.map((key, i) => ({ _from: key, _to: keys[(i + 1) % keys.length] })));
    await db.createIndexes();
    for (const [i, key] of keys.entries()) {
      assert.deepEqual(await db.neighbors(key), [keys[(i + 1) % keys.length]], JSON.stringify(key));
    }
    assert.deepEqual(await db.counts(), { profiles: 0, relations: keys.length });
  });

  test('multi-row INSERT, the path for servers without local_infile, stores the same documents', async () => {
    await db.resetNamespace();
    const table = `\`${namespace}\`.profiles`;
    const toRow = (doc) => [doc._key, JSON.stringify(doc)];
    // A small packet limit forces one statement per few rows.
    const load = (maxAllowedPacket, docs) =>
      loadRows(connection, { localInfile: false, maxAllowedPacket }, table, ['_key', 'doc'], docs, toRow);
    await load(4096, PROFILES);
    for (const doc of PROFILES) assert.deepStrictEqual(await db.singleRead(doc._key), doc);
    await assert.rejects(load(1 << 20, [PROFILES[0]]), { code: 'ER_DUP_ENTRY' });
    assert.deepEqual(await db.counts(), { profiles: PROFILES.length, relations: 0 });
  });
});

describe('mysql LOAD DATA text', () => {
  const toRow = (row) => row;
  const text = (chunks) => Buffer.concat([...chunks]).toString('utf8');

  test('escapes exactly backslash, tab and newline, and ends every row with a newline', () => {
    const rows = [['a\tb', 'c\nd\re'], ['\\N', 'ž 😀 "q" \'s\'']];
    assert.equal(text(tsvChunks(rows, toRow)), 'a\\tb\tc\\nd\re\n\\\\N\tž 😀 "q" \'s\'\n');
  });

  test('splits a large batch into chunks that end at row boundaries', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`P${i}`, 'x'.repeat(100)]);
    const chunks = [...tsvChunks(rows, toRow)];
    assert.ok(chunks.length > 1, `${chunks.length} chunk`);
    for (const chunk of chunks) assert.equal(chunk.at(-1), 0x0a);
    assert.equal(text(chunks), rows.map((row) => `${row.join('\t')}\n`).join(''));
  });
});

// Random directed graphs, from sparse (long paths, many unreachable pairs) to dense (short paths with many
// alternatives), each checked against a plain breadth-first search in JavaScript.
const GRAPHS = [
  { nodes: 80, edges: 120, seed: 1 },
  { nodes: 80, edges: 200, seed: 2 },
  { nodes: 200, edges: 1600, seed: 3 },
];
const PAIRS_PER_GRAPH = 200;
const MAX_DEPTH_LIMIT = 16;

// mulberry32: small, seeded, good enough to spread edges evenly.
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function makeGraph({ nodes, edges, seed }) {
  const next = random(seed);
  const pick = () => `P${1 + Math.floor(next() * nodes)}`;
  const relations = Array.from({ length: edges }, () => ({ _from: pick(), _to: pick() }));
  const out = new Map();
  for (const { _from, _to } of relations) out.set(_from, (out.get(_from) ?? new Set()).add(_to));
  return { next, pick, relations, out, edgeSet: new Set(relations.map(({ _from, _to }) => `${_from}>${_to}`)) };
}

function distances(out, from) {
  const seen = new Map([[from, 0]]);
  const queue = [from];
  for (const node of queue) {
    for (const next of out.get(node) ?? []) {
      if (!seen.has(next)) {
        seen.set(next, seen.get(node) + 1);
        queue.push(next);
      }
    }
  }
  return seen;
}

function withinTwoHops(out, key) {
  const found = new Set(out.get(key));
  for (const first of out.get(key) ?? []) for (const second of out.get(first) ?? []) found.add(second);
  found.delete(key);
  return [...found].sort();
}

for (const spec of GRAPHS) {
  const title = `mysql graph operations on a random graph of ${spec.nodes} nodes and ${spec.edges} relations`;
  describe(title, { skip }, () => {
    const namespace = `${NAMESPACE}_random${spec.seed}`;
    const graph = makeGraph(spec);
    let db;

    before(async () => {
      db = mysql.create({ ...options, namespace });
      await db.connect();
      await db.resetNamespace();
      await db.writeMarker({ dataset: `random-${spec.seed}` });
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 7 })));
      await db.importRelations(graph.relations);
      await db.createIndexes();
    });

    after(async () => {
      await db?.close();
      await dropNamespace(namespace);
    });

    // All pairs at once: concurrent searches run on separate connections with their own TEMPORARY tables.
    test('concurrent shortestPath searches are minimal, follow relations, and respect maxDepth', async () => {
      const pairs = Array.from({ length: PAIRS_PER_GRAPH }, () => {
        const from = graph.pick();
        const reached = distances(graph.out, from);
        // Half of the targets are reachable, so sparse graphs test long paths too.
        const to = graph.next() < 0.5 ? [...reached.keys()][Math.floor(graph.next() * reached.size)] : graph.pick();
        return { from, to, maxDepth: Math.floor(graph.next() * (MAX_DEPTH_LIMIT + 1)), hops: reached.get(to) ?? null };
      });
      const paths = await Promise.all(pairs.map(({ from, to, maxDepth }) => db.shortestPath(from, to, maxDepth)));
      let found = 0;
      let longest = 0;
      pairs.forEach(({ from, to, maxDepth, hops }, i) => {
        const label = `${from} -> ${to} within ${maxDepth}`;
        if (hops === null || hops > maxDepth) {
          assert.equal(paths[i], null, label);
          return;
        }
        found += 1;
        longest = Math.max(longest, hops);
        assertValidPath(paths[i], graph.edgeSet, from, to, hops, label);
      });
      assert.ok(found > PAIRS_PER_GRAPH / 4, `only ${found} pairs had a path: the test checks too little`);
      assert.ok(longest >= 4, `the longest path found has ${longest} hops: the test checks too little`);
    });

    test('neighbors and neighbors2 match the adjacency lists', async () => {
      for (let i = 1; i <= spec.nodes; i += 1) {
        const key = `P${i}`;
        assert.deepStrictEqual((await db.neighbors(key)).sort(), [...(graph.out.get(key) ?? [])].sort(), key);
        assert.deepStrictEqual((await db.neighbors2(key)).sort(), withinTwoHops(graph.out, key), key);
      }
    });
  });
}

describe('mysql description', () => {
  test('declares the contract fields', () => {
    assert.equal(mysql.id, 'mysql');
    assert.equal(mysql.kind, 'server');
    assert.equal(mysql.driver, 'mysql2');
    assert.equal(mysql.execution, 'parallel');
    assert.equal(mysql.server, 'mariadb');
    assert.deepStrictEqual(mysql.connection, {
      defaults: { host: '127.0.0.1', port: 3306, user: 'root', database: null },
      passwordEnv: 'BENCH_MYSQL_PASSWORD',
    });
    assert.deepStrictEqual(mysql.supports, [
      'singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
      'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
    ]);
    assert.deepStrictEqual(Object.keys(mysql.durability), ['singleWrite', 'singleWriteSync']);
    assert.equal(typeof mysql.testSupport.plantForeign, 'function');
  });
});
