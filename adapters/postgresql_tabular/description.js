import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { adapterDescription } from '../postgresql/adapter-description.js';
import { tabularQueries } from './queries.js';
import { tabularModel } from './tabular-model.js';

const description = adapterDescription({
  id: 'postgresql_tabular', name: 'PostgreSQL (tabular)', model: tabularModel, queries: tabularQueries,
});

// The two PostgreSQL models differ in how they store profiles; an edge list has no document to model.
const SAME_EDGE_TABLE = 'the graph suite\'s edge table (three integer columns, its primary key and the index on the '
  + 'target end) would be identical to postgresql\'s: run the graph suite with --db postgresql';

export default {
  ...description,
  unsupported: Object.fromEntries(GRAPH_OPERATIONS.map((operation) => [operation, SAME_EDGE_TABLE])),
};
