// Limits the server-backed tests share.

// How long a test's connect() to a running server may take. A JVM server on a loaded machine took more than 5 s to
// open its first session (Neo4j, in a CI beside other jobs), and a Neo4j just started by a test more than 10 s (two
// CPU hogs and other work beside the CI); the limit bounds a wait, it does not slow a test whose server answers.
// An unreachable server is tested with a limit of its own.
export const SERVER_CONNECT_TIMEOUT_MS = 60_000;
