// The shared conformance suite against the mysql adapter and its local server (test/conformance/adapter.js).
import { conformanceTests } from './adapter.js';

await conformanceTests('mysql');
