// Every workload check of workloads/social/workloads.js, fed the right answers (from the memory store) and then each kind of
// wrong answer it exists to catch, one at a time, over a hand-made validation context.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildGraph } from '../../datasets/graph.js';
import { loadExpected } from '../../workloads/social/expected.js';
import { WORKLOADS } from '../../workloads/social/workloads.js';
import { makeContext, makeStore, PATH_LENGTHS, withField, withoutField } from './context.js';

const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

const workload = (name) => WORKLOADS.find((w) => w.name === name);
let ctx;
let store;

before(async () => {
  ctx = makeContext();
  store = await makeStore();
});

async function rightAnswers(name) {
  const { call, inputs } = workload(name);
  return Promise.all(inputs(ctx).map((input) => call(store, input)));
}

// The failures of `name` when `change` alters a copy of the right answers.
async function failuresWith(name, change, context = ctx) {
  const answers = await rightAnswers(name);
  change(answers);
  return workload(name).check(context, workload(name).inputs(ctx), answers);
}

function assertOneFailure(failures, input, problem) {
  assert.equal(failures.length, 1, JSON.stringify(failures));
  assert.deepEqual(failures[0].input, input);
  assert.match(failures[0].problem, problem);
}

// A context whose profile `id` holds one more own field than the store's.
function contextWithField(id, field, value) {
  const profiles = new Map(ctx.profiles);
  profiles.set(id, withField(profiles.get(id), field, value));
  return { ...ctx, profiles };
}

test('the context is the one drawn by hand', () => {
  assert.deepEqual(ctx.dataset.reference.pathLengths, PATH_LENGTHS);
  assert.deepEqual(ctx.dataset.reference.neighbors, [[2, 5], [3], [6]]);
  assert.deepEqual(ctx.dataset.reference.neighbors2, [[2, 3, 4, 5], [3, 4], [1, 6]]);
  assert.deepEqual(ctx.dataset.reference.ageHistogram, { 0: 1, 19: 1, 25: 2, 30: 2, null: 1 });
});

test('the right answers pass every check', async () => {
  for (const { name } of WORKLOADS) {
    if (name === 'singleWrite' || name === 'singleWriteSync') continue;
    assert.deepEqual(await failuresWith(name, () => {}), [], name);
  }
});

test('each workload loads exactly the profiles its check compares, and the graph only to check paths', async () => {
  const dataset = {
    ...ctx.dataset,
    loadProfiles: async (ids) => new Map([...ids].map((id) => [id, ctx.profiles.get(id)])),
    loadGraph: async () => ctx.graph,
  };
  const profileIds = {
    warmup: [2, 7], singleRead: [1, 3, 5], singleWrite: [1, 3, 5], singleWriteSync: [1, 3],
    neighborsData: [2, 3, 5, 6], neighbors2data: [2, 3, 4, 5],
  };
  for (const w of WORKLOADS) {
    const expected = await loadExpected(dataset, [w]);
    assert.deepEqual([...expected.profiles.keys()].sort(), profileIds[w.name] ?? [], w.name);
    assert.equal(expected.graph, w.name === 'shortestPath' ? ctx.graph : null, w.name);
    const inputs = w.inputs(expected);
    const stored = { readCollection: async () => inputs.map((doc) => ({ ...doc })) };
    const answers = w.name.startsWith('singleWrite') ? [] : await rightAnswers(w.name);
    assert.deepEqual(await w.check(expected, inputs, answers, stored), [], w.name);
  }
});

test('a profile missing from the context is an internal error, never a pass', async () => {
  const profiles = new Map(ctx.profiles);
  profiles.delete(3);
  for (const name of ['singleRead', 'neighborsData', 'neighbors2data']) {
    await assert.rejects(async () => failuresWith(name, () => {}, { ...ctx, profiles }),
      /^Error: internal: profile 3 was not loaded for validation$/, name);
  }
});

test('paths are asked for with the bound of 15 hops', async () => {
  const calls = [];
  const adapter = { shortestPath: async (...args) => { calls.push(args); return null; } };
  await workload('shortestPath').call(adapter, ['P1', 'P4']);
  await workload('hardPath').call(adapter, ['P1', 'P7']);
  assert.deepEqual(calls, [['P1', 'P4', 15], ['P1', 'P7', 15]]);
});

for (const name of ['singleRead', 'warmup']) {
  describe(`${name} check`, () => {
    test('every wrong document fails, the last one included', async () => {
      const failures = await failuresWith(name, (answers) => {
        answers[0] = { ...answers[0], AGE: 99 };
        answers[answers.length - 1] = { ...answers.at(-1), public: 7 };
      });
      assert.equal(failures.length, 2);
      assert.match(failures[0].problem, /^field AGE: expected \d+, got 99$/);
      assert.match(failures[1].problem, /^field public: expected \d, got 7$/);
    });

    test('an extra field, a missing field, a retyped field and a null field for an absent one fail', async () => {
      const key = (await rightAnswers(name)).at(-1)._key;
      const cases = [
        [(doc) => ({ ...doc, hobbies: 'šport' }), /^unexpected field hobbies/],
        [(doc) => withoutField(doc, 'public'), /^missing field public: expected \d$/],
        [(doc) => ({ ...doc, public: String(doc.public) }), /^field public: expected \d, got "\d"$/],
        [(doc) => ({ ...doc, pets: null }), /^unexpected field pets: null$/],
        [() => null, /^expected a document, got null$/],
        [(doc) => [doc], /^expected a document/],
      ];
      for (const [wrong, problem] of cases) {
        assertOneFailure(await failuresWith(name, (answers) => { answers[answers.length - 1] = wrong(answers.at(-1)); }), key, problem);
      }
    });

    for (const field of INHERITED) {
      test(`a field named ${field} fails as an extra field and as a missing one`, async () => {
        const answers = await rightAnswers(name);
        const key = answers[0]._key;
        assertOneFailure(await failuresWith(name, (a) => { a[0] = withField(a[0], field, 'x'); }), key,
          new RegExp(`^unexpected field ${field}: "x"$`));
        const ids = name === 'warmup' ? ctx.dataset.params.warmupIds : ctx.dataset.params.readIds;
        assertOneFailure(await failuresWith(name, () => {}, contextWithField(ids[0], field, 'x')), key,
          new RegExp(`^missing field ${field}: expected "x"$`));
      });
    }
  });
}

for (const name of ['neighbors', 'neighbors2']) {
  describe(`${name} check`, () => {
    test('a duplicated, missing or extra key fails, in any answer', async () => {
      const cases = [
        [(keys) => [...keys, keys[0]], /^duplicate key "P\d"$/],
        [(keys) => keys.slice(1), /missing \["P\d"\], extra \[\]/],
        [(keys) => [...keys, 'P7'], /missing \[\], extra \["P7"\]/],
        [(keys) => [...keys.slice(1), 'P7'], /missing \["P\d"\], extra \["P7"\]/],
        [(keys) => keys.map((key) => Number(key.slice(1))), /missing \["P\d.*extra \[\d/],
        [() => null, /^expected an array of keys, got null$/],
        [() => [], /missing \["P\d/],
      ];
      for (const [wrong, problem] of cases) {
        for (const index of [0, 2]) {
          const failures = await failuresWith(name, (answers) => { answers[index] = wrong(answers[index]); });
          assertOneFailure(failures, `P${ctx.dataset.params.neighborStarts[index]}`, problem);
        }
      }
    });
  });
}

test('neighbors2 without the start: the start in its own answer fails', async () => {
  assertOneFailure(await failuresWith('neighbors2', (answers) => { answers[0] = [...answers[0], 'P1']; }), 'P1',
    /extra \["P1"\]/);
});

for (const name of ['neighborsData', 'neighbors2data']) {
  describe(`${name} check`, () => {
    const last = (answers) => answers.length - 1;

    test('a wrong second or last document fails', async () => {
      for (const position of [1, -1]) {
        const failures = await failuresWith(name, (answers) => {
          const docs = [...answers[0]];
          docs[(position + docs.length) % docs.length] = { ...docs.at(position), public: 7 };
          answers[0] = docs;
        });
        assertOneFailure(failures, 'P1', /^P\d: field public: expected \d, got 7$/);
      }
    });

    test('a wrong document in the last answer fails', async () => {
      const failures = await failuresWith(name, (answers) => {
        const docs = answers[last(answers)];
        answers[last(answers)] = [...docs.slice(0, -1), withoutField(docs.at(-1), 'AGE')];
      });
      const start = `P${ctx.dataset.params[name === 'neighborsData' ? 'neighborStarts' : 'neighbors2dataStarts'].at(-1)}`;
      assertOneFailure(failures, start, /^P\d: missing field AGE: expected \d+$/);
    });

    test('a missing, extra, duplicated or keyless document fails', async () => {
      const cases = [
        [(docs) => docs.slice(0, -1), /missing \["P\d"\], extra \[\]/],
        [(docs) => [...docs, { _key: 'P7', public: 1, AGE: 19 }], /missing \[\], extra \["P7"\]/],
        [(docs) => [...docs, docs[1]], /^duplicate key "P\d"$/],
        [(docs) => [...docs.slice(0, -1), withoutField(docs.at(-1), '_key')], /missing \["P\d"\], extra \[null\]/],
        [(docs) => [...docs.slice(0, -1), null], /extra \[null\]/],
        [(docs) => docs.map((doc) => doc._key), /^duplicate key undefined$/],
        [() => null, /^expected an array of documents, got null$/],
        [() => [], /missing \["P\d/],
      ];
      for (const [wrong, problem] of cases) {
        assertOneFailure(await failuresWith(name, (answers) => { answers[0] = wrong(answers[0]); }), 'P1', problem);
      }
    });

    test('a document with an extra field, a retyped field or a null field fails', async () => {
      const cases = [
        [(doc) => ({ ...doc, hobbies: 'šport' }), /unexpected field hobbies/],
        [(doc) => ({ ...doc, public: String(doc.public) }), /field public: expected \d, got "\d"/],
        [(doc) => ({ ...doc, body_type: null }), /unexpected field body_type: null/],
      ];
      for (const [wrong, problem] of cases) {
        const failures = await failuresWith(name, (answers) => { answers[0] = [...answers[0].slice(0, -1), wrong(answers[0].at(-1))]; });
        assertOneFailure(failures, 'P1', problem);
      }
    });

    for (const field of INHERITED) {
      test(`a field named ${field} fails as an extra field and as a missing one`, async () => {
        const answers = await rightAnswers(name);
        const lastKey = answers[0].at(-1)._key;
        const extra = await failuresWith(name, (a) => { a[0] = [...a[0].slice(0, -1), withField(a[0].at(-1), field, 1)]; });
        assertOneFailure(extra, 'P1', new RegExp(`^${lastKey}: unexpected field ${field}: 1$`));
        const missing = await failuresWith(name, () => {}, contextWithField(Number(lastKey.slice(1)), field, 1));
        assert.ok(missing.length >= 1);
        assert.equal(missing[0].input, 'P1');
        assert.match(missing[0].problem, new RegExp(`^${lastKey}: missing field ${field}: expected 1$`));
      });
    }
  });
}

describe('aggregation check', () => {
  const cases = [
    ['a missing bucket', (h) => withoutField(h, '25'), /^AGE 25: expected 2, got no bucket$/],
    ['a missing null bucket', (h) => withoutField(h, 'null'), /^AGE null: expected 1, got no bucket$/],
    ['an extra bucket', (h) => ({ ...h, 31: 1 }), /^AGE 31: expected no bucket, got 1$/],
    ['an extra empty bucket', (h) => ({ ...h, 31: 0 }), /^AGE 31: expected no bucket, got 0$/],
    ['a count as a string', (h) => ({ ...h, 30: '2' }), /^AGE 30: expected 2, got "2"$/],
    ['a wrong count', (h) => ({ ...h, 0: 2 }), /^AGE 0: expected 1, got 2$/],
    ['an inherited name as a bucket', (h) => withField(h, 'constructor', 1), /^AGE constructor: expected no bucket, got 1$/],
    ['no histogram', () => null, /^expected an object of counts, got null$/],
    ['an empty histogram', () => ({}), /^AGE 0: expected 1, got no bucket$/],
  ];
  for (const [what, wrong, problem] of cases) {
    test(`${what} fails`, async () => {
      assertOneFailure(await failuresWith('aggregation', (answers) => { answers[0] = wrong(answers[0]); }), null, problem);
    });
  }
});

describe('shortestPath check', () => {
  // PATH_PAIRS: [1, 4] 2 hops (1 5 4), [1, 3] 2 hops (1 2 3), [4, 1] 2 hops (4 6 1), [1, 6] 3 hops, [1, 7] none.
  const cases = [
    ['a first step that is no relation', 0, ['P1', 'P3', 'P4'], /^P1 -> P3 is not a relation of the dataset$/],
    ['a last step that is no relation', 0, ['P1', 'P2', 'P4'], /^P2 -> P4 is not a relation of the dataset$/],
    ['a path against the direction of the relations', 2, ['P4', 'P5', 'P1'], /^P4 -> P5 is not a relation/],
    ['one hop too many, every step a relation', 0, ['P1', 'P2', 'P3', 'P4'], /^expected a path of 2 hops, got 3/],
    ['one hop too few', 3, ['P1', 'P5', 'P6'], /^expected a path of 3 hops, got 2/],
    ['the wrong start, every step a relation', 0, ['P2', 'P3', 'P4'], /^path must run from P1 to P4/],
    ['the wrong end, every step a relation', 1, ['P1', 'P5', 'P4'], /^path must run from P1 to P3/],
    ['reversed', 0, ['P4', 'P5', 'P1'], /^path must run from P1 to P4/],
    ['a key with a leading zero', 0, ['P1', 'P05', 'P4'], /^malformed key in path/],
    ['a lower-case key', 0, ['P1', 'p5', 'P4'], /^malformed key in path/],
    ['an id instead of a key', 0, ['P1', 5, 'P4'], /^malformed key in path/],
    ['a key outside the dataset', 0, ['P1', 'P99', 'P4'], /^P1 -> P99 is not a relation/],
    ['no path where there is one', 0, null, /^expected a path of 2 hops, got null$/],
    ['an empty path', 0, [], /^expected a path of 2 hops, got -1/],
    ['a path as a string', 0, 'P1,P5,P4', /^expected a path of 2 hops/],
    ['a path where there is none', 4, ['P1', 'P7'], /^expected null \(no path\), got \["P1","P7"\]$/],
    ['an empty path where there is none', 4, [], /^expected null \(no path\), got \[\]$/],
    ['undefined where there is no path', 4, undefined, /^expected null \(no path\), got undefined$/],
    ['false where there is no path', 4, false, /^expected null \(no path\), got false$/],
  ];
  for (const [what, index, path, problem] of cases) {
    test(`${what} fails`, async () => {
      const failures = await failuresWith('shortestPath', (answers) => { answers[index] = path; });
      const [from, to] = ctx.dataset.params.pathPairs[index];
      assertOneFailure(failures, [`P${from}`, `P${to}`], problem);
    });
  }

  test('a path of real relations one hop shorter than the reference fails', async () => {
    const lying = { ...ctx, dataset: { ...ctx.dataset, reference: { ...ctx.dataset.reference, pathLengths: [3, 2, 2, 3, -1] } } };
    const failures = await failuresWith('shortestPath', () => {}, lying);
    assertOneFailure(failures, ['P1', 'P4'], /^expected a path of 3 hops, got 2: \["P1","P5","P4"\]$/);
  });

  test('any of several equally short paths is right', async () => {
    // With 2 -> 4 added, 1 2 4 is as short as the store's 1 5 4.
    const graph = buildGraph(7, [1, 2, 3, 1, 5, 4, 6, 7, 2], [2, 3, 4, 5, 4, 6, 1, 1, 4]);
    const failures = await failuresWith('shortestPath', (answers) => { answers[0] = ['P1', 'P2', 'P4']; }, { ...ctx, graph });
    assert.deepEqual(failures, []);
  });
});

describe('hardPath check', () => {
  for (const wrong of [[], undefined, false, 0, '', ['P1', 'P7'], ['P1'], {}]) {
    test(`${JSON.stringify(wrong) ?? 'undefined'} is not "no path"`, async () => {
      const failures = await failuresWith('hardPath', (answers) => { answers[0] = wrong; });
      assertOneFailure(failures, ['P1', 'P7'], /^expected null \(no path\), got /);
    });
  }
});

for (const name of ['singleWrite', 'singleWriteSync']) {
  describe(`${name} check`, () => {
    const inputs = () => workload(name).inputs(ctx);

    // The failures when the temporary collection reads back as `stored`; the check must read it once, whole.
    async function storedFailures(stored, written = inputs()) {
      const reads = [];
      const adapter = { readCollection: async (collection) => { reads.push(collection); return stored; } };
      const failures = await workload(name).check(ctx, written, [], adapter);
      assert.deepEqual(reads, [name]);
      return failures;
    }

    const copies = () => inputs().map((doc) => ({ ...doc }));

    test('every written document, in any order, passes', async () => {
      assert.equal(inputs().length, name === 'singleWrite' ? 3 : 2);
      assert.deepEqual(await storedFailures(copies().reverse()), []);
    });

    test('through the memory store, the stored documents pass and the collection is dropped after', async () => {
      const adapter = await makeStore();
      await workload(name).setup(adapter);
      assert.deepEqual(await adapter.readCollection(name), []);
      for (const doc of inputs()) await workload(name).call(adapter, doc);
      assert.deepEqual(await workload(name).check(ctx, inputs(), [], adapter), []);
      await workload(name).teardown(adapter);
      await assert.rejects(adapter.readCollection(name), /no temporary collection/);
    });

    test('more documents than written fail', async () => {
      const failures = await storedFailures([...copies(), { ...copies()[0], _key: 'W9' }]);
      const count = inputs().length;
      assert.deepEqual(failures.map((f) => f.input), [`${count} documents`, 'W9']);
      assert.equal(failures[0].problem, `the collection holds ${count + 1} documents`);
      assert.match(failures[1].problem, /^a document that was not written: \{"_key":"W9"/);
    });

    test('fewer documents than written fail, the last one missing', async () => {
      const failures = await storedFailures(copies().slice(0, -1));
      const count = inputs().length;
      assert.deepEqual(failures.map((f) => f.input), [`${count} documents`, `W${count}`]);
      assert.equal(failures[0].problem, `the collection holds ${count - 1} documents`);
      assert.match(failures[1].problem, /^not in the collection; written \{/);
    });

    test('an empty collection fails for every write', async () => {
      const failures = await storedFailures([]);
      assert.equal(failures.length, 1 + inputs().length);
    });

    test('a key stored twice fails, with as many documents as written', async () => {
      const docs = copies();
      docs[0] = { ...docs[1] };
      const failures = await storedFailures(docs);
      assert.deepEqual(failures.map((f) => [f.input, f.problem]), [['W2', 'stored more than once'],
        ['W1', failures[1].problem]]);
      assert.match(failures[1].problem, /^not in the collection/);
    });

    test('a key stored twice fails, with one document more than written', async () => {
      const failures = await storedFailures([...copies(), copies()[1]]);
      assert.deepEqual(failures.map((f) => f.input), [`${inputs().length} documents`, 'W2']);
      assert.equal(failures[1].problem, 'stored more than once');
    });

    test('one wrong field, an extra field or a missing field in the last document fails', async () => {
      const key = `W${inputs().length}`;
      const cases = [
        [(doc) => ({ ...doc, public: doc.public + 1 }), /^field public: expected \d, got \d$/],
        [(doc) => ({ ...doc, public: String(doc.public) }), /^field public: expected \d, got "\d"$/],
        [(doc) => ({ ...doc, hobbies: 'šport' }), /^unexpected field hobbies: "šport"$/],
        [(doc) => ({ ...doc, pets: null }), /^unexpected field pets: null$/],
        [(doc) => withoutField(doc, 'public'), /^missing field public: expected \d$/],
        [(doc) => ({ ...doc, _key: key, _id: 'temp/1' }), /^unexpected field _id/],
      ];
      for (const [wrong, problem] of cases) {
        const docs = copies();
        docs[docs.length - 1] = wrong(docs.at(-1));
        assertOneFailure(await storedFailures(docs), key, problem);
      }
    });

    test('a document without a key, or no document at all, fails', async () => {
      const docs = copies();
      docs[1] = withoutField(docs[1], '_key');
      const failures = await storedFailures(docs);
      assert.deepEqual(failures.map((f) => f.input), [undefined, 'W2']);
      assert.match(failures[0].problem, /^a document that was not written/);

      const nulls = await storedFailures([...copies().slice(0, -1), null]);
      assert.deepEqual(nulls.map((f) => f.input), [undefined, `W${inputs().length}`]);
    });

    test('an answer that is not an array fails', async () => {
      for (const stored of [null, undefined, {}, inputs().length]) {
        assertOneFailure(await storedFailures(stored), `${inputs().length} documents`, /^expected an array of documents, got /);
      }
    });

    for (const field of INHERITED) {
      test(`a field named ${field} fails as an extra field and as a missing one`, async () => {
        const docs = copies();
        docs[docs.length - 1] = withField(docs.at(-1), field, 1);
        const key = `W${docs.length}`;
        assertOneFailure(await storedFailures(docs), key, new RegExp(`^unexpected field ${field}: 1$`));

        const written = inputs();
        written[written.length - 1] = withField(written.at(-1), field, 1);
        assertOneFailure(await storedFailures(copies(), written), key, new RegExp(`^missing field ${field}: expected 1$`));
      });
    }
  });
}

test('loadExpected reads only what the selected workloads check: the profiles they can return, the graph when one needs it', async () => {
  const calls = [];
  const dataset = {
    loadProfiles: async (ids) => { calls.push(['profiles', [...ids].sort((a, b) => a - b)]); return new Map([...ids].map((id) => [id, { id }])); },
    loadGraph: async () => { calls.push(['graph']); return 'the graph'; },
  };
  const plain = { name: 'plain' };
  const reads = (ids) => ({ name: 'reads', profileIds: () => ids });
  const paths = { name: 'paths', needsGraph: true };
  const none = await loadExpected(dataset, [plain, reads([])]);
  assert.deepEqual([calls, none.profiles, none.graph, none.dataset], [[], new Map(), null, dataset], 'nothing to read: no profile file, no graph');
  const some = await loadExpected(dataset, [reads([3, 1]), plain, reads([1, 7]), paths]);
  assert.deepEqual(calls, [['profiles', [1, 3, 7]], ['graph']], 'each id once; the graph when any workload needs it');
  assert.deepEqual([...some.profiles.keys()].sort(), [1, 3, 7]);
  assert.equal(some.graph, 'the graph');
});
