// A node:test reporter that repeats every failed test at the end of the run, with its file, line and error, so that a
// failure stays readable when only the last part of a long run's output is kept (a CI log's tail, say). It says
// nothing when every test passed. `npm test` uses it beside the TAP reporter.
import { inspect } from 'node:util';

const MAX_ERROR_LINES = 30;

function describeError(error) {
  if (!error) return '(no error given)';
  const cause = error.failureType === 'testCodeFailure' && error.cause ? error.cause : error;
  const text = cause instanceof Error ? (cause.stack ?? String(cause)) : inspect(cause, { depth: 4 });
  // Node's own frames say nothing about the test.
  const lines = text.split('\n').filter((line) => !/^\s+at .*\(node:/.test(line) && !/^\s+at node:/.test(line));
  return lines.length > MAX_ERROR_LINES
    ? [...lines.slice(0, MAX_ERROR_LINES), `… ${lines.length - MAX_ERROR_LINES} more lines`].join('\n')
    : lines.join('\n');
}

export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, line, details } = event.data;
    // A suite or test that failed only because a subtest did is named by that subtest already.
    if (details?.error?.failureType === 'subtestsFailed') continue;
    failed.push({ name, where: file ? `${file}${line ? `:${line}` : ''}` : '(file unknown)', error: details?.error });
  }
  if (failed.length === 0) return;
  yield `\n# ${failed.length} failed test${failed.length === 1 ? '' : 's'}, repeated here:\n`;
  for (const [index, { name, where, error }] of failed.entries()) {
    yield `\n# ${index + 1}. ${name}\n#    ${where}\n`;
    yield `${describeError(error).split('\n').map((text) => `#    ${text}`).join('\n')}\n`;
  }
}
