import { installServer, serverFamily, serverStatus, startServer, stopServer } from '../server/index.js';
import { ExitCodes } from './exit-codes.js';
import { createProgress } from './progress.js';

function describe(state) {
  return `${state.version} on ${state.host}:${state.port} (pid ${state.pid}, data ${state.dataDir}, log ${state.logFile})`;
}

export function stopServerMessage(server, state) {
  if (!state) return `${server.name} is not running`;
  if (state.killed) return `${server.name} (pid ${state.pid}) did not stop within ${state.graceMs / 1000} s; killed (${state.killed} processes)`;
  return `${server.name} stopped (pid ${state.pid})`;
}

export async function serverCommand(argv, { stdout = process.stdout } = {}) {
  const server = serverFamily(argv.family);
  const cacheDir = argv['cache-dir'];
  const write = (line) => stdout.write(`${line}\n`);
  const log = (line) => process.stderr.write(`${line}\n`);
  // Starting or stopping a server takes seconds, a minute for some, with nothing to count.
  const progress = createProgress({ quiet: argv.quiet });
  const timed = async (label, work) => {
    const step = progress.bar(label, 1);
    try {
      return await work();
    } finally {
      step?.stop();
    }
  };
  switch (argv.action) {
    case 'install':
      await installServer(server, { cacheDir, log });
      return ExitCodes.OK;
    case 'start': {
      const state = await timed(`starting ${server.name}`, () => startServer(server, { cacheDir, port: argv.port }));
      write(`${server.name} ${state.alreadyRunning ? 'is already running' : 'started'}: ${describe(state)}`);
      write(`use it with: npx bench run --db ${server.adapters[0]}`);
      return ExitCodes.OK;
    }
    case 'stop': {
      write(stopServerMessage(server, await timed(`stopping ${server.name}`, () => stopServer(server, { cacheDir }))));
      return ExitCodes.OK;
    }
    default: {
      const state = serverStatus(server, { cacheDir });
      write(state ? `${server.name} is running: ${describe(state)}` : `${server.name} is not running`);
      return state ? ExitCodes.OK : ExitCodes.FAILED;
    }
  }
}
