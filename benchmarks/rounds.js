// Contenders measured in alternating rounds of one script run, and the lines that print their figures.
import os from 'node:os';

// { name: [figure of each round] }: every contender (an async function of the round's index, resolving with its
// figure) once per round. The order rotates by one each round, which spreads caching, GC and JIT effects and the
// machine's other load evenly over the contenders. `afterRound()` runs at the end of each round.
export async function runRounds(contenders, rounds, afterRound = () => {}) {
  const names = Object.keys(contenders);
  const figures = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length];
      figures[name].push(await contenders[name](round));
    }
    afterRound();
  }
  return figures;
}

export const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

export const format = (value) => Math.round(value).toLocaleString('en-US');

// "0.4 0.6 0.7": the load averages over 1, 5 and 15 minutes.
export const loadAverage = () => os.loadavg().map((load) => load.toFixed(1)).join(' ');

// "  harness    median    1,116 ops/s  (rounds: 1,013, 1,116)": the name padded to `width`, `more` inside the brackets.
export function rateLine(name, rates, width, more = '') {
  return `  ${name.padEnd(width)} median ${format(median(rates)).padStart(8)} ops/s  (rounds: ${rates.map(format).join(', ')}${more})`;
}
