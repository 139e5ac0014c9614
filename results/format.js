// How the terminal and the reports write numbers: milliseconds with three significant places or so, counts
// with thousands separators, byte sizes in binary units.

export function formatMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

export function formatCount(n) {
  return n.toLocaleString('en-US');
}

export function formatBytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
