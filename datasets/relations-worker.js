// The relations of a synthetic dataset, drawn and written on a thread of their own while the main thread writes
// the profiles (generate.js): the two use separate random streams, so the files are the same either way.
// Posts { progress } events as generate.js's onProgress gets them, then { relations } once the file is written.
import { parentPort, workerData } from 'node:worker_threads';
import { relationsFile } from './generate.js';

const { file, n, seed } = workerData;
const relations = await relationsFile({ file, n, seed, onProgress: (progress) => parentPort.postMessage({ progress }) });
parentPort.postMessage({ relations });
