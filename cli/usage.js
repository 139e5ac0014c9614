// yargs' own usage messages in the harness's words: one line per mistake, naming the flag or argument, the value
// typed and the values it takes ("--scale huge is not a choice: tiny, small, medium or full"), an unknown command as
// such, an unknown flag with the command it was given to. Pure, so that the tests can hold every wording.
import { closest } from '../core/closest.js';

export { closest };

// The positional arguments that take a fixed set of values, by command: how each is named in a message.
const POSITIONAL_WORDS = { action: 'action', dataset: 'dataset' };

// "a, b or c"
export function orList(values) {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

// yargs' "Invalid values:\n  Argument: scale, Given: "huge", Choices: "tiny", "small"" as [{ name, given, choices }].
export function invalidValues(message) {
  if (!/^Invalid values?:/.test(message)) return null;
  const found = [];
  for (const line of message.split('\n').slice(1)) {
    const match = /^\s*Argument: (.+?), Given: (.*), Choices: (.*)$/.exec(line);
    if (!match) continue;
    const quoted = (text) => [...text.matchAll(/"((?:[^"\\]|\\.)*)"|([^\s,]+)/g)].map((m) => m[1] ?? m[2]);
    found.push({ name: match[1], given: quoted(match[2]).join(', '), choices: quoted(match[3]) });
  }
  return found.length > 0 ? found : null;
}

// The first word of the command line that is not a flag (the command typed), or null.
function typedCommand(args) {
  return args.find((arg) => !arg.startsWith('-')) ?? null;
}

// The message to print for yargs' `message` about `args` (the command line after the program), given the known
// `commands`; null when yargs' own words stand.
// `flags`: the long flags the command takes, for a "did you mean".
export function usageMessage(message, args, commands, flags = []) {
  const text = String(message ?? '');
  const command = typedCommand(args);
  const known = command !== null && commands.includes(command);
  const recommended = /^Did you mean (\S+?)\??$/.exec(text)?.[1];
  if (command !== null && !known && (recommended || /^Unknown arguments?: /.test(text))) {
    return `unknown command "${command}"${recommended ? ` (did you mean "${recommended}"?)` : ''}; the commands: ${orList(commands)}`;
  }
  const invalid = invalidValues(text);
  if (invalid) {
    return invalid.map(({ name, given, choices }) => (POSITIONAL_WORDS[name] && !args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))
      ? `bench ${command}: "${given}" is not a${/^[aeiou]/.test(POSITIONAL_WORDS[name]) ? 'n' : ''} ${POSITIONAL_WORDS[name]} it knows: ${orList(choices)}`
      : given === '' ? `--${name} needs a value: ${choices.join(', ')}` : `--${name} ${given} is not a choice: ${orList(choices)}`)).join('\n');
  }
  // yargs' "Missing required arguments: db, shards\nname the database: --db <id>\n...": one line naming each
  // flag with what it takes, from the hints its options give ("name the database: --db <id>").
  const required = /^Missing required arguments?: ([^\n]+)/.exec(text);
  if (required && known) {
    const hints = text.split('\n').slice(1).map((line) => /^name (?:the )?(.+?): (--\S+(?: <[^>]+>)?)(.*)$/.exec(line.trim())).filter(Boolean);
    const needed = required[1].split(', ').map((name) => {
      const hint = hints.find((match) => match[2].split(' ')[0] === `--${name}`);
      return hint ? `${hint[2]} (the ${hint[1]}${hint[3]})` : `--${name}`;
    });
    return `bench ${command} needs ${needed.length > 1 ? `${needed.slice(0, -1).join(', ')} and ${needed.at(-1)}` : needed[0]}`;
  }
  const unknown = /^Unknown arguments?: (.+)$/.exec(text);
  if (unknown && known) {
    const names = unknown[1].split(', ');
    const typed = names.map((name) => (args.includes(name) ? `"${name}"` : `--${name}`));
    const near = names.length === 1 && !args.includes(names[0]) ? closest(names[0], flags) : null;
    return `bench ${command} takes no ${orList(typed)}${near ? ` (did you mean --${near}?)` : ''}: see "bench ${command} --help"`;
  }
  return null;
}

// Flags typed with nothing after them (`--workload ""`, `--suite` at the end of the line, `--db --runs 1`): yargs
// gives such a string option "" or, when it has a default, the default, so that the run would go on with what the
// user did not choose. `args` the command line (up to "--"; what follows is another command's), `strings` the
// names of the string options, `hints` what a flag takes; a message naming the first such flag, or null.
export function emptyValue(args, strings, hints = {}) {
  const names = new Set(strings);
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--') break;
    const match = /^--([^=]+)(=(.*))?$/.exec(arg);
    if (!match || !names.has(match[1])) continue;
    const next = args[i + 1];
    const missing = match[2] !== undefined ? match[3] === '' : next === undefined || next === '' || /^-[-A-Za-z]/.test(next);
    if (missing) return `--${match[1]} needs a value${hints[match[1]] ? `: ${hints[match[1]]}` : ''}`;
  }
  return null;
}
