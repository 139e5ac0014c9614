import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { adapterDescription } from './adapter-description.js';
import { documentModel } from './document-model.js';
import { documentQueries } from './queries.js';

const description = adapterDescription({ id: 'postgresql', name: 'PostgreSQL', model: documentModel, queries: documentQueries });

// The graph suite's edge table is the same for both models of the family, so it is offered here only
// (README.md, "Graph suite").
export default { ...description, supports: [...description.supports, ...GRAPH_OPERATIONS] };
