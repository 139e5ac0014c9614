// The terms each database ran under (core/terms.js: durability; results/README.md, "terms"), side by side above
// the figures, and whether the databases compared ran under the same ones. Results of unequal terms compare
// different work: the report says so in its first line and gives no percentages unless asked
// (--allow-unequal-terms).
import { formatSize } from '../../core/terms.js';
import { distinct } from './aggregate.js';

const termOf = (result) => result.terms?.durability?.term ?? null;

// One database's terms over its documents: a list holds more than one value only when its invocations differed.
export function databaseTerms(documents) {
  const durability = distinct(documents.map(({ result }) => termOf(result)));
  const recorded = documents.map(({ result }) => result.terms?.durability).filter(Boolean);
  return {
    durability,
    how: distinct(recorded.map((terms) => terms.how ?? null)),
    verified: recorded.length === documents.length && recorded.every((terms) => terms.verified === true),
    settings: distinct(recorded.map((terms) => Object.fromEntries(Object.entries(terms.settings ?? {}).map(([name, { value }]) => [name, value])))),
    sources: distinct(recorded.map((terms) => terms.source ?? null)),
    cache: distinct(documents.map(({ result }) => result.terms?.cache ?? null).map((cache) => cache && {
      bytes: cache.bytes ?? null, requested: cache.requested ?? null, cold: Boolean(cache.cold),
    })),
    cores: distinct(documents.map(({ result }) => result.environment?.cores ?? null)),
  };
}

const termWord = (term) => term ?? 'not recorded';

// { equal, line, detail }: `line` is the report's first line.
export function compareTerms(databases) {
  const terms = databases.map((database) => ({ id: database.id, durability: database.terms.durability }));
  const all = distinct(terms.flatMap((entry) => entry.durability));
  const pooled = terms.filter((entry) => entry.durability.length > 1);
  if (all.length <= 1 && pooled.length === 0) {
    const [term] = all;
    if (term === null || term === undefined) {
      return { equal: true, line: 'terms: not recorded in these results (run before durability terms were recorded): the databases may have written under different durability' };
    }
    const unverified = databases.filter((database) => !database.terms.verified).map((database) => database.id);
    return {
      equal: true,
      line: `terms: every database wrote under the ${term} durability term`
        + (unverified.length > 0 ? ` (not read back from ${unverified.join(', ')})` : ', read back from each server'),
    };
  }
  const each = terms.map((entry) => `${entry.id} ${entry.durability.map(termWord).join(' and ')}`).join(', ');
  return {
    equal: false,
    line: `UNEQUAL TERMS: the databases did not write under the same durability (${each}): the figures compare different work`,
  };
}

const cacheText = (cache) => (cache === null || cache.bytes === null ? 'not recorded'
  : `${formatSize(cache.bytes)}${cache.requested ? ' (--cache)' : ''}${cache.cold ? ', cold' : ''}`);

const settingsText = (settings) => settings.map((values) => Object.entries(values).map(([name, value]) => `${name}=${value}`).join(', ') || 'none read back').join(' | ');

export function termsBlock(report) {
  return {
    kind: 'table',
    id: 'terms',
    title: 'Terms each database ran under (the same for all, or the comparison says so)',
    header: ['database', 'durability', 'read back from the server', 'cache', 'cores', 'version'],
    numeric: [],
    rows: report.databases.map((d) => [
      d.id,
      d.terms.durability.map(termWord).join(' | ') + (d.terms.verified ? '' : ' (unverified)'),
      settingsText(d.terms.settings),
      d.terms.cache.map(cacheText).join(' | '),
      d.terms.cores.map((cores) => (cores === null ? 'n/a' : `${cores} (the machine's)`)).join(' | '),
      d.reproducibility.dbVersion.map((version) => version ?? 'n/a').join(' | '),
    ]),
  };
}
