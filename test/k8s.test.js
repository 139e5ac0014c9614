// bench k8s job (cli/k8s.js): the manifests it prints are validated offline against the Kubernetes API schema of
// batch/v1 Job (kubernetes-models, generated from Kubernetes' OpenAPI definitions), which a broken manifest fails;
// what they hold (Indexed, n pods, the shard from JOB_COMPLETION_INDEX, the password from a Secret, requests and
// limits, anti-affinity, the results volume, the suspended merge); and the refusals. test/shards.test.js runs the
// arguments they hold, one process per shard.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { parseAllDocuments } from 'yaml';
import { jobManifests, k8sCommand } from '../cli/k8s.js';
import { spawnBench } from './helpers/cli.js';

const validate = (manifest) => new Job(manifest).validate();

describe('the manifests against the Kubernetes schema', () => {
  const [load, merge] = jobManifests({
    db: 'postgresql', suite: 'mixed', shards: 4, image: 'db-shootout:1', runId: 'mixed-postgresql-1', passwordEnv: 'BENCH_PG_PASSWORD',
    runFlags: ['--host', 'postgres.bench.svc'],
  });

  test('both Jobs are valid batch/v1 Jobs', () => {
    validate(load);
    validate(merge);
  });

  test('a broken one is not', () => {
    const broken = (change) => {
      const manifest = structuredClone(load);
      change(manifest);
      return () => validate(manifest);
    };
    assert.throws(broken((m) => { m.spec.completionMode = 'Sometimes'; }), /completionMode must be equal to one of the allowed values/);
    assert.throws(broken((m) => { m.spec.parallelism = '4'; }), /parallelism must be integer/);
    assert.throws(broken((m) => { delete m.spec.template.spec.containers[0].name; }), /must have required property name/);
    assert.throws(broken((m) => { m.spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef = { name: 'x' }; }),
      /must have required property key/);
    assert.throws(broken((m) => { delete m.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey; }),
      /must have required property topologyKey/);
  });
});

describe('bench k8s job', () => {
  const run = (args) => spawnBench(['k8s', 'job', ...args]);

  test('prints the load Job and the merge Job as YAML', async () => {
    const { code, stdout, stderr } = await run(['--db', 'postgresql', '--suite', 'mixed', '--shards', '4', '--image', 'reg.example/db-shootout:1',
      '--run-id', 'run-7', '--', '--host', 'postgres.bench.svc', '--workload', 'read-only', '--ops', '1000000']);
    assert.equal(code, 0, stderr);
    const documents = parseAllDocuments(stdout).map((document) => document.toJS());
    assert.equal(documents.length, 2);
    documents.forEach(validate);
    const [load, merge] = documents;
    assert.equal(load.metadata.name, 'run-7');
    assert.equal(load.spec.completionMode, 'Indexed');
    assert.equal(load.spec.completions, 4);
    assert.equal(load.spec.parallelism, 4);
    const pod = load.spec.template.spec;
    const [container] = pod.containers;
    assert.deepEqual(container.args, ['run', '--db', 'postgresql', '--suite', 'mixed', '--shard', 'index/4', '--run-id', 'run-7',
      '--shard-wait', '600', '--out', '/results/run-7', '--host', 'postgres.bench.svc', '--workload', 'read-only', '--ops', '1000000']);
    assert.deepEqual(container.env, [{ name: 'BENCH_PG_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-shootout-db', key: 'password' } } }]);
    assert.doesNotMatch(stdout, /value: /, 'no value inline');
    assert.deepEqual(container.resources, { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } });
    const [spread] = pod.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
    assert.equal(spread.topologyKey, 'kubernetes.io/hostname');
    assert.deepEqual(spread.labelSelector.matchLabels, { 'db-shootout/run': 'run-7', 'app.kubernetes.io/component': 'load' });
    assert.equal(load.spec.template.metadata.labels['db-shootout/run'], 'run-7');
    assert.deepEqual(pod.volumes, [{ name: 'results', persistentVolumeClaim: { claimName: 'db-shootout-results' } }]);
    assert.equal(pod.securityContext.fsGroup, 1000, 'the image\'s user may write on the volume');
    assert.equal(merge.spec.suspend, true);
    assert.deepEqual(merge.spec.template.spec.containers[0].args, ['merge', '/results/run-7', '--out', '/results/run-7.json', '--json', '--quiet']);
    assert.match(stderr, /kubectl patch job run-7-merge/);
  });

  test('with no action says what it needs', async () => {
    const { code, stderr } = await spawnBench(['k8s']);
    assert.equal(code, 2);
    assert.match(stderr, /^error: bench k8s needs what to print: bench k8s job --db <id>/);
  });

  test('refuses what the shards could not run, with exit code 2', async () => {
    const base = ['--db', 'postgresql', '--shards', '2', '--image', 'i'];
    const { code, stderr } = await run(base);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^error: the shards run in the cluster: name the database server after "--" with --host/);
    const argv = (flags, rest = ['--host', 'h']) => ({
      db: 'postgresql', suite: 'mixed', shards: 2, image: 'i', secret: 's', claim: 'c', cpu: '1', memory: '1Gi', 'shard-wait': 5,
      ...flags, '--': rest,
    });
    const refusals = [
      [argv({}, ['--host', 'h', '--shard', '0/2']), /--shard after "--" is set by bench k8s job itself/],
      [argv({ suite: 'social' }), /^--suite social: the shards of bench k8s job run only the mixed suite; the social suite's checks/],
      [argv({ db: 'sqlite' }), /runs inside the harness/],
      [argv({ shards: 0 }), /--shards must be a whole number from 1/],
      [argv({ cpu: 'lots' }), /--cpu must be a Kubernetes quantity/],
      [argv({ 'run-id': 'Run_1' }), /--run-id must be a Kubernetes name/],
    ];
    for (const [given, message] of refusals) {
      await assert.rejects(k8sCommand(given, { stdout: { write() {} }, stderr: { write() {} } }), { code: 'E_USAGE', message });
    }
  });
});
