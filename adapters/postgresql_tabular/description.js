import { adapterDescription } from '../postgresql/adapter-description.js';
import { tabularQueries } from './queries.js';
import { tabularModel } from './tabular-model.js';

export default adapterDescription({
  id: 'postgresql_tabular', name: 'PostgreSQL (tabular)', model: tabularModel, queries: tabularQueries,
});
