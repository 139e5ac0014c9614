// Real sockets on 127.0.0.1 for the connection tests: a port nobody listens on, and a server that accepts
// connections and never answers (or answers with something that is not the database's protocol). Neither
// pretends to be a database.
import net from 'node:net';

// A TCP server on 127.0.0.1, on a port the system chooses (or `port`).
export function listen(onConnection, port = 0) {
  return new Promise((resolve, reject) => {
    const server = net.createServer(onConnection);
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

// A port that was free a moment ago: connecting to it is refused.
export async function freePort() {
  const server = await listen();
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Accepts every TCP connection and never sends a byte, as a hung server or another service would; with `reply`,
// answers whatever a client sends with it. `open` counts the connections open at once, `most` the most there
// were. After `hangUp()` every connection, old and new, is closed, so that every request still waiting fails.
//
// `read`: whether to read (and ignore) what clients send. Only a socket that reads sees the client's FIN and
// closes, so with `read` `open` falls when a client lets go of a connection; without it a connection counts as
// open until the server ends it, and `most` counts every connection a client ever opened. A reply needs `read`.
export async function silentServer({ reply = null, read = reply !== null } = {}) {
  const sockets = new Set();
  let open = 0;
  let most = 0;
  let hungUp = false;
  const server = await listen((socket) => {
    if (hungUp) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    open += 1;
    most = Math.max(most, open);
    socket.on('close', () => { open -= 1; });
    socket.on('error', () => {});
    if (read) socket.on('data', () => { if (reply !== null) socket.write(reply); });
  });
  return {
    port: server.address().port,
    get open() { return open; },
    get most() { return most; },
    hangUp() {
      hungUp = true;
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// Resolves to the rejection of connect() (error null if it connected) and how long it took; closes the adapter
// `closes` times either way, as a harness whose run failed still closes what it opened.
export async function tryConnect(description, options, { closes = 1 } = {}) {
  const adapter = description.create(options);
  const begin = performance.now();
  try {
    await adapter.connect();
  } catch (error) {
    return { error, ms: performance.now() - begin };
  } finally {
    for (let i = 0; i < closes; i += 1) await adapter.close();
  }
  return { error: null, ms: performance.now() - begin };
}

// The first base port, from `first` in steps of `step` and below the kernel's ephemeral ports, at which every port
// `base + offset` is free on 127.0.0.1: for a test that starts servers of its own on several ports.
export async function freePortBlock(first, offsets, { step = 100, below = 32000 } = {}) {
  const { portIsFree } = await import('../../server/process.js');
  for (let base = first; base < below; base += step) {
    if ((await Promise.all(offsets.map((offset) => portIsFree(base + offset)))).every(Boolean)) return base;
  }
  throw new Error(`no free block of ports (${offsets.join(', ')} from a base) from ${first} to ${below}`);
}
