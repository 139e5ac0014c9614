// The Pokec profile schema and the mapping from a file row to the profile document of adapters/README.md.
import { BenchError, ErrorCodes } from '../core/errors.js';

export const PROFILE_COLUMNS = Object.freeze([
  'user_id', 'public', 'completion_percentage', 'gender', 'region', 'last_login', 'registration', 'AGE', 'body',
  'I_am_working_in_field', 'spoken_languages', 'hobbies', 'I_most_enjoy_good_food', 'pets', 'body_type',
  'my_eyesight', 'eye_color', 'hair_color', 'hair_type', 'completed_level_of_education', 'favourite_color',
  'relation_to_smoking', 'relation_to_alcohol', 'sign_in_zodiac', 'on_pokec_i_am_looking_for', 'love_is_for_me',
  'relation_to_casual_sex', 'my_partner_should_be', 'marital_status', 'children', 'relation_to_children',
  'I_like_movies', 'I_like_watching_movie', 'I_like_music', 'I_mostly_like_listening_to_music',
  'the_idea_of_good_evening', 'I_like_specialties_from_kitchen', 'fun', 'I_am_going_to_concerts',
  'my_active_sports', 'my_passive_sports', 'profession', 'I_like_books', 'life_style', 'music', 'cars', 'politics',
  'relationships', 'art_culture', 'hobbies_interests', 'science_technologies', 'computers_internet', 'education',
  'sport', 'movies', 'travelling', 'health', 'companies_brands', 'more',
]);

export const INTEGER_COLUMNS = new Set(['public', 'completion_percentage', 'gender', 'AGE']);

// How the files write a missing value.
export const NULL_VALUE = 'null';

const KEY_PREFIX = 'P';
const INTEGER = /^-?\d+$/;
const ID = /^[1-9]\d*$/;
const KEY = /^P[1-9]\d*$/;

export function profileKey(id) {
  return KEY_PREFIX + id;
}

export function profileId(key) {
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw new BenchError(ErrorCodes.DATASET, `not a profile key: ${JSON.stringify(key)}`);
  }
  return Number(key.slice(KEY_PREFIX.length));
}

// These throw with the column's name; the file reader adds the file and line.
function checkId(text) {
  if (!ID.test(text)) throw new BenchError(ErrorCodes.DATASET, `user_id is not a positive integer: ${JSON.stringify(text)}`);
  return text;
}

function parseInteger(column, text) {
  if (!INTEGER.test(text)) throw new BenchError(ErrorCodes.DATASET, `${column} is not an integer: ${JSON.stringify(text)}`);
  return Number(text);
}

// `fields` holds at least the 59 columns in file order; a trailing empty field is ignored.
export function rowToDocument(fields) {
  const doc = { _key: profileKey(checkId(fields[0])) };
  for (let i = 1; i < PROFILE_COLUMNS.length; i += 1) {
    const text = fields[i];
    if (text === NULL_VALUE) continue;
    const column = PROFILE_COLUMNS[i];
    doc[column] = INTEGER_COLUMNS.has(column) ? parseInteger(column, text) : text;
  }
  return doc;
}
