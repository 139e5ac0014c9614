// Documents of the temporary collections, to and from OrientDB, exactly. orientjs cannot carry every document
// through its binary record format: it decodes a field named `__proto__` by assignment, which drops it, and its
// zigzag varints are computed in doubles, which corrupts integers below -2^52 both ways. So documents are read
// as JSON text the server writes (toJSON with no attributes: own fields only, no @rid, @class or @version), and
// written as a JSON object in the statement whose values are parameters (see content()).
import { BenchError, ErrorCodes } from '../../core/errors.js';

export const DOCUMENT_JSON = "@this.toJSON('') AS json";

// JSON.parse defines every field as an own property, `__proto__` included.
export function parseDocument({ json }) {
  return JSON.parse(json);
}

// Field names are written into the statement's text, so they must be what the contract allows (letters,
// digits and `_`, 1 to 40 characters) and nothing else ever is.
const FIELD_NAME = /^[A-Za-z0-9_]{1,40}$/;
// Below this the zigzag encoding of a negative integer (2|n| - 1) exceeds 2^53 and loses its lowest bit.
const MIN_EXACT_PARAMETER = -(2 ** 52);

// `{"name": :v0, ...}` with its parameters. An integer that no parameter carries exactly is written as a literal
// (a safe integer's text is its sign and digits).
export function content(label, doc) {
  const params = {};
  const fields = Object.entries(doc).map(([name, value], i) => {
    if (!FIELD_NAME.test(name)) {
      throw new BenchError(ErrorCodes.USAGE,
        `${label}: field name ${JSON.stringify(name)} is not 1 to 40 letters, digits and _`);
    }
    if (Number.isSafeInteger(value) && value < MIN_EXACT_PARAMETER) return `"${name}": ${value}`;
    params[`v${i}`] = value;
    return `"${name}": :v${i}`;
  });
  return { json: `{${fields.join(', ')}}`, params };
}
