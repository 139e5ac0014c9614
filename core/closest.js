// A likely typo's intended name: "did you mean" for commands, flags and databases.

// The number of single-character edits between a and b (Levenshtein).
function distance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

// The known name closest to `name`, when it is a likely typo of it (at most 2 edits, and fewer than half of it).
export function closest(name, known) {
  let best = null;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d <= 2 && d < name.length / 2 && (!best || d < best.d)) best = { candidate, d };
  }
  return best?.candidate ?? null;
}
