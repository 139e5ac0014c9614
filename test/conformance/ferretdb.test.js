// The shared conformance suite against the ferretdb adapter and its local server (test/conformance/adapter.js).
import { conformanceTests } from './adapter.js';

await conformanceTests('ferretdb');
