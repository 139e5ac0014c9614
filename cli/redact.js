// What a result document keeps of --restart-cmd: its program, not its arguments, which may hold a password
// (`mysqladmin -psecret shutdown`, `PGPASSWORD=secret pg_ctl ...`). The command runs as typed; only the
// record is redacted, wherever the command appears in it (config, command line, error messages).

// Leading VAR=value words are the environment, not the program.
export function redactCommand(command) {
  const words = command.trim().split(/\s+/);
  const start = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (start === 0 && words.length === 1) return words[0];
  const program = start === -1 ? '' : words[start];
  const hidden = words.length - 1;
  return `${program} [${hidden} word${hidden === 1 ? '' : 's'} redacted]`.trim();
}

// A function from a result document to the document as stored and shown: a copy with every occurrence of
// `restartCmd` replaced by its redacted form (the identity without one).
export function storedResult(restartCmd) {
  if (!restartCmd) return (result) => result;
  const raw = JSON.stringify(restartCmd).slice(1, -1);
  const redacted = JSON.stringify(redactCommand(restartCmd)).slice(1, -1);
  return (result) => JSON.parse(JSON.stringify(result).replaceAll(raw, redacted));
}
