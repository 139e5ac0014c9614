// The COPY stream when its server goes away mid-COPY, over a stand-in of pg's connection (no server): the error
// reaches the caller, and the writes the library still had to send go nowhere instead of ending the process.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { CopyStream } from '../../adapters/postgresql/copy.js';

// pg's side: query() submits the COPY; the socket takes the first write and then asks the sender to wait for 'drain'.
function standIn() {
  const socket = Object.assign(new EventEmitter(), { written: 0, write() { this.written += 1; return false; } });
  const connection = { stream: socket, query() {}, sendCopyFail() { throw new Error('no CopyFail on a connection that is gone'); } };
  let submitted;
  const client = { query(query) { submitted = query; query.submit(connection); return query; } };
  return { socket, client, submitted: () => submitted };
}

test('a COPY whose server goes away mid-COPY fails its writes with the server\'s error; the buffered rows go nowhere', async () => {
  const { socket, client, submitted } = standIn();
  const copy = new CopyStream(client, 'COPY t (a) FROM STDIN');
  const query = submitted();
  query.handleCopyInResponse(query.connection);
  // The first write goes to the socket, which is full; the next ones wait in the stream's buffer.
  const writes = ['1\n', '2\n', '3\n'].map((line) => copy.write(line).then(() => null, (error) => error));
  assert.equal(socket.written, 2, 'the first row, its length first');
  const gone = new Error('Connection terminated unexpectedly');
  query.handleError(gone);
  // The socket drains after all: with the connection gone, the buffered rows must not be written to a null one.
  assert.doesNotThrow(() => socket.emit('drain'));
  await new Promise((resolve) => { setImmediate(resolve); });
  assert.equal(socket.written, 2, 'nothing more reached the old socket');
  await assert.rejects(copy.write('4\n'), gone);
  await assert.rejects(copy.end(), gone);
  assert.deepEqual((await Promise.all(writes)).filter(Boolean).map((error) => error.message), [], 'the queued writes were taken by the stream');
});
