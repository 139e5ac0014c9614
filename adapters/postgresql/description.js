import { adapterDescription } from './adapter-description.js';
import { documentModel } from './document-model.js';

export default adapterDescription({ id: 'postgresql', name: 'PostgreSQL', model: documentModel });
