// An evaluator of exactly the aggregation stages and expressions the mongodb adapter's neighbourhood pipelines
// and graph suite pipelines use, over in-memory arrays, written from MongoDB's documented semantics of each. The
// unit tests run the adapter's pipelines through it on graphs whose answers are known, which checks what the
// pipelines ask for. It is not MongoDB and proves nothing about a server: it throws on any stage, operator or form
// it does not know.

const clone = (value) => structuredClone(value);

function only(object, what) {
  const entries = Object.entries(object);
  if (entries.length !== 1) throw new Error(`${what}: expected one key, got ${JSON.stringify(object)}`);
  return entries[0];
}

// A field path ("a.b") read from a document; through an array of documents it gives the array of their values,
// leaving out those that lack the field, as MongoDB's "$a.b" does.
function readPath(value, path) {
  let current = value;
  for (const field of path.split('.')) {
    if (Array.isArray(current)) {
      current = current.filter((item) => item !== null && typeof item === 'object' && field in item)
        .map((item) => item[field]);
    } else if (current !== null && typeof current === 'object') {
      current = current[field];
    } else {
      return undefined;
    }
  }
  return current;
}

function evaluate(expression, doc) {
  if (typeof expression === 'string' && expression.startsWith('$')) return readPath(doc, expression.slice(1));
  if (Array.isArray(expression)) return expression.map((item) => evaluate(item, doc));
  if (expression !== null && typeof expression === 'object') {
    const [operator, operands] = only(expression, 'expression');
    if (operator === '$cond') {
      if (!Array.isArray(operands) || operands.length !== 3) throw new Error('$cond: only the [if, then, else] form is supported');
      const [condition, then, otherwise] = operands;
      return evaluate(evaluate(condition, doc) ? then : otherwise, doc);
    }
    if (operator === '$eq') {
      if (!Array.isArray(operands) || operands.length !== 2) throw new Error('$eq: expected two operands');
      const [left, right] = operands.map((operand) => evaluate(operand, doc));
      return left === right;
    }
    if (operator === '$concatArrays') {
      const arrays = operands.map((operand) => evaluate(operand, doc));
      if (arrays.some((array) => array === undefined || array === null)) return null;
      if (!arrays.every(Array.isArray)) throw new Error('$concatArrays: an operand is not an array');
      return arrays.flat(1);
    }
    throw new Error(`unknown expression operator ${operator}`);
  }
  if (typeof expression === 'string' || typeof expression === 'number' || expression === null) return expression;
  throw new Error(`unknown expression ${JSON.stringify(expression)}`);
}

function matches(doc, filter) {
  return Object.entries(filter).every(([field, condition]) => {
    if (field === '$or') {
      if (!Array.isArray(condition) || condition.length === 0) throw new Error('$or: expected a non-empty array');
      return condition.some((branch) => matches(doc, branch));
    }
    const value = readPath(doc, field);
    if (condition !== null && typeof condition === 'object') {
      const [operator, operand] = only(condition, '$match condition');
      if (operator === '$ne') return value !== operand;
      throw new Error(`unknown query operator ${operator}`);
    }
    return value === condition;
  });
}

function project(doc, spec) {
  const result = {};
  if (spec._id === undefined && '_id' in doc) result._id = doc._id;
  for (const [field, value] of Object.entries(spec)) {
    if (field === '_id' && value === 0) continue;
    if (value === 1) {
      if (field in doc) result[field] = doc[field];
    } else if (value === 0) {
      throw new Error('$project: excluding fields other than _id is not supported here');
    } else {
      const computed = evaluate(value, doc);
      if (computed !== undefined) result[field] = computed;
    }
  }
  return result;
}

// $sum over a group: the numbers its expression gives, other values ignored; 0 when there are none.
function accumulate(docs, accumulator, field) {
  const [operator, expression] = only(accumulator, `$group field ${field}`);
  if (operator !== '$sum') throw new Error(`$group: unknown accumulator ${operator}`);
  return docs.map((doc) => evaluate(expression, doc)).filter((value) => typeof value === 'number')
    .reduce((sum, value) => sum + value, 0);
}

// One document per distinct _id, in the order each first appears; no document for no input.
function group(docs, spec) {
  const { _id, ...accumulators } = spec;
  const groups = new Map();
  for (const doc of docs) {
    const key = evaluate(_id, doc) ?? null;
    const text = JSON.stringify(key);
    if (!groups.has(text)) groups.set(text, { key, docs: [] });
    groups.get(text).docs.push(doc);
  }
  return [...groups.values()].map(({ key, docs: members }) => ({
    _id: key,
    ...Object.fromEntries(Object.entries(accumulators)
      .map(([field, accumulator]) => [field, accumulate(members, accumulator, field)])),
  }));
}

function unwind(docs, path) {
  if (typeof path !== 'string' || !path.startsWith('$')) throw new Error('$unwind: only the "$field" form is supported');
  const field = path.slice(1);
  if (field.includes('.')) throw new Error('$unwind: only top-level fields are supported here');
  return docs.flatMap((doc) => {
    const value = doc[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return [doc];
    return value.map((item) => ({ ...doc, [field]: item }));
  });
}

export function runPipeline(collections, name, pipeline) {
  let docs = (collections[name] ?? []).map(clone);
  for (const stage of pipeline) {
    const [operator, spec] = only(stage, 'stage');
    switch (operator) {
      case '$match':
        docs = docs.filter((doc) => matches(doc, spec));
        break;
      case '$group':
        docs = group(docs, spec);
        break;
      case '$project':
        docs = docs.map((doc) => project(doc, spec));
        break;
      case '$unwind':
        docs = unwind(docs, spec);
        break;
      case '$replaceWith':
        docs = docs.map((doc) => {
          const replacement = evaluate(spec, doc);
          if (replacement === null || typeof replacement !== 'object' || Array.isArray(replacement)) {
            throw new Error('$replaceWith: the replacement is not a document');
          }
          return replacement;
        });
        break;
      case '$lookup': {
        const { from, localField, foreignField, as, pipeline: inner = [], ...rest } = spec;
        if (Object.keys(rest).length > 0) throw new Error(`$lookup: unsupported options ${Object.keys(rest)}`);
        docs = docs.map((doc) => {
          const local = readPath(doc, localField);
          const joined = (collections[from] ?? []).filter((other) => readPath(other, foreignField) === local);
          return { ...doc, [as]: runPipeline({ [from]: joined }, from, inner) };
        });
        break;
      }
      default:
        throw new Error(`unknown stage ${operator}`);
    }
  }
  return docs;
}
