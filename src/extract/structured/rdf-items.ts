import { MicrodataRdfParser } from 'microdata-rdf-streaming-parser';
import { RdfaParser } from 'rdfa-streaming-parser';
import { snippet } from '../extraction-result';
import { addValue, localName, type Entity } from './entity';

/** The part of an RDF/JS quad we read. */
interface Term {
  termType: string;
  value: string;
}
interface Quad {
  subject: Term;
  predicate: Term;
  object: Term;
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
/** Predicates the RDFa parser adds about the document itself, not about a described thing. */
const IGNORED_PREDICATES = new Set(['http://www.w3.org/ns/rdfa#usesVocabulary']);

function collectQuads(parser: NodeJS.ReadWriteStream, html: string): Promise<Quad[]> {
  return new Promise((resolve, reject) => {
    const quads: Quad[] = [];
    parser.on('data', (q: Quad) => quads.push(q));
    parser.on('error', reject);
    parser.on('end', () => resolve(quads));
    parser.write(html);
    parser.end();
  });
}

/**
 * Turns parsed triples back into entities: one per typed subject, with child entities where an
 * object is itself a subject. Roots are the typed subjects nothing else points at.
 */
function quadsToEntities(quads: Quad[], source: 'microdata' | 'rdfa', attribute: string): Entity[] {
  const subjects = new Map<string, Entity>();
  const key = (t: Term) => `${t.termType}:${t.value}`;
  for (const q of quads) {
    if (q.subject.termType !== 'BlankNode' && q.subject.termType !== 'NamedNode') continue;
    if (!subjects.has(key(q.subject))) subjects.set(key(q.subject), { source, types: [], props: new Map() });
  }
  const referenced = new Set<string>();
  for (const q of quads) {
    const entity = subjects.get(key(q.subject));
    if (!entity || IGNORED_PREDICATES.has(q.predicate.value)) continue;
    if (q.predicate.value === RDF_TYPE) {
      entity.types.push(localName(q.object.value));
      continue;
    }
    const name = localName(q.predicate.value);
    const child = q.object.termType === 'Literal' ? undefined : subjects.get(key(q.object));
    if (child && child !== entity) {
      referenced.add(key(q.object));
      addValue(entity, name, { entity: child, evidence: `${attribute}="${name}" (${child.types.join(', ') || 'item'})` });
    } else {
      const text = q.object.value.replace(/\s+/g, ' ').trim();
      if (text) addValue(entity, name, { text, evidence: snippet(`${attribute}="${name}" → ${text}`) });
    }
  }
  return [...subjects.entries()].filter(([k, e]) => e.types.length > 0 && !referenced.has(k)).map(([, e]) => e);
}

/** Microdata (`itemscope`/`itemprop`) items, through a spec-compliant Microdata-to-RDF parser. */
export async function microdataEntities(html: string, baseIRI: string): Promise<Entity[]> {
  if (!/\bitemscope\b/i.test(html)) return [];
  return quadsToEntities(await collectQuads(new MicrodataRdfParser({ baseIRI }) as unknown as NodeJS.ReadWriteStream, html), 'microdata', 'itemprop');
}

/** RDFa (Lite) resources (`vocab`/`typeof`/`property`), through an RDFa parser. */
export async function rdfaEntities(html: string, baseIRI: string): Promise<Entity[]> {
  if (!/\btypeof\s*=/i.test(html)) return [];
  return quadsToEntities(await collectQuads(new RdfaParser({ baseIRI, contentType: 'text/html' }) as unknown as NodeJS.ReadWriteStream, html), 'rdfa', 'property');
}
