// `bench k8s job`: the Kubernetes manifests of a sharded run, as YAML on stdout. Two batch/v1 Jobs:
//   - the load: an Indexed Job of n pods, each `bench run --shard index/<n>` (its index from JOB_COMPLETION_INDEX,
//     which Kubernetes sets in every pod of such a Job), all with the same run id, the database password from a
//     Secret, requests equal to limits (so no shard is throttled below what it asked for), and required
//     anti-affinity: at most one shard per node, since shards that share a node measure each other;
//   - the merge: one pod, created suspended, that `bench merge`s the partial results once the load is complete and
//     prints the merged document on stdout (`kubectl logs`).
// Both mount one ReadWriteMany PersistentVolumeClaim, where each shard writes its partial result.
import { stringify } from 'yaml';
import { loadAdapter } from '../adapters/index.js';
import { K8S_DEFAULTS as DEFAULTS } from '../core/defaults.js';
import { usageError } from '../core/errors.js';
import { checkShardedSuite, MAX_SHARDS } from '../runner/shards.js';
import { getSuite } from '../workloads/index.js';
import { ExitCodes } from './exit-codes.js';

const RESULTS_DIR = '/results';
// Flags the manifest sets itself for every shard.
const RESERVED = ['shard', 'run-id', 'out', 'json', 'db', 'suite', 'start-at'];
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUANTITY = /^\d+(\.\d+)?(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/;

// A run id of this moment: the Job's name and the shards' --run-id.
export function defaultRunId(suite, db, now = new Date()) {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${suite}-${db}-${stamp}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

function checkRunFlags(flags) {
  for (const flag of flags) {
    const name = /^--(?:no-)?([^=]+)/.exec(flag)?.[1];
    if (name && RESERVED.includes(name)) throw usageError(`--${name} after "--" is set by bench k8s job itself; leave it out`);
  }
  const hasHost = flags.some((flag) => /^--host(=|$)/.test(flag));
  if (!hasHost) {
    throw usageError('the shards run in the cluster: name the database server after "--" with --host (its Service\'s DNS name), '
      + 'e.g. bench k8s job ... -- --host postgres.bench.svc --workload read-only');
  }
}

// The two Jobs as plain objects (batch/v1).
export function jobManifests({
  db, suite, shards, image, runId, namespace = null, passwordEnv = null, secret = DEFAULTS.secret, secretKey = DEFAULTS.secretKey,
  claim = DEFAULTS.claim, cpu = DEFAULTS.cpu, memory = DEFAULTS.memory, shardWait = DEFAULTS.shardWait, runFlags = [],
}) {
  const labels = { 'app.kubernetes.io/name': 'db-shootout', 'db-shootout/run': runId };
  const metadata = (name, component) => ({
    name, ...(namespace ? { namespace } : {}), labels: { ...labels, 'app.kubernetes.io/component': component },
  });
  const volume = { name: 'results', persistentVolumeClaim: { claimName: claim } };
  const mount = { name: 'results', mountPath: RESULTS_DIR };
  const resources = { requests: { cpu, memory }, limits: { cpu, memory } };
  // The image's `node` user; fsGroup lets it write on the results volume.
  const securityContext = { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 };
  const out = `${RESULTS_DIR}/${runId}`;
  const load = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(runId, 'load'),
    spec: {
      completionMode: 'Indexed',
      completions: shards,
      parallelism: shards,
      // A shard started again would run its share apart from the others: a failed shard fails the run.
      backoffLimit: 0,
      template: {
        metadata: { labels: { ...labels, 'app.kubernetes.io/component': 'load' } },
        spec: {
          restartPolicy: 'Never',
          securityContext,
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [{
                labelSelector: { matchLabels: { 'db-shootout/run': runId, 'app.kubernetes.io/component': 'load' } },
                topologyKey: 'kubernetes.io/hostname',
              }],
            },
          },
          containers: [{
            name: 'shard',
            image,
            args: ['run', '--db', db, '--suite', suite, '--shard', `index/${shards}`, '--run-id', runId,
              '--shard-wait', String(shardWait), '--out', out, ...runFlags],
            ...(passwordEnv ? { env: [{ name: passwordEnv, valueFrom: { secretKeyRef: { name: secret, key: secretKey } } }] } : {}),
            resources,
            volumeMounts: [mount],
          }],
          volumes: [volume],
        },
      },
    },
  };
  const merge = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(`${runId}-merge`, 'merge'),
    spec: {
      // Resumed (kubectl patch) once the load Job is complete: before, its shards' results are not all there.
      suspend: true,
      completions: 1,
      parallelism: 1,
      backoffLimit: 0,
      template: {
        metadata: { labels: { ...labels, 'app.kubernetes.io/component': 'merge' } },
        spec: {
          restartPolicy: 'Never',
          securityContext,
          containers: [{
            name: 'merge',
            image,
            args: ['merge', out, '--out', `${out}.json`, '--json', '--quiet'],
            resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
            volumeMounts: [mount],
          }],
          volumes: [volume],
        },
      },
    },
  };
  return [load, merge];
}

export async function k8sCommand(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const description = await loadAdapter(argv.db);
  const suite = getSuite(argv.suite);
  checkShardedSuite(suite.id, `--suite ${suite.id}: the shards of bench k8s job run only`);
  if (description.kind !== 'server') throw usageError(`${description.name} runs inside the harness: there is no server for shards to share`);
  if (!Number.isInteger(argv.shards) || argv.shards < 1 || argv.shards > MAX_SHARDS) {
    throw usageError(`--shards must be a whole number from 1 to ${MAX_SHARDS}, got ${argv.shards}`);
  }
  const runId = argv['run-id'] ?? defaultRunId(suite.id, description.id);
  for (const [flag, value] of [['run-id', runId], ['secret', argv.secret], ['claim', argv.claim], ['namespace', argv['k8s-namespace']]]) {
    if (value !== undefined && value !== null && !(NAME.test(value) && value.length <= 52)) {
      throw usageError(`--${flag} must be a Kubernetes name (lower-case letters, digits and '-', at most 52), got "${value}"`);
    }
  }
  for (const [flag, value] of [['cpu', argv.cpu], ['memory', argv.memory]]) {
    if (!QUANTITY.test(String(value))) throw usageError(`--${flag} must be a Kubernetes quantity (2, 500m, 4Gi), got "${value}"`);
  }
  const runFlags = (argv['--'] ?? []).map(String);
  checkRunFlags(runFlags);
  const manifests = jobManifests({
    db: description.id,
    suite: suite.id,
    shards: argv.shards,
    image: argv.image,
    runId,
    namespace: argv['k8s-namespace'] ?? null,
    passwordEnv: description.connection?.passwordEnv ?? null,
    secret: argv.secret,
    claim: argv.claim,
    cpu: String(argv.cpu),
    memory: String(argv.memory),
    shardWait: argv['shard-wait'],
    runFlags,
  });
  stdout.write(manifests.map((manifest) => stringify(manifest)).join('---\n'));
  if (!argv.quiet) {
    stderr.write(`run ${runId}: kubectl apply -f <this file>; kubectl wait --for=condition=complete job/${runId} --timeout=2h; `
      + `kubectl patch job ${runId}-merge --type=merge -p '{"spec":{"suspend":false}}'; `
      + `kubectl wait --for=condition=complete job/${runId}-merge; kubectl logs job/${runId}-merge > ${runId}.json\n`);
  }
  return ExitCodes.OK;
}
