// A synthetic Pokec in SNAP's own file formats, so that the real files can replace it unchanged. The same scale
// and seed always give byte-identical files: every random choice comes from a seeded stream, in a fixed order.
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { NULL_VALUE } from './columns.js';
import { adjacency } from './graph.js';
import { createRandom } from './random.js';
import { scaleSizes } from './scales.js';

// Bump whenever the output for a given scale and seed changes: cached datasets carry it in their id.
export const GENERATOR_VERSION = 1;
export const PROFILES_FILE = 'soc-pokec-profiles.txt';
export const RELATIONS_FILE = 'soc-pokec-relationships.txt';

const PROFILE_STREAM = 1;
const RELATION_STREAM = 2;
const CHUNK_BYTES = 1 << 22;
const PROGRESS_STEPS = 10;

// ---- Profiles --------------------------------------------------------------------------------------------

const words = (text) => text.split('|');

// Pokec writes regions without diacritics, as "kraj, okres".
const REGIONS = [
  ['bratislavsky kraj', 14, 'bratislava - stare mesto|bratislava - ruzinov|bratislava - nove mesto|'
    + 'bratislava - karlova ves|bratislava - petrzalka|bratislava - dubravka|malacky|pezinok|senec'],
  ['trnavsky kraj', 10, 'dunajska streda|galanta|hlohovec|piestany|senica|skalica|trnava'],
  ['trenciansky kraj', 11, 'banovce nad bebravou|ilava|myjava|nove mesto nad vahom|partizanske|povazska bystrica|'
    + 'prievidza|puchov|trencin'],
  ['nitriansky kraj', 12, 'komarno|levice|nitra|nove zamky|sala|topolcany|zlate moravce'],
  ['zilinsky kraj', 13, 'bytca|cadca|dolny kubin|kysucke nove mesto|liptovsky mikulas|martin|namestovo|ruzomberok|'
    + 'turcianske teplice|tvrdosin|zilina'],
  ['banskobystricky kraj', 12, 'banska bystrica|banska stiavnica|brezno|detva|krupina|lucenec|poltar|revuca|'
    + 'rimavska sobota|velky krtis|zarnovica|ziar nad hronom|zvolen'],
  ['presovsky kraj', 15, 'bardejov|humenne|kezmarok|levoca|medzilaborce|poprad|presov|sabinov|snina|stara lubovna|'
    + 'stropkov|svidnik|vranov nad toplou'],
  ['kosicky kraj', 14, 'gelnica|kosice - juh|kosice - zapad|kosice - sever|kosice - dargovskych hrdinov|'
    + 'kosice - okolie|michalovce|roznava|sobrance|spisska nova ves|trebisov'],
  ['zahranicie', 1, 'zahranicie'],
].map(([kraj, weight, okresy]) => ({ weight, names: words(okresy).map((okres) => `${kraj}, ${okres}`) }));
const REGION_WEIGHT = REGIONS.reduce((sum, region) => sum + region.weight, 0);

const PROSE_WORDS = words('život|láska|priateľ|priateľka|rodina|hudba|príroda|more|hory|leto|zima|jar|jeseň|slnko|dážď|'
  + 'cesta|mesto|dedina|domov|práca|škola|kniha|film|pieseň|sen|radosť|smiech|úsmev|pokoj|sloboda|šťastie|nádej|'
  + 'pravda|srdce|duša|čas|deň|noc|ráno|večer|víkend|dovolenka|výlet|zábava|večierok|kamarát|kamarátka|mama|otec|'
  + 'brat|sestra|pes|mačka|auto|motorka|bicykel|počítač|internet|mobil|hra|šport|futbal|hokej|tanec|pivo|víno|'
  + 'káva|čaj|čokoláda|pizza|guláš|halušky|bryndza|rád|rada|mám|som|chcem|milujem|nemám|žijem|hľadám|poznám|'
  + 'cestujem|spievam|čítam|počúvam|hrám|varím|tancujem|snívam|pracujem|študujem|veľmi|stále|niekedy|často|nikdy|'
  + 'dnes|zajtra|včera|spolu|sám|sama|dobrý|dobrá|krásny|krásna|veselý|veselá|smutný|tichý|nový|starý|mladý|veľký|'
  + 'malý|pekný|zlatý|modrý|zelený|slovenský|vlastný|každý|všetko|nič|niečo|a|aj|ale|alebo|že|keď|lebo|na|v|s|so|'
  + 'do|z|pri|pre|o|po|za|bez|k|ako|tak|len|ešte|už|tu|tam|kde|kto|čo|prečo|áno|nie|ďakujem|ahoj|čau|Tatry|'
  + 'Bratislava|Košice|"Pelíšky"|"Titanic"|"Harry Potter"|Elán|Kabát|&|:)|;-)');
const SENTENCE_ENDS = ['.', '.', '.', '!', '...', ' :)', ' :-D', '?', '!!!'];
const PROSE_MORE = 0.35;
const PROSE_LINE_BREAK = 0.3;

const FIELDS_OF_WORK = words('informačné technológie|obchod a predaj|zdravotníctvo|školstvo|stavebníctvo|strojárstvo|'
  + 'doprava a logistika|gastronómia|cestovný ruch|financie a bankovníctvo|administratíva|poľnohospodárstvo|právo|'
  + 'marketing a reklama|automobilový priemysel|elektrotechnika|služby|kultúra a umenie|šport|verejná správa|'
  + 'ozbrojené zložky|médiá|výroba|som študent|som študentka|na materskej dovolenke|som na dôchodku|nezamestnaný');
const LANGUAGES = words('slovensky|česky|anglicky|nemecky|maďarsky|rusky|francúzsky|španielsky|taliansky|poľsky|'
  + 'ukrajinsky|rómsky|latinsky');
const HOBBIES = words('varenie|čítanie kníh|šport|cestovanie|počítače a internet|hudba|tanec|kino|divadlo|'
  + 'fotografovanie|rybárčenie|poľovníctvo|turistika|záhradkárčenie|autá|motorky|móda|nakupovanie|hry|chatovanie|'
  + 'kreslenie|spievanie|hra na gitaru|jazda na koni|plávanie|bicyklovanie|lyžovanie|príroda|zvieratá|ručné práce|'
  + 'pečenie|filmy|seriály|diskotéky|párty|spánok|rodina|priatelia|zbieranie známok|horolezectvo|vodáctvo|'
  + 'kolieskové korčule|posilňovanie|joga|astrológia|história|cudzie jazyky|programovanie|modelárstvo|šachy|karty');
const FOOD_PLACES = words('doma|v reštaurácii|u mamy|v pizzerii|vo fast foode|na chate|v dobrej spoločnosti|'
  + 'pri sviečkach|na grile|u babky|kdekoľvek|v čínskej reštaurácii');
const PETS = words('pes|mačka|morča|škrečok|rybičky|papagáj|korytnačka|králik|had|kôň|andulka|potkan|činčila|'
  + 'nemám zviera|mám rád zvieratá|nemám rád zvieratá|fenka Bella|kocúr Mico|psík Azor|jazvečík|nemecký ovčiak');
const BODY_TYPES = words('priemerná|štíhla|atletická|pár kíl navyše|plnoštíhla|svalnatá|chudá|silnejšia|normálna');
const EYESIGHT = words('mám perfektný zrak|nosím okuliare|nosím kontaktné šošovky|som krátkozraký|som ďalekozraký|'
  + 'okuliare iba na čítanie');
const EYE_COLORS = words('hnedé|modré|zelené|sivé|čierne|modrozelené|hnedozelené|sivomodré|orieškové');
const HAIR_COLORS = words('blond|hnedé|čierne|gaštanové|ryšavé|melírované|tmavohnedé|svetlohnedé|šedivé|farbené|'
  + 'nemám vlasy');
const HAIR_TYPES = words('krátke|dlhé|rovné|vlnité|kučeravé|po plecia|na ježka|polodlhé|mikádo|dredy|vyholené');
const EDUCATION = words('základné|stredoškolské|stredoškolské s maturitou|učňovské|vysokoškolské|'
  + 'vysokoškolské - bakalár|vysokoškolské - magister|doktorát|študujem');
const COLORS = words('čierna|biela|červená|modrá|zelená|žltá|oranžová|fialová|ružová|hnedá|sivá|tyrkysová|bordová|'
  + 'zlatá|strieborná|béžová');
const SMOKING = words('nefajčím|fajčím príležitostne|fajčím pravidelne|snažím sa prestať|fajčím len keď pijem|'
  + 'nevadí mi keď niekto fajčí|nemám rád fajčiarov');
const ALCOHOL = words('abstinent|pijem príležitostne|pijem pravidelne|len na oslavách|pohárik vína k jedlu|'
  + 'pivo s kamarátmi|nepijem vôbec');
const ZODIAC = words('baran|býk|blíženci|rak|lev|panna|váhy|škorpión|strelec|kozorožec|vodnár|ryby');
const LOOKING_FOR = words('priateľa|priateľku|kamaráta|kamarátku|zábavu|dobrý flirt|niekoho na chatovanie|'
  + 'vážny vzťah|manžela|manželku|spriaznenú dušu|nových ľudí|partnera na šport|nič konkrétne');
const CASUAL_SEX = words('nie je pre mňa|len s láskou|prečo nie|záleží na situácii|nehovorím o tom|som za|som proti');
const PARTNER_TRAITS = words('úprimný|úprimná|verný|verná|zábavný|zábavná|vysoký|romantický|romantická|'
  + 'inteligentný|inteligentná|pekný|pekná|milý|milá|spoľahlivý|tolerantný|citlivý|ambiciózny|športovo založený|'
  + 'nefajčiar|s humorom|starostlivý');
const MARITAL_STATUS = words('slobodný|slobodná|ženatý|vydatá|rozvedený|rozvedená|vdovec|vdova|mám vážnu známosť|'
  + 'zadaný|zadaná|zasnúbený|zasnúbená|žijem s partnerom|je to zložité');
const CHILDREN = words('nemám deti|mám 1 dieťa|mám 2 deti|mám 3 deti|mám viac detí|v budúcnosti chcem mať deti|'
  + 'nechcem mať deti|čakám dieťa|syna|dcéru|dvojičky|ešte nie');
const TOWARDS_CHILDREN = words('mám rád deti|milujem deti|deti sú naša budúcnosť|nemám vzťah k deťom|'
  + 'deti mi nevadia|chcem veľa detí|cudzie deti mi liezú na nervy');
const MOVIE_GENRES = words('komédie|akčné|horory|romantické|sci-fi|drámy|rozprávky|thrillery|fantasy|animované|'
  + 'dokumentárne|historické|vojnové|kriminálne|muzikály|westerny|psychologické|české komédie|slovenské filmy');
const WATCHING = words('doma na DVD|v kine|s priateľmi|sám|so svojou polovičkou|v televízii|na internete|v posteli|'
  + 's rodinou|v letnom kine');
const MUSIC_GENRES = words('pop|rock|disko|techno|hip hop|rap|ľudová|metal|house|r&b|punk|jazz|klasická|country|'
  + 'reggae|dnb|trance|oldies|dychovka|alternatíva|elektronická|slovenská|česká');
const LISTENING = words('pri šoférovaní|doma|na diskotéke|v aute|keď som smutný|keď som smutná|stále|pri učení|'
  + 'pri práci|pred spaním|v MHD|na koncertoch|cez slúchadlá|pri upratovaní');
const GOOD_EVENING = words('s priateľmi v bare|romantická večera|pozerať film|ísť na diskotéku|pri sviečkach|'
  + 'na koncerte|doma na gauči|pri pive|v divadle|prechádzka pri mesiaci|pri táboráku|v posteli s knihou|'
  + 'grilovačka na chate');
const KITCHENS = words('slovenskej|talianskej|čínskej|mexickej|francúzskej|gréckej|indickej|japonskej|maďarskej|'
  + 'českej|thajskej|tureckej|domácej|vegetariánskej|mamkinej');
const CONCERTS = words('áno, rád|áno, rada|občas|nie|len na festivaly|keď hrá moja obľúbená kapela|nemám čas|'
  + 'áno, veľmi');
const SPORTS = words('futbal|hokej|plávanie|bicyklovanie|tenis|lyžovanie|volejbal|basketbal|fitness|beh|aerobik|'
  + 'snowboarding|korčuľovanie|stolný tenis|squash|box|karate|florbal|hádzaná|turistika|golf|bowling|biliard|'
  + 'šípky|jazda na koni|motokros|rybolov|šach');
const PROFESSIONS = words('študent|študentka|učiteľ|učiteľka|programátor|predavačka|čašník|čašníčka|kuchár|lekár|'
  + 'zdravotná sestra|vodič|murár|elektrikár|účtovníčka|manažér|policajt|vojak|kaderníčka|automechanik|robotník|'
  + 'úradníčka|podnikateľ|inžinier|právnik|architekt|grafik|kozmetička|skladník|ošetrovateľka|dôchodca');

function sentence(rng) {
  const count = 3 + rng.int(8);
  const first = rng.pick(PROSE_WORDS);
  let text = first[0].toUpperCase() + first.slice(1);
  for (let i = 1; i < count; i += 1) text += ` ${rng.pick(PROSE_WORDS)}`;
  return text + rng.pick(SENTENCE_ENDS);
}

function prose(rng) {
  let text = sentence(rng);
  while (rng.chance(PROSE_MORE)) text += (rng.chance(PROSE_LINE_BREAK) ? '<br />' : ' ') + sentence(rng);
  return text;
}

// Up to `max` distinct terms, sometimes followed by a sentence: the sentence makes most values unique, as
// free text is in the real data.
function terms(vocabulary, max, proseChance = 0) {
  return (rng) => {
    const count = 1 + rng.int(max);
    const chosen = [];
    while (chosen.length < count) {
      const term = rng.pick(vocabulary);
      if (!chosen.includes(term)) chosen.push(term);
    }
    const text = chosen.join(', ');
    return proseChance > 0 && rng.chance(proseChance) ? `${text}, ${prose(rng)}` : text;
  };
}

function bodyMeasurements(rng, gender) {
  const height = gender === 0 ? 152 + rng.int(30) : 165 + rng.int(32);
  const weight = Math.round((height - 100) * (0.75 + 0.5 * rng.next()));
  return `${height} cm, ${weight} kg`;
}

// [column, share of profiles holding it, value]; in file order, after the eight structured columns. The share
// is an average: each profile's chance grows with its completion_percentage.
const TEXT_COLUMNS = [
  ['body', 0.45, bodyMeasurements],
  ['I_am_working_in_field', 0.38, terms(FIELDS_OF_WORK, 2)],
  ['spoken_languages', 0.45, terms(LANGUAGES, 4)],
  ['hobbies', 0.45, terms(HOBBIES, 7, 0.2)],
  ['I_most_enjoy_good_food', 0.35, terms(FOOD_PLACES, 3)],
  ['pets', 0.43, terms(PETS, 3, 0.4)],
  ['body_type', 0.4, terms(BODY_TYPES, 1)],
  ['my_eyesight', 0.38, terms(EYESIGHT, 1)],
  ['eye_color', 0.42, terms(EYE_COLORS, 1)],
  ['hair_color', 0.42, terms(HAIR_COLORS, 1)],
  ['hair_type', 0.4, terms(HAIR_TYPES, 2)],
  ['completed_level_of_education', 0.4, terms(EDUCATION, 1)],
  ['favourite_color', 0.4, terms(COLORS, 3)],
  ['relation_to_smoking', 0.4, terms(SMOKING, 1)],
  ['relation_to_alcohol', 0.4, terms(ALCOHOL, 1)],
  ['sign_in_zodiac', 0.42, terms(ZODIAC, 1)],
  ['on_pokec_i_am_looking_for', 0.4, terms(LOOKING_FOR, 4)],
  ['love_is_for_me', 0.3, prose],
  ['relation_to_casual_sex', 0.3, terms(CASUAL_SEX, 1, 0.3)],
  ['my_partner_should_be', 0.35, terms(PARTNER_TRAITS, 5, 0.2)],
  ['marital_status', 0.38, terms(MARITAL_STATUS, 1)],
  ['children', 0.29, terms(CHILDREN, 2, 0.5)],
  ['relation_to_children', 0.3, terms(TOWARDS_CHILDREN, 1, 0.3)],
  ['I_like_movies', 0.35, terms(MOVIE_GENRES, 5)],
  ['I_like_watching_movie', 0.33, terms(WATCHING, 3)],
  ['I_like_music', 0.38, terms(MUSIC_GENRES, 5)],
  ['I_mostly_like_listening_to_music', 0.33, terms(LISTENING, 3)],
  ['the_idea_of_good_evening', 0.33, terms(GOOD_EVENING, 3, 0.3)],
  ['I_like_specialties_from_kitchen', 0.33, terms(KITCHENS, 4)],
  ['fun', 0.25, prose],
  ['I_am_going_to_concerts', 0.3, terms(CONCERTS, 1)],
  ['my_active_sports', 0.33, terms(SPORTS, 4)],
  ['my_passive_sports', 0.3, terms(SPORTS, 4)],
  ['profession', 0.25, terms(PROFESSIONS, 1, 0.2)],
  ['I_like_books', 0.12, prose],
  ['life_style', 0.1, prose],
  ['music', 0.1, terms(MUSIC_GENRES, 6, 0.5)],
  ['cars', 0.08, prose],
  ['politics', 0.05, prose],
  ['relationships', 0.07, prose],
  ['art_culture', 0.06, prose],
  ['hobbies_interests', 0.1, terms(HOBBIES, 6, 0.5)],
  ['science_technologies', 0.05, prose],
  ['computers_internet', 0.07, prose],
  ['education', 0.08, prose],
  ['sport', 0.09, terms(SPORTS, 4, 0.5)],
  ['movies', 0.09, terms(MOVIE_GENRES, 5, 0.5)],
  ['travelling', 0.08, prose],
  ['health', 0.05, prose],
  ['companies_brands', 0.05, prose],
  ['more', 0.1, prose],
];
// E[(c / 50)^2] for completion c = 50 * (u1 + u2): divides it out so that the shares above stay averages.
const MEAN_FILL = 7 / 6;
const MAX_PRESENCE = 0.97;

const PUBLIC_RATE = 0.55;
const GENDER_UNSET_RATE = 0.01;
const AGE_UNSET_RATE = 1 / 3;
const YOUNGEST_AGE = 14;
const MEAN_YEARS_ABOVE_YOUNGEST = 9;
const OLDEST_AGE = 90;
const FIRST_REGISTRATION = Date.UTC(2001, 0, 1) / 1000;
const CRAWL_END = Date.UTC(2012, 4, 25, 23, 59, 59) / 1000;

function region(rng) {
  let x = rng.next() * REGION_WEIGHT;
  let i = 0;
  while (x >= REGIONS[i].weight && i < REGIONS.length - 1) x -= REGIONS[i++].weight;
  return rng.pick(REGIONS[i].names);
}

const SECONDS_PER_DAY = 86400;
const FIRST_DAY = Math.floor(FIRST_REGISTRATION / SECONDS_PER_DAY);
// Formatting by table lookups: Date#toISOString twice per profile was a tenth of the generation time.
const DAYS = Array.from({ length: Math.floor(CRAWL_END / SECONDS_PER_DAY) - FIRST_DAY + 1 },
  (_, i) => new Date((FIRST_DAY + i) * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10));
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

function timestamp(seconds) {
  const day = Math.floor(seconds / SECONDS_PER_DAY);
  const time = seconds - day * SECONDS_PER_DAY;
  const hours = Math.floor(time / 3600);
  const minutes = Math.floor(time / 60) % 60;
  return `${DAYS[day - FIRST_DAY]} ${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[time % 60]}.0`;
}

// Registrations grow towards the crawl; most users logged in shortly before it.
function activity(rng) {
  const registered = FIRST_REGISTRATION + Math.floor((CRAWL_END - FIRST_REGISTRATION) * Math.sqrt(rng.next()));
  const u = rng.next();
  const idle = Math.floor((CRAWL_END - registered) * u * u * u * u);
  return `${timestamp(CRAWL_END - idle)}\t${timestamp(registered)}`;
}

// An exponential tail above the youngest age: most users are teenagers and young adults.
function age(rng) {
  if (rng.chance(AGE_UNSET_RATE)) return 0;
  return Math.min(OLDEST_AGE, YOUNGEST_AGE + Math.floor(-Math.log(1 - rng.next()) * MEAN_YEARS_ABOVE_YOUNGEST));
}

function profileLine(rng, id) {
  const completion = Math.round(50 * (rng.next() + rng.next()));
  const fill = (completion * completion) / (2500 * MEAN_FILL);
  const gender = rng.chance(GENDER_UNSET_RATE) ? NULL_VALUE : Number(rng.chance(0.5));
  const isPublic = Number(rng.chance(PUBLIC_RATE));
  let line = `${id}\t${isPublic}\t${completion}\t${gender}\t${region(rng)}\t${activity(rng)}\t${age(rng)}`;
  for (const [, share, value] of TEXT_COLUMNS) {
    line += '\t';
    line += rng.chance(Math.min(MAX_PRESENCE, share * fill)) ? value(rng, gender) : NULL_VALUE;
  }
  return `${line}\t\n`;
}

// Each line is encoded into the chunk as soon as it is made: long-lived concatenated strings cost more in
// garbage collection than generating them.
async function writeProfiles(file, n, rng, report) {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const handle = await open(file, 'w');
  try {
    let position = 0;
    for (let id = 1; id <= n; id += 1) {
      const line = profileLine(rng, id);
      // A UTF-16 code unit takes at most three bytes in UTF-8.
      if (position + 3 * line.length > CHUNK_BYTES) {
        await handle.write(buffer, 0, position);
        position = 0;
        report(id - 1);
      }
      position += buffer.write(line, position);
    }
    await handle.write(buffer, 0, position);
  } finally {
    await handle.close();
  }
}

// ---- Relations -------------------------------------------------------------------------------------------

// Node roles; 0 is a regular node. Hidden nodes: nobody lists them (in-degree 0), so they are the
// guaranteed-unreachable targets of the hard path.
const HIDDEN = 1;
// Silent nodes list nobody (out-degree 0).
const SILENT = 2;
const HIDDEN_RATE = 0.012;
const SILENT_RATE = 0.04;
// Out-degrees before reciprocation follow a Lomax (shifted Pareto) law: most users list a few friends, a few
// list thousands. The scale is tuned so that the mean out-degree after deduplication is Pokec's 18.75.
const DEGREE_TAIL = 2.2;
const DEGREE_SCALE = 20;
const MAX_OUT_DEGREE = 10000;
// Popularity decides who is listed; its Pareto tail gives the heavy-tailed in-degrees.
const POPULARITY_TAIL = 1.8;
// Friends near in id order list each other: these edges close triangles (clustering).
const LOCAL_SHARE = 0.4;
const LOCAL_WINDOW = 12;
// The chance that a listed friend lists back; about half of all edges end up reciprocal.
const RECIPROCITY = 0.33;
// Room for the edges before deduplication, so that the arrays are not grown (copied) on the way.
const EXPECTED_EDGES_PER_NODE = 22;

class EdgeList {
  constructor(capacity) {
    this.from = new Int32Array(capacity);
    this.to = new Int32Array(capacity);
    this.count = 0;
  }

  add(a, b) {
    if (this.count === this.from.length) this.grow();
    this.from[this.count] = a;
    this.to[this.count] = b;
    this.count += 1;
  }

  grow() {
    const capacity = Math.ceil(this.from.length * 1.5);
    const from = new Int32Array(capacity);
    const to = new Int32Array(capacity);
    from.set(this.from);
    to.set(this.to);
    this.from = from;
    this.to = to;
  }
}

// Vose's alias method: O(1) draws from a fixed discrete distribution.
function aliasTable(weights) {
  const size = weights.length;
  const total = weights.reduce((sum, w) => sum + w, 0);
  const prob = new Float64Array(size);
  const alias = new Int32Array(size);
  const small = new Int32Array(size);
  const large = new Int32Array(size);
  let smallCount = 0;
  let largeCount = 0;
  for (let i = 0; i < size; i += 1) {
    prob[i] = (weights[i] * size) / total;
    if (prob[i] < 1) small[smallCount++] = i;
    else large[largeCount++] = i;
  }
  while (smallCount > 0 && largeCount > 0) {
    const s = small[--smallCount];
    const l = large[--largeCount];
    alias[s] = l;
    prob[l] += prob[s] - 1;
    if (prob[l] < 1) small[smallCount++] = l;
    else large[largeCount++] = l;
  }
  // What is left is 1 up to rounding.
  while (largeCount > 0) prob[large[--largeCount]] = 1;
  while (smallCount > 0) prob[small[--smallCount]] = 1;
  return (rng) => {
    const i = rng.int(size);
    return rng.next() < prob[i] ? i : alias[i];
  };
}

// Node 1 stays regular: it anchors the chain of edges to earlier ids that connects every node.
function assignRoles(n, rng) {
  const role = new Uint8Array(n + 1);
  role[0] = HIDDEN;
  for (let v = 2; v <= n; v += 1) {
    const x = rng.next();
    if (x < HIDDEN_RATE) role[v] = HIDDEN;
    else if (x < HIDDEN_RATE + SILENT_RATE) role[v] = SILENT;
  }
  return role;
}

function popularity(role, rng) {
  const weights = new Float64Array(role.length);
  for (let v = 1; v < role.length; v += 1) {
    if (role[v] !== HIDDEN) weights[v] = Math.exp(-Math.log(1 - rng.next()) / POPULARITY_TAIL);
  }
  return weights;
}

function outDegreeTarget(rng, max) {
  const pareto = Math.exp(-Math.log(1 - rng.next()) / DEGREE_TAIL);
  return Math.min(max, 1 + Math.floor(DEGREE_SCALE * (pareto - 1)));
}

// The edges as CSR rows by source, sorted and distinct.
function relationRows(n, rng, report) {
  const role = assignRoles(n, rng);
  const popular = aliasTable(popularity(role, rng));
  const maxDegree = Math.max(1, Math.min(MAX_OUT_DEGREE, n >> 2));
  const edges = new EdgeList(n * EXPECTED_EDGES_PER_NODE);

  const relate = (a, b) => {
    edges.add(a, b);
    if (role[a] !== HIDDEN && role[b] !== SILENT && rng.chance(RECIPROCITY)) edges.add(b, a);
  };
  // A nearby earlier id without the role `avoid`; node 1 ends every walk down.
  const earlier = (v, avoid) => {
    let u = Math.max(1, v - 1 - rng.int(LOCAL_WINDOW));
    while (role[u] === avoid) u -= 1;
    return u;
  };
  const target = (v) => {
    let u;
    if (rng.chance(LOCAL_SHARE)) {
      do {
        u = v - LOCAL_WINDOW + rng.int(2 * LOCAL_WINDOW);
        if (u >= v) u += 1;
      } while (u < 1 || u > n || role[u] === HIDDEN);
    } else {
      do u = popular(rng); while (u === v || role[u] === HIDDEN);
    }
    return u;
  };

  for (let v = 1; v <= n; v += 1) {
    // Every node but the first has an edge to or from an earlier one, so all nodes are weakly connected.
    if (role[v] === SILENT) {
      relate(earlier(v, SILENT), v);
    } else {
      const degree = outDegreeTarget(rng, maxDegree);
      let listed = 0;
      if (v > 1) { relate(v, earlier(v, HIDDEN)); listed = 1; }
      for (; listed < degree; listed += 1) relate(v, target(v));
    }
    // The relations drawn so far, a few duplicates included: the total is known only once they are removed.
    if (v % 65536 === 0) report(edges.count);
  }
  return adjacency(n, edges.from.subarray(0, edges.count), edges.to.subarray(0, edges.count));
}

function writeDecimal(buffer, position, value) {
  let end = position + 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) end += 1;
  let i = end;
  let rest = value;
  do {
    buffer[--i] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  } while (rest > 0);
  return end;
}

// "src\tdst\n" by source then target: the CSR rows are already in that order.
export async function writeRelations(file, rows, n, report = () => {}) {
  const { offsets, targets } = rows;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  // Two ids of at most ten digits, a tab and a newline.
  const limit = CHUNK_BYTES - 22;
  const handle = await open(file, 'w');
  try {
    let position = 0;
    for (let v = 1; v <= n; v += 1) {
      for (let e = offsets[v]; e < offsets[v + 1]; e += 1) {
        if (position > limit) {
          await handle.write(buffer, 0, position);
          position = 0;
          report(e);
        }
        position = writeDecimal(buffer, position, v);
        buffer[position++] = 0x09;
        position = writeDecimal(buffer, position, targets[e]);
        buffer[position++] = 0x0a;
      }
    }
    await handle.write(buffer, 0, position);
  } finally {
    await handle.close();
  }
}

// Calls onProgress at the start, about every tenth of the total, and at the end of a phase.
function progress(onProgress, phase, total) {
  if (!onProgress) return () => {};
  const step = Math.max(1, Math.ceil(total / PROGRESS_STEPS));
  let nextReport = step;
  onProgress({ phase, done: 0, total });
  return (done) => {
    if (done >= nextReport || done === total) {
      onProgress({ phase, done, total });
      nextReport = (Math.floor(done / step) + 1) * step;
    }
  };
}

// The relations of `n` profiles drawn and written to `file`; resolves with their number. onProgress as
// generate()'s, for the two relation phases.
export async function relationsFile({ file, n, seed, onProgress }) {
  // How many relations there will be is known only at the end of the phase that draws them.
  const drawn = (done, total = null) => onProgress?.({ phase: 'relations', done, total });
  drawn(0);
  const rows = relationRows(n, createRandom(seed, RELATION_STREAM), drawn);
  const relations = rows.targets.length;
  drawn(relations, relations);

  const writingDone = progress(onProgress, 'writing relations', relations);
  await writeRelations(file, rows, n, writingDone);
  writingDone(relations);
  return relations;
}

// relationsFile() on a worker thread, so that it runs beside the profiles on a second core: { written, stop() }.
// Its progress is held back until `profilesWritten` resolves, so that onProgress still sees the phases one after
// the other.
function relationsApart({ file, n, seed, onProgress, profilesWritten }) {
  const worker = new Worker(new URL('./relations-worker.js', import.meta.url), { workerData: { file, n, seed } });
  const written = new Promise((resolve, reject) => {
    const held = [];
    let holding = true;
    let relations = null;
    profilesWritten.then(() => {
      holding = false;
      for (const event of held.splice(0)) onProgress?.(event);
    });
    worker.on('message', (message) => {
      if (message.progress) {
        if (holding) held.push(message.progress);
        else onProgress?.(message.progress);
      } else {
        relations = message.relations;
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (relations !== null) resolve(relations);
      else reject(new Error(`${file}: the thread drawing the relations ended with code ${code} before writing them`));
    });
  });
  return { written, stop: () => worker.terminate() };
}

// onProgress({ phase, done, total }) counts what its phase names: profiles, relations drawn (total null until
// the last call), relations written. The relations are drawn and written on a worker thread while the profiles
// are written.
export async function generate({ dir, scale, seed, onProgress }) {
  const n = scaleSizes(scale).profiles;
  const begin = performance.now();
  await mkdir(dir, { recursive: true });

  let profilesWritten;
  const relationsWorker = relationsApart({
    file: path.join(dir, RELATIONS_FILE), n, seed, onProgress,
    profilesWritten: new Promise((resolve) => { profilesWritten = resolve; }),
  });
  // Its failure is raised by the await below, after the profiles; until then it must not count as unhandled.
  relationsWorker.written.catch(() => {});
  const profilesDone = progress(onProgress, 'profiles', n);
  try {
    await writeProfiles(path.join(dir, PROFILES_FILE), n, createRandom(seed, PROFILE_STREAM), profilesDone);
    profilesDone(n);
  } catch (error) {
    await relationsWorker.stop();
    throw error;
  }
  profilesWritten();
  const relations = await relationsWorker.written;
  return { profiles: n, relations, ms: performance.now() - begin };
}
