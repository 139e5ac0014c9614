// The memory term on DuckDB (adapters/README.md, "Terms", Memory): memory_limit, the bound of DuckDB's buffer
// manager, which holds the database file's blocks it has read and the intermediates of running queries. The
// adapter sets it at connect() from --cache, and only then; DuckDB's default is 80% of the machine's memory.

const UNITS = Object.freeze({ KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40, PiB: 2 ** 50 });

// The instance's setting for --cache, in bytes, so that DuckDB holds exactly what was asked.
export const memoryLimitConfig = (cacheBytes) => (cacheBytes ? { memory_limit: `${cacheBytes}B` } : {});

// duckdb_settings() shows memory_limit as DuckDB prints sizes (StringUtil::BytesToHumanReadableString): whole
// units and a tenth, the tenth being the next smaller unit's count times 10 / 1024, truncated ("97.6 MiB" for
// 100,000 KiB). The range [low, high) of the byte counts that print so, or null for a text of another form.
export function printedRange(text) {
  const match = /^(\d+)\.(\d) (KiB|MiB|GiB|TiB|PiB)$/.exec(String(text ?? ''));
  if (match) {
    const unit = UNITS[match[3]];
    const whole = Number(match[1]) * unit;
    const tenth = Number(match[2]);
    const smaller = unit / 1024;
    return { low: whole + Math.ceil((tenth * 1024) / 10) * smaller, high: whole + Math.ceil(((tenth + 1) * 1024) / 10) * smaller };
  }
  const bytes = /^(\d+) bytes?$/.exec(String(text ?? ''));
  return bytes ? { low: Number(bytes[1]), high: Number(bytes[1]) + 1 } : null;
}

// { bytes, settings } from memory_limit as duckdb_settings() shows it and the bytes the adapter set (null when
// --cache gave none). The value set is the one read back when DuckDB prints it as it shows; else the lowest count
// of bytes that prints as shown.
export function duckdbCache(text, setBytes) {
  const range = printedRange(text);
  let bytes = range?.low ?? null;
  if (range && setBytes && setBytes >= range.low && setBytes < range.high) bytes = setBytes;
  return {
    bytes,
    settings: {
      memory_limit: {
        value: text,
        source: setBytes
          ? `embedded database (duckdb_settings()): set by the adapter at connect() to ${setBytes} bytes (--cache); shown to a tenth of its unit`
          : 'embedded database (duckdb_settings()): DuckDB\'s default, 80% of the machine\'s memory',
      },
    },
  };
}
