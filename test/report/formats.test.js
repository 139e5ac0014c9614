// The report's text formats (results/report/format-text.js, format-csv.js) on a report made up here: the table's
// alignment and its lists of one line and of several, Markdown's headings, alignment row, escaped cells and list
// items, and every CSV cell with its quoting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';

const latency = (ms) => ({ p50: ms / 10, p90: ms / 5, p99: ms / 2, max: ms, mean: ms / 10 });
const passed = (times, { ops = 10, compared = true } = {}) => ({
  supported: true, compared, status: 'passed', valid: true, ops, runs: times.map((ms, i) => ({ run: i + 1, valid: true, ms, errors: 0, latencyMs: latency(ms) })),
});
const document = (db, workloads, extra = {}) => ({
  file: `${db}.json`,
  result: {
    schema: 'db-shootout/result@1', db: { id: db, name: db, version: '1' }, dataset: { id: 'd', scale: 's', seed: 1 }, config: { concurrency: 2, runs: 3 },
    import: { importedAt: 't', ms: 1500, diskBytes: 2048 }, resources: { server: { rssPeakBytes: 100, rssMeanBytes: 50 } }, workloads, ...extra,
  },
});

// a: singleRead 10-12 ms; b: singleRead failed with a reason holding a pipe, and no import or server figures.
function report() {
  return buildReport([
    document('a', { singleRead: passed([10, 11, 12]), warmup: passed([1], { compared: false }) }),
    document('b', {
      singleRead: { supported: true, compared: true, status: 'failed', ops: 10, runs: [{ run: 1, valid: false, reason: 'got 1|2, "3"' }] },
      warmup: passed([1], { compared: false }),
    }, { import: null, resources: null }),
  ], { baseline: 'a' });
}

test('the table: each block titled, a blank line between them, columns aligned, lists of one line on the label\'s line', () => {
  const lines = REPORT_FORMATS.table(report()).split('\n');
  assert.deepEqual(lines.slice(0, 20), [
    'db-shootout report',
    'dataset: d (? s, ? profiles, ? relations, seed 1)',
    'databases: a, b',
    'baseline: a (named with --baseline)',
    'terms: not recorded in these results (run before durability terms were recorded): the databases may have written under different durability',
    '',
    'Terms each database ran under (the same for all, or the comparison says so):',
    '  database  durability                 read back from the server  cache         cores  version',
    '  a         not recorded (unverified)                             not recorded  n/a    1',
    '  b         not recorded (unverified)                             not recorded  n/a    1',
    '',
    'Median time relative to a (= 100%; lower is faster):',
    '  workload                  a       b',
    '  singleRead  100% (baseline)  failed',
    '',
    'Workloads:',
    '  workload    ops/run  database  status                runs  median ms      95% CI ms  ops/s  p50 ms  p99 ms  vs baseline',
    '  singleRead       10  a         ok                       3      11.00  10.00 – 12.00    909    1.10    5.50  100% (baseline)',
    '                       b         failed: got 1|2, "3"',
    '',
  ]);
  const resources = lines.indexOf('Server memory and CPU during the suite, import time and size on disk:');
  assert.deepEqual(lines.slice(resources + 1, resources + 4), [
    '  database  server peak RSS  server mean RSS  server peak CPU  import  on disk after import',
    '  a                   100 B             50 B              n/a  1.50 s               2.0 KiB',
    '  b                     n/a              n/a              n/a     n/a                   n/a',
  ]);
  const reproducibility = lines.indexOf('Reproducibility:');
  assert.deepEqual(lines.slice(reproducibility + 1, reproducibility + 4), ['  a (a)', '    version: 1', '    driver: n/a']);
  assert.ok(lines.includes('  n/a  not measured in the given files'));
  assert.equal(lines.at(-1), '', 'the text ends with a line break');
  assert.notEqual(lines.at(-2), '');
});

test('Markdown: a heading per block, right-aligned numeric columns, pipes escaped, items bold', () => {
  const text = REPORT_FORMATS.markdown(report());
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, 20), [
    '# db-shootout report',
    '',
    '- dataset: d (? s, ? profiles, ? relations, seed 1)',
    '- databases: a, b',
    '- baseline: a (named with --baseline)',
    '- terms: not recorded in these results (run before durability terms were recorded): the databases may have written under different durability',
    '',
    '## Terms each database ran under (the same for all, or the comparison says so)',
    '',
    '| database | durability | read back from the server | cache | cores | version |',
    '|---|---|---|---|---|---|',
    '| a | not recorded (unverified) |  | not recorded | n/a | 1 |',
    '| b | not recorded (unverified) |  | not recorded | n/a | 1 |',
    '',
    '## Median time relative to a (= 100%; lower is faster)',
    '',
    '| workload | a | b |',
    '|---|---:|---:|',
    '| singleRead | 100% (baseline) | failed |',
    '',
  ]);
  assert.ok(lines.includes('|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|'), text);
  assert.ok(lines.includes('|  |  | b | failed: got 1\\|2, "3" |  |  |  |  |  |  |  |'), text);
  const reproducibility = lines.indexOf('## Reproducibility');
  assert.deepEqual(lines.slice(reproducibility, reproducibility + 4), ['## Reproducibility', '', '- **a (a)**', '  - version: 1']);
  assert.ok(lines.includes('- **n/a**: not measured in the given files'));
  assert.ok(lines.includes('- **~**: not significant: the 95% interval of the median overlaps the baseline\'s; the difference may be noise'));
  assert.ok(text.endsWith('seed 1)\n'), JSON.stringify(text.slice(-40)));
});

test('Markdown cells and items hold no line break', () => {
  const multiline = report();
  multiline.warnings.push('one\ntwo | three');
  assert.ok(REPORT_FORMATS.markdown(multiline).split('\n').includes('- **warning**: one two \\| three'));
});

test('CSV: a row per workload and database, then one per database; empty cells for what is not there; quoted where needed', () => {
  assert.equal(REPORT_FORMATS.csv(report()), [
    'row,workload,compared,database,status,runs,ops_per_run,median_ms,ci_low_ms,ci_high_ms,ops_per_sec,p50_ms,p90_ms,p99_ms,normalised_pct,significant,client_bound,server_rss_peak_bytes,import_ms,disk_bytes,server_rss_mean_bytes',
    'workload,warmup,false,a,passed,1,10,1,,,10000,0.1,0.2,0.5,,,false,,,,',
    'workload,warmup,false,b,passed,1,10,1,,,10000,0.1,0.2,0.5,,,false,,,,',
    'workload,singleRead,true,a,passed,3,10,11,10,12,909,1.1,2.2,5.5,100,,false,,,,',
    'workload,singleRead,true,b,failed,0,10,,,,,,,,,,false,,,,',
    'database,,,a,,,,,,,,,,,,,,100,1500,2048,50',
    'database,,,b,,,,,,,,,,,,,,,,,',
    '',
  ].join('\n'));
  const quoted = buildReport([document('x', { 'read, "fast"\nnow': passed([1]) })]);
  assert.equal(REPORT_FORMATS.csv(quoted).split('\n').slice(1, 3).join('\n'), 'workload,"read, ""fast""\nnow",true,x,passed,1,10,1,,,10000,0.1,0.2,0.5,100,,false,,,,');
});
