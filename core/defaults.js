// Defaults the command line shows in its help and the commands apply, kept apart from the commands themselves so
// that `bench` loads a command's code only when that command runs.

// The dataset `bench check` runs its validated workloads on.
export const CHECK_SCALE = 'tiny';

// Crashes per write mode of `bench crash`.
export const DEFAULT_TRIALS = 5;

// What `bench k8s job` names and asks for unless told otherwise.
export const K8S_DEFAULTS = Object.freeze({
  secret: 'db-shootout-db',
  secretKey: 'password',
  claim: 'db-shootout-results',
  cpu: '2',
  memory: '2Gi',
  shardWait: 600,
});
