// Which dataset a report is of. A results folder collects every run (a tiny try-out next to a small run), and
// figures of different datasets never compare: by default the report is of the latest dataset in the files
// and says which it skipped; --dataset names one; --allow-mixed keeps them all (build.js then warns).
import { ReportErrorCodes, reportError } from './errors.js';

// How many file names a note or an error lists per dataset before it only counts the rest.
const LISTED_FILES = 3;

// When a document was written: its start (the time its file name carries), not the file's mtime, which a copy
// changes.
function timeOf(result) {
  const time = Date.parse(result.startedAt ?? result.finishedAt ?? '');
  return Number.isNaN(time) ? -Infinity : time;
}

// [{ id, files, latest }] in the order the documents first name them.
export function datasetGroups(documents) {
  const groups = new Map();
  for (const { file, result } of documents) {
    const id = result.dataset.id;
    if (!groups.has(id)) groups.set(id, { id, files: [], latest: -Infinity });
    const group = groups.get(id);
    group.files.push(file);
    group.latest = Math.max(group.latest, timeOf(result));
  }
  return [...groups.values()];
}

// The most recent dataset first, ties broken by id, so the choice never depends on the order of the files.
const byLatest = (a, b) => b.latest - a.latest || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

// The first few files, one a line (a path can be long), and how many more.
export function fileLines(files, indent) {
  const shown = files.slice(0, LISTED_FILES).map((file) => `${indent}${file}`);
  return files.length > LISTED_FILES ? [...shown, `${indent}and ${files.length - LISTED_FILES} more`] : shown;
}

export const countFiles = (files) => `${files.length} file${files.length === 1 ? '' : 's'}`;

// `documents`: [{ file, result }]. Options: `dataset` (an id, --dataset), `allowMixed`. Returns the documents
// to report and `choice`: null when nothing was chosen (one dataset, or --allow-mixed without --dataset), else
// { id, reason, skipped: [{ id, files }] }.
export function selectDataset(documents, { dataset: requested, allowMixed = false } = {}) {
  const groups = datasetGroups(documents).sort(byLatest);
  const skippedOf = (id) => groups.filter((group) => group.id !== id).map((group) => ({ id: group.id, files: group.files }));
  if (requested !== undefined && requested !== null) {
    if (!groups.some((group) => group.id === requested)) {
      throw reportError(ReportErrorCodes.UNKNOWN_DATASET, [
        `--dataset ${requested}: no result of that dataset was given; the results hold:`,
        ...groups.map((group) => `  ${group.id} (${countFiles(group.files)})`),
      ].join('\n'));
    }
    return {
      documents: documents.filter(({ result }) => result.dataset.id === requested),
      choice: { id: requested, reason: 'named with --dataset', skipped: skippedOf(requested) },
    };
  }
  if (groups.length === 1 || allowMixed) return { documents, choice: null };
  const [latest] = groups;
  return {
    documents: documents.filter(({ result }) => result.dataset.id === latest.id),
    choice: { id: latest.id, reason: `the latest of the ${groups.length} datasets in the files`, skipped: skippedOf(latest.id) },
  };
}

// The lines the command prints on stderr when it reported one dataset of several; none otherwise.
export function datasetNote(choice) {
  if (!choice || choice.skipped.length === 0) return [];
  const total = choice.skipped.length + 1;
  return [
    `note: the results hold ${total} datasets; this report is of ${choice.id} (${choice.reason})`,
    ...choice.skipped.flatMap((skipped) => [`  skipped ${skipped.id}, ${countFiles(skipped.files)}:`, ...fileLines(skipped.files, '    ')]),
    `  choose one with --dataset <id> (as --dataset ${choice.skipped[0].id}), or report them together with --allow-mixed`,
  ];
}
