// What validation needs from the dataset, loaded once per invocation and outside every timed path:
// the profiles the selected workloads can return, and the graph when paths must be checked edge by edge.
export async function loadExpected(dataset, workloads) {
  const ids = new Set();
  for (const workload of workloads) {
    if (workload.profileIds) for (const id of workload.profileIds(dataset)) ids.add(id);
  }
  const profiles = ids.size > 0 ? await dataset.loadProfiles(ids) : new Map();
  const graph = workloads.some((workload) => workload.needsGraph) ? await dataset.loadGraph() : null;
  return { dataset, profiles, graph };
}
