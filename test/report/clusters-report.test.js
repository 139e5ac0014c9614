// Results of one database at different cluster sizes are a series, never pooled (results/report/clusters.js): each
// size is a database of the report of its own (`mysql@3`), and the clusters block puts them side by side per
// workload with the whole cluster's throughput, p50/p95, throughput per vCPU, network transfer, each node's disk
// writes and the conflicts counted, in every format. The documents are made up here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportBlocks } from '../../results/report/blocks.js';
import { reportId } from '../../results/report/clusters.js';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';
import { summarizeLatencies } from '../../results/stats.js';

const OPS = 1000;
const NAME = `50-50 n=${OPS} c=4`;
const MB = 1024 * 1024;

// One run of `ms` milliseconds whose operations took 1..1000 µs times `scale`; on `nodes` nodes (null: one server),
// each of which took 1 MB from clients, sent 1 MB back, received 2 MB of replication and wrote `diskMB` to disk.
function run(ms, scale, nodes, diskMB = 4) {
  const latencies = Array.from({ length: OPS }, (_, i) => ((i + 1) / 1000) * scale);
  const perNode = Array.from({ length: nodes ?? 0 }, (_, i) => ({
    endpoint: `127.0.0.1:${23306 + 10 * i}`, statements: OPS / nodes, bytesReceived: MB, bytesSent: MB, receivedBytes: 2 * MB,
    replicatedBytes: MB, certificationFailures: 1,
  }));
  return {
    run: 1, valid: true, ms, opsPerSec: Math.round(OPS / (ms / 1000)), errors: 0, ...summarizeLatencies(latencies),
    resources: nodes === null ? null : {
      server: { nodes: perNode.map((node, i) => ({ name: `n${i + 1}`, endpoint: node.endpoint, io: { writeBytes: (diskMB + i) * MB } })) },
    },
    ...(nodes === null ? {} : { nodes: perNode }),
  };
}

function documentOf(nodes, runs, { failed = false } = {}) {
  const entry = failed
    ? { supported: true, compared: true, operation: 'updateDocument', description: '50-50', ops: OPS, status: 'failed', valid: false, summary: null, resources: null, failures: [], runs: [{ run: 1, valid: false, errors: 1, failed: 1, reason: '1 operations failed', resources: null }] }
    : { supported: true, compared: true, operation: 'updateDocument', description: '50-50', ops: OPS, status: 'passed', valid: true, summary: null, resources: null, failures: [], runs };
  entry.params = { ops: OPS, records: 100, distribution: 'zipfian', concurrency: 4, durable: false };
  return {
    file: `mysql-${nodes ?? 'server'}.json`,
    result: {
      schema: 'db-shootout/result@1', suite: 'mixed', harness: { name: 'db-shootout', version: '1', commit: null },
      db: { id: 'mysql', name: 'MySQL/MariaDB', version: '10.11', execution: 'parallel', settings: {} },
      dataset: { id: 'mixed-zipfian-r100-s1', name: 'mixed documents', shape: 'uniform', seed: 1, documents: 100 },
      config: { concurrency: [4], records: 100, ops: [OPS], rates: [], distribution: 'zipfian', durable: false, runs: runs.length },
      environment: { cpu: 'cpu', cores: 2, memoryBytes: 1, os: 'linux', hostname: 'host', node: '20' },
      import: null, resources: null, complete: true, interrupted: false, error: null, workloads: { [NAME]: entry },
      ...(nodes === null ? {} : {
        topology: {
          kind: 'galera', nodes: Array.from({ length: nodes }, (_, i) => ({ name: `n${i + 1}`, endpoint: `127.0.0.1:${23306 + 10 * i}` })),
          machine: { shared: true, vcpus: 2, memoryBytes: 1 },
        },
      }),
    },
  };
}

// One server: 500 ms (2,000 ops/s); 1 node 400 ms; 2 nodes two runs of 250 and 350 ms; 3 nodes failed.
const documents = [
  documentOf(null, [run(500, 1, null)]),
  documentOf(1, [run(400, 1, 1)]),
  documentOf(2, [run(250, 2, 2), { ...run(350, 2, 2), run: 2 }]),
  documentOf(3, [], { failed: true }),
];

test('each cluster size is reported apart, under its database and size', () => {
  assert.deepEqual(documents.map(({ result }) => reportId(result)), ['mysql', 'mysql@1', 'mysql@2', 'mysql@3']);
  const report = buildReport(documents, {});
  assert.deepEqual(report.databases.map((database) => [database.id, database.name]),
    [['mysql', 'MySQL/MariaDB'], ['mysql@1', 'MySQL/MariaDB, 1 node'], ['mysql@2', 'MySQL/MariaDB, 2 nodes'], ['mysql@3', 'MySQL/MariaDB, 3 nodes']]);
  // Never pooled: the 2-node runs alone make mysql@2's figure.
  const [workload] = report.workloads;
  assert.equal(workload.results['mysql@2'].runs, 2);
  assert.equal(workload.results.mysql.runs, 1);
});

test('the series: throughput, latency, per vCPU, network and disk per node, conflicts, against the nodes', () => {
  const { clusters } = buildReport(documents, {});
  assert.equal(clusters.series.length, 1);
  const [series] = clusters.series;
  assert.equal(series.workload, NAME);
  assert.deepEqual(series.points.map((p) => [p.id, p.nodes, p.status]),
    [['mysql', null, 'passed'], ['mysql@1', 1, 'passed'], ['mysql@2', 2, 'passed'], ['mysql@3', 3, 'failed']]);
  const [server, one, two, three] = series.points;
  assert.equal(server.opsPerSec, 2000);
  assert.equal(server.opsPerSecPerVcpu, null, 'one server without a cluster has no vCPU figure of its own');
  assert.equal(one.opsPerSec, 2500);
  assert.equal(one.opsPerSecPerVcpu, 1250);
  // Two runs: 4,000 and 2,857 ops/s, their median 3,429; latencies of both runs' histograms together.
  assert.equal(two.opsPerSec, 3429);
  assert.equal(two.runs, 2);
  assert.ok(Math.abs(two.latencyMs.p50 - 1) < 0.01 && Math.abs(two.latencyMs.p95 - 1.9) < 0.01, JSON.stringify(two.latencyMs));
  // Per node 1 + 1 + 2 MB crossed the network; 2 nodes in 0.25 and 0.35 s: 32 and 22.9 MB/s, median 27.4.
  assert.ok(Math.abs(two.networkBytesPerSec / MB - (8 / 0.25 + 8 / 0.35) / 2) < 0.01, String(two.networkBytesPerSec / MB));
  // Node 1 wrote 4 MB, node 2 5 MB: 4.5 MB a node on average, 5 at most.
  assert.ok(Math.abs(two.diskWriteBytesPerSecPerNode.mean / MB - (4.5 / 0.25 + 4.5 / 0.35) / 2) < 0.01);
  assert.ok(Math.abs(two.diskWriteBytesPerSecPerNode.max / MB - (5 / 0.25 + 5 / 0.35) / 2) < 0.01);
  assert.equal(two.conflicts, 4, 'one a node in each of two runs');
  assert.equal(three.opsPerSec, undefined);
  assert.equal(three.runs, 0);
});

test('every format shows the series: table, Markdown, CSV rows of their own, and the HTML chart', () => {
  const report = buildReport(documents, {});
  const block = reportBlocks(report).find((one) => one.id === 'clusters');
  assert.deepEqual(block.rows.map((row) => row.slice(1, 5)),
    [['mysql', 'one server', 'ok', '2,000'], ['mysql@1', '1', 'ok', '2,500'], ['mysql@2', '2', 'ok', '3,429'], ['mysql@3', '3', 'failed', '']]);
  assert.equal(block.rows[2][7], '1,714 (2 shared)');
  const text = REPORT_FORMATS.table(report);
  assert.match(text, /Cluster size: throughput of the whole cluster against its nodes:/);
  assert.match(REPORT_FORMATS.markdown(report), /## Cluster size: throughput of the whole cluster against its nodes/);
  const csv = REPORT_FORMATS.csv(report).trim().split('\n').map((line) => line.split(','));
  const header = csv[0];
  assert.equal(new Set(header).size, header.length, 'no column name twice');
  const rows = csv.filter((row) => row[0] === 'cluster');
  assert.equal(rows.length, 4);
  const column = (name) => header.indexOf(name);
  assert.deepEqual(rows.map((row) => row[column('cluster_nodes')]), ['0', '1', '2', '3']);
  assert.equal(rows[2][column('ops_per_sec')], '3429');
  assert.equal(rows[2][column('cluster_conflicts')], '4');
  assert.ok(csv.every((row) => row.length === header.length), 'every row has every column');
  const html = REPORT_FORMATS.html(report);
  const data = JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);
  assert.deepEqual(data.clusters.charts[0].labels, ['one server', '1 node', '2 nodes', '3 nodes']);
  assert.deepEqual(data.clusters.charts[0].lines[0].opsPerSec, [2000, 2500, 3429, null]);
  assert.deepEqual(data.clusters.charts[0].lines[0].missing, ['3: failed']);
  assert.match(html, /id="chart-clusters"/);
});

test('a cluster the harness does not own: its vCPUs are --node-vcpus times its nodes', () => {
  const remote = documentOf(2, [run(500, 1, 2)]);
  remote.result.topology = { kind: 'galera', nodes: remote.result.topology.nodes, nodeVcpus: 4 };
  const [point] = buildReport([remote], {}).clusters.series[0].points;
  assert.equal(point.vcpus, 8);
  assert.equal(point.vcpusShared, false);
  assert.equal(point.opsPerSecPerVcpu, 250);
});

test('results of no cluster have no series', () => {
  assert.equal(buildReport([documents[0]], {}).clusters, undefined);
});
