// The shared conformance suite against the neo4j adapter and its local server (test/conformance/adapter.js).
import { conformanceTests } from './adapter.js';

await conformanceTests('neo4j');
