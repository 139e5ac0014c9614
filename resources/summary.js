// Run figures gathered into the figures of a workload and of the whole suite (pure functions over the
// result document's runs).
import { sumIo } from './io.js';

const round1 = (value) => Math.round(value * 10) / 10;

function maxOf(values) {
  const numbers = values.filter((value) => typeof value === 'number');
  return numbers.length > 0 ? Math.max(...numbers) : null;
}

// The mean of per-run means, each weighted by the time its samples span.
function weightedMean(servers, field) {
  const weighted = servers.filter((server) => typeof server[field] === 'number' && server.ms > 0);
  const span = weighted.reduce((total, server) => total + server.ms, 0);
  if (span === 0) return maxOf(servers.map((server) => server[field]));
  return weighted.reduce((total, server) => total + server[field] * server.ms, 0) / span;
}

function measured(runs) {
  return runs.map((run) => run.resources).filter(Boolean);
}

// `figures` with `io`, the sum of the runs' figures, when any of them carries I/O counters (see sumIo).
function withIo(figures, runs) {
  const io = sumIo(runs.map((run) => run.io));
  return io === undefined ? figures : { ...figures, io };
}

// The highest of each client figure over the runs that have it (older results have none of these).
function worst(figures, names) {
  const out = {};
  for (const name of names) {
    const values = figures.map((figure) => figure.client[name]).filter((value) => typeof value === 'number');
    if (values.length > 0) out[name] = Math.max(...values);
  }
  return out;
}

// `workloads[w].resources`: peaks and maxima over the workload's runs; null before its first measured run.
export function workloadResources(runs) {
  const figures = measured(runs);
  if (figures.length === 0) return null;
  const servers = figures.map((figure) => figure.server).filter(Boolean);
  return {
    server: servers.length > 0
      ? withIo({ rssPeakBytes: maxOf(servers.map((s) => s.rssPeakBytes)), cpuPeakPct: maxOf(servers.map((s) => s.cpuPeakPct)) }, servers)
      : null,
    client: withIo({
      cpuPct: maxOf(figures.map((figure) => figure.client.cpuPct)),
      eventLoopDelayP99Ms: maxOf(figures.map((figure) => figure.client.eventLoopDelayP99Ms)),
      ...worst(figures, ['eventLoopUtilization', 'cpuPerOpUs', 'latencyShare']),
    }, figures.map((figure) => figure.client)),
    clientBound: figures.some((figure) => figure.clientBound),
  };
}

// The top-level `resources`: over every run of every workload (the import excluded). `server` is the sampled
// process ({ pid, source }) or null when no local server is known.
export function suiteResources(server, workloads) {
  const figures = Object.values(workloads).flatMap((entry) => measured(entry.runs));
  const servers = figures.map((figure) => figure.server).filter(Boolean);
  const rssMean = weightedMean(servers, 'rssMeanBytes');
  const cpuMean = weightedMean(servers, 'cpuMeanPct');
  return {
    server: server && withIo({
      pid: server.pid,
      source: server.source,
      // A server measured with its backend (FerretDB and the local PostgreSQL it keeps its data in): both processes.
      ...(servers.some((s) => s.parts) && { parts: servers.find((s) => s.parts).parts.map(({ name, pid }) => ({ name, pid })) }),
      rssPeakBytes: maxOf(servers.map((s) => s.rssPeakBytes)),
      rssMeanBytes: rssMean === null ? null : Math.round(rssMean),
      cpuPeakPct: maxOf(servers.map((s) => s.cpuPeakPct)),
      cpuMeanPct: cpuMean === null ? null : round1(cpuMean),
    }, servers),
    client: withIo({
      cpuPeakPct: maxOf(figures.map((figure) => figure.client.cpuPct)),
      eventLoopDelayP99MaxMs: maxOf(figures.map((figure) => figure.client.eventLoopDelayP99Ms)),
    }, figures.map((figure) => figure.client)),
  };
}
