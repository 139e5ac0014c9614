import { adapterDescription } from './adapter-description.js';
import { documentModel } from './document-model.js';
import { documentQueries } from './queries.js';

export default adapterDescription({ id: 'postgresql', name: 'PostgreSQL', model: documentModel, queries: documentQueries });
