// The shared conformance suite against the orientdb adapter and its local server (test/conformance/adapter.js).
import { conformanceTests } from './adapter.js';

await conformanceTests('orientdb');
