// How `bench compare` and the reports write their figures: a comparison made up here, rendered as table and
// Markdown, and the number formats they share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPARE_FORMATS } from '../../results/compare-format.js';
import { formatCompareHtml, speedupChart } from '../../results/compare-html.js';
import { formatBytes, formatCount, formatMs } from '../../results/format.js';

const side = (label, status, medianMs) => ({ label, status, medianMs, runs: 3, reason: null });

function comparison({ gate = null, warnings = [], summary = {} } = {}) {
  return {
    schema: 'db-shootout/compare@1',
    statistics: { speedup: 'median(a) / median(b)', interval: { method: 'percentile bootstrap', level: 0.95, resamples: 10_000, seed: 1 } },
    a: { label: 'before/', files: ['x.json'], database: 'sqlite', versions: ['3.45'], dataset: 'synthetic-tiny-s1-g1', harness: ['0.1.0'], config: [{ concurrency: 25, runs: 3 }] },
    b: { label: 'after/', files: ['y.json', 'z.json'], database: 'sqlite', versions: ['3.45', '3.46'], dataset: 'synthetic-tiny-s1-g1', harness: ['0.1.0'], config: [{ concurrency: 25, runs: 3 }] },
    workloads: [
      { name: 'singleRead', compared: true, a: side('a', 'passed', 200), b: side('b', 'passed', 100), speedup: 2, ci: { low: 1.5, high: 2.5 }, changePct: -50, verdict: 'faster' },
      { name: 'singleWrite', compared: true, a: side('a', 'passed', 10), b: side('b', 'passed', 12.5), speedup: 0.8, ci: null, changePct: 25, verdict: 'not significant' },
      { name: 'aggregation', compared: true, a: side('a', 'passed', 0.5), b: side('b', 'failed', null), speedup: null, ci: null, changePct: null, verdict: null },
      { name: 'warmup', compared: false, a: side('a', 'passed', 5), b: side('b', 'passed', 5), speedup: 1, ci: { low: 1, high: 1 }, changePct: 0, verdict: 'not significant' },
    ],
    summary: { geometricMeanSpeedup: 1.2649, compared: 2, faster: 1, slower: 0, notSignificant: 1, notComparable: ['aggregation'], ...summary },
    gate,
    warnings,
  };
}

test('the table: one aligned row per workload, words where there is no time, the summary below', () => {
  const text = COMPARE_FORMATS.table(comparison());
  const lines = text.split('\n');
  assert.equal(lines[0], 'a = before/: sqlite 3.45, harness 0.1.0, concurrency 25, 3 runs (1 file)');
  assert.equal(lines[1], 'b = after/: sqlite 3.45 | 3.46, harness 0.1.0, concurrency 25, 3 runs (2 files)');
  assert.equal(lines[2], 'dataset: synthetic-tiny-s1-g1');
  assert.equal(lines[3], 'speedup = median(a) / median(b); 95% CI: percentile bootstrap, seed 1; faster or slower only when the interval excludes 1');
  // Numbers right-aligned, words left-aligned, each column as wide as its widest cell.
  assert.deepEqual(lines.slice(5, 10), [
    'workload               a median ms  b median ms  speedup         95% CI  b time vs a  verdict',
    'singleRead                     200          100    2.00×    1.50 – 2.50       -50.0%  faster',
    'singleWrite                  10.00        12.50    0.80×  n/a (one run)       +25.0%  not significant',
    'aggregation                  0.500       failed                                       not comparable',
    'warmup (not compared)         5.00         5.00    1.00×    1.00 – 1.00         0.0%  not significant',
  ]);
  assert.equal(lines[11], 'summary: geometric mean speedup 1.265× over 2 workloads: b is faster in 1, slower in 0, not significantly different in 1; not comparable: aggregation');
  assert.equal(text.endsWith('\n'), true);
});

test('the summary line for one workload, for none, and the gate after it; the warnings before everything', () => {
  const one = COMPARE_FORMATS.table(comparison({ summary: { compared: 1, notComparable: [] } }));
  assert.match(one, /^summary: geometric mean speedup 1\.265× over 1 workload: b is faster in 1, slower in 0, not significantly different in 1$/m);
  const none = COMPARE_FORMATS.table(comparison({ summary: { geometricMeanSpeedup: null } }));
  assert.match(none, /^summary: no workload passed on both sides$/m);
  const failed = COMPARE_FORMATS.table(comparison({
    gate: { failIfSlowerPct: 10, passed: false, failed: [{ workload: 'singleWrite', reason: '25% slower' }, { workload: 'aggregation', reason: 'failed validation in b' }] },
    warnings: ['the results come from different machines'],
  }));
  assert.deepEqual(failed.trimEnd().split('\n').slice(-1), [
    '--fail-if-slower 10%: FAILED: singleWrite 25% slower; aggregation failed validation in b',
  ]);
  // The warnings come first, unless the command has printed them on stderr already.
  assert.equal(failed.split('\n')[0], 'warning: the results come from different machines');
  assert.doesNotMatch(COMPARE_FORMATS.table(comparison({ warnings: ['the results come from different machines'] }), { warnings: false }), /warning:/);
  const markdown = COMPARE_FORMATS.markdown(comparison({ warnings: ['the results come from different machines'] }));
  assert.equal(markdown.split('\n')[2], '> **warning: the results come from different machines**');
  const passed = COMPARE_FORMATS.table(comparison({ gate: { failIfSlowerPct: 50, passed: true, failed: [] } }));
  assert.match(passed, /^--fail-if-slower 50%: passed \(no workload is significantly slower by more than 50%\)$/m);
});

test('Markdown: a heading, the same lines as a list, a table with right-aligned numbers and escaped pipes', () => {
  const text = COMPARE_FORMATS.markdown(comparison());
  const lines = text.split('\n');
  assert.equal(lines[0], '# db-shootout comparison');
  assert.equal(lines[3], '- b = after/: sqlite 3.45 \\| 3.46, harness 0.1.0, concurrency 25, 3 runs (2 files)');
  assert.ok(lines.includes('| workload | a median ms | b median ms | speedup | 95% CI | b time vs a | verdict |'));
  assert.ok(lines.includes('|---|---:|---:|---:|---:|---:|---|'));
  assert.ok(lines.includes('| singleRead | 200 | 100 | 2.00× | 1.50 – 2.50 | -50.0% | faster |'));
  assert.ok(lines.includes('| aggregation | 0.500 | failed |  |  |  | not comparable |'));
  assert.match(text, /^- summary: geometric mean speedup 1\.265×/m);
  assert.deepEqual(JSON.parse(COMPARE_FORMATS.json(comparison())), comparison());
});

test('numbers: milliseconds to about three significant places, counts with separators, bytes in binary units', () => {
  assert.deepEqual([formatMs(1234.5), formatMs(100), formatMs(99.996), formatMs(12.345), formatMs(1), formatMs(0.9994), formatMs(0.01)],
    ['1235', '100', '100.00', '12.35', '1.00', '0.999', '0.010']);
  assert.equal(formatCount(1234567), '1,234,567');
  assert.deepEqual([formatBytes(0), formatBytes(1023), formatBytes(1024), formatBytes(1536 * 1024), formatBytes(5 * 1024 ** 3), formatBytes(3 * 1024 ** 5)],
    ['0 B', '1023 B', '1.0 KiB', '1.5 MiB', '5.0 GiB', '3072.0 TiB']);
});

test('one database in one version on each side, the versions different: the time columns name them', () => {
  const versions = (a, b, databases = ['neo4j', 'neo4j']) => {
    const c = comparison();
    c.a = { ...c.a, database: databases[0], versions: a };
    c.b = { ...c.b, database: databases[1], versions: b };
    return COMPARE_FORMATS.table(c).split('\n')[5];
  };
  const named = 'workload               a: neo4j 5.24.2, median ms  b: neo4j 2025.10.1, median ms  speedup         95% CI  b time vs a  verdict';
  assert.equal(versions(['5.24.2'], ['2025.10.1']), named);
  const plain = /^workload +a median ms +b median ms +speedup/;
  assert.match(versions(['5.24.2'], ['5.24.2']), plain, 'the same version');
  assert.match(versions(['5.24.2'], ['2025.10.1'], ['neo4j', 'sqlite']), plain, 'two databases');
  assert.match(versions(['5.24.2', '5.26.0'], ['2025.10.1']), plain, 'several versions on a');
  assert.match(versions(['5.24.2'], ['2025.10.1', '2025.11.0']), plain, 'several versions on b');
  assert.match(versions([null], ['2025.10.1']), plain, 'a version unknown on a');
  assert.match(versions(['5.24.2'], [null]), plain, 'a version unknown on b');
  const c = comparison();
  c.a = { ...c.a, database: 'neo4j', versions: ['5.24.2'] };
  c.b = { ...c.b, database: 'neo4j', versions: ['2025.10.1'] };
  assert.ok(COMPARE_FORMATS.markdown(c).includes('| workload | a: neo4j 5.24.2, median ms | b: neo4j 2025.10.1, median ms | speedup | 95% CI | b time vs a | verdict |'));
});

test('a slowdown is signed with a plus and a gain with a minus, also when they round to zero', () => {
  const c = comparison();
  c.workloads = [
    { ...c.workloads[0], changePct: 0.04 },
    { ...c.workloads[1], changePct: -0.04 },
  ];
  const lines = COMPARE_FORMATS.table(c).split('\n').slice(6, 8);
  assert.match(lines[0], / \+0\.0% {2}faster$/);
  assert.match(lines[1], / -0\.0% {2}not significant$/);
});

test('the speedup chart: a log axis centred on 1× over the speedups and intervals shown, a bar and whisker per workload', () => {
  const chart = speedupChart({ workloads: [
    { name: 'read<1>', speedup: 2, ci: { low: 1.5, high: 2.5 }, verdict: 'faster' },
    { name: 'write', speedup: 0.8, ci: null, verdict: 'not significant' },
    { name: 'gone', speedup: null, ci: null, verdict: null },
  ] });
  // Axis ±0.4 decades (2.5 rounded up to a tenth of a decade); x(v) = 260 + (log10(v) + 0.4) / 0.8 × 520.
  assert.deepEqual(chart.replace(/></g, '>\n<').split('\n'), [
    '<svg xmlns="http://www.w3.org/2000/svg" width="860" height="124" role="img" aria-label="speedup of b over a per workload">',
    '<line x1="324.33050281841224" y1="34" x2="324.33050281841224" y2="84" stroke="#ddd"/>',
    '<text x="324.33050281841224" y="30" font-size="11" text-anchor="middle">1/2×</text>',
    '<line x1="520" y1="34" x2="520" y2="84" stroke="#ddd"/>',
    '<text x="520" y="30" font-size="11" text-anchor="middle">1×</text>',
    '<line x1="715.6694971815878" y1="34" x2="715.6694971815878" y2="84" stroke="#ddd"/>',
    '<text x="715.6694971815878" y="30" font-size="11" text-anchor="middle">2×</text>',
    '<line x1="520" y1="34" x2="520" y2="84" stroke="#000"/>',
    '<g>',
    '<title>read&lt;1&gt;: 2× (95% CI 1.5 – 2.5) faster</title>',
    '<text x="252" y="55" font-size="12" text-anchor="end">read&lt;1&gt;</text>',
    '<rect x="520" y="44" width="195.66949718158776" height="14" fill="#2e7d32"/>',
    '<line x1="634.4593183861928" y1="51" x2="778.6610056368245" y2="51" stroke="#000"/>',
    '<text x="788" y="55" font-size="11">2.00×</text>',
    '</g>',
    '<g>',
    '<title>write: 0.8×  not significant</title>',
    '<text x="252" y="77" font-size="12" text-anchor="end">write</text>',
    '<rect x="457.00849154476333" y="66" width="62.99150845523667" height="14" fill="#9e9e9e"/>',
    '<text x="788" y="77" font-size="11">0.80×</text>',
    '</g>',
    '<text x="520" y="108" font-size="12" text-anchor="middle">speedup of b over a (log scale; right of 1×: b is faster; whisker: 95% interval)</text>',
    '</svg>',
  ]);
});

test('the speedup chart: at least 0.5× to 2×, a whisker cut at the axis, a tick per power of two, an unknown verdict grey', () => {
  const narrow = speedupChart({ workloads: [{ name: 'x', speedup: 1.1, ci: null, verdict: null }] });
  assert.deepEqual([...narrow.matchAll(/>([^<]*×)<\/text>/g)].map((match) => match[1]), ['1/2×', '1×', '2×', '1.10×']);
  assert.match(narrow, /fill="#9e9e9e"/);
  const wide = speedupChart({ workloads: [{ name: 'x', speedup: 5, ci: { low: 0.01, high: 100 }, verdict: 'slower' }] });
  assert.deepEqual([...wide.matchAll(/text-anchor="middle">([^<]*)<\/text>/g)].map((match) => match[1]).slice(0, -1),
    ['1/64×', '1/32×', '1/16×', '1/8×', '1/4×', '1/2×', '1×', '2×', '4×', '8×', '16×', '32×', '64×']);
  assert.ok(wide.includes('<line x1="260" y1="51" x2="780" y2="51" stroke="#000"/>'), 'the whisker from the axis\'s left end to its right end');
  assert.ok(wide.includes('<rect x="520" y="44" width="90.8661005636825" height="14" fill="#c62828"/>'));
  assert.equal(speedupChart({ workloads: [{ name: 'x', speedup: null }] }), '<p>No workload passed on both sides: nothing to chart.</p>');
  // A speedup too small to see is still a bar a pixel wide.
  assert.match(speedupChart({ workloads: [{ name: 'x', speedup: 1, ci: null, verdict: 'not significant' }] }), /<rect x="520" y="44" width="1" height="14"/);
});

test('bench compare\'s page: the sides in its title, the legend, the chart, and the table as text, escaped', () => {
  const c = comparison();
  c.a.label = 'before<';
  c.b.label = 'after&';
  const page = formatCompareHtml(c);
  assert.ok(page.startsWith('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>db-shootout comparison: before&lt; against after&amp;</title>\n'));
  assert.ok(page.includes('<body><h1>db-shootout comparison: before&lt; against after&amp;</h1>\n'));
  assert.ok(page.includes('<h2>Speedup per workload</h2><p><span style="color:#2e7d32">■</span> faster &nbsp; <span style="color:#c62828">■</span> slower &nbsp; <span style="color:#9e9e9e">■</span> not significant</p>\n<svg '));
  assert.ok(page.includes(`<h2>Figures</h2><pre>${COMPARE_FORMATS.table(c).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</pre>\n</body></html>\n`));
  assert.ok(page.includes('a = before&lt;: sqlite 3.45'));
});

test('the whole table and Markdown: a blank line between the sides, the rows and the summary; several harnesses and configurations', () => {
  const c = comparison({ summary: { notComparable: ['aggregation', 'hardPath'] } });
  c.b.harness = ['0.1.0', '0.2.0'];
  c.b.config = [{ concurrency: 25, runs: 3 }, { concurrency: 50, runs: 5 }];
  c.workloads = [
    c.workloads[0],
    // No verdict: a word only where a side did not pass.
    { ...c.workloads[1], verdict: null },
    { ...c.workloads[2], a: side('a', 'failed', null), b: side('b', 'passed', 1) },
  ];
  assert.deepEqual(COMPARE_FORMATS.table(c).split('\n'), [
    'a = before/: sqlite 3.45, harness 0.1.0, concurrency 25, 3 runs (1 file)',
    'b = after/: sqlite 3.45 | 3.46, harness 0.1.0 | 0.2.0, concurrency 25, 3 runs | concurrency 50, 5 runs (2 files)',
    'dataset: synthetic-tiny-s1-g1',
    'speedup = median(a) / median(b); 95% CI: percentile bootstrap, seed 1; faster or slower only when the interval excludes 1',
    '',
    'workload     a median ms  b median ms  speedup         95% CI  b time vs a  verdict',
    'singleRead           200          100    2.00×    1.50 – 2.50       -50.0%  faster',
    'singleWrite        10.00        12.50    0.80×  n/a (one run)       +25.0%',
    'aggregation       failed         1.00                                       not comparable',
    '',
    'summary: geometric mean speedup 1.265× over 2 workloads: b is faster in 1, slower in 0, not significantly different in 1; not comparable: aggregation, hardPath',
    '',
  ]);
  assert.deepEqual(COMPARE_FORMATS.markdown(c).split('\n'), [
    '# db-shootout comparison',
    '',
    '- a = before/: sqlite 3.45, harness 0.1.0, concurrency 25, 3 runs (1 file)',
    '- b = after/: sqlite 3.45 \\| 3.46, harness 0.1.0 \\| 0.2.0, concurrency 25, 3 runs \\| concurrency 50, 5 runs (2 files)',
    '- dataset: synthetic-tiny-s1-g1',
    '- speedup = median(a) / median(b); 95% CI: percentile bootstrap, seed 1; faster or slower only when the interval excludes 1',
    '',
    '| workload | a median ms | b median ms | speedup | 95% CI | b time vs a | verdict |',
    '|---|---:|---:|---:|---:|---:|---|',
    '| singleRead | 200 | 100 | 2.00× | 1.50 – 2.50 | -50.0% | faster |',
    '| singleWrite | 10.00 | 12.50 | 0.80× | n/a (one run) | +25.0% |  |',
    '| aggregation | failed | 1.00 |  |  |  | not comparable |',
    '',
    '- summary: geometric mean speedup 1.265× over 2 workloads: b is faster in 1, slower in 0, not significantly different in 1; not comparable: aggregation, hardPath',
    '',
  ]);
});

test('the speedup chart: no verdict, a quote in a name, an interval down to zero', () => {
  const chart = speedupChart({ workloads: [{ name: 'say "hi"', speedup: 1.5, ci: { low: 0, high: 2 }, verdict: null }] });
  assert.ok(chart.includes('<title>say &quot;hi&quot;: 1.5× (95% CI 0 – 2) </title>'), chart);
  // An interval's bound of 0 (no positive figure) does not stretch the axis: 0.5× to 2× as for the speedup alone.
  assert.deepEqual([...chart.matchAll(/text-anchor="middle">([^<]*×)<\/text>/g)].map((match) => match[1]), ['1/2×', '1×', '2×']);
  assert.ok(!/NaN|Infinity/.test(chart), chart);
});
