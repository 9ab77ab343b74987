/** Markup that describes things: JSON-LD, microdata, RDFa (Lite). */
export type EntitySource = 'json-ld' | 'microdata' | 'rdfa';

/**
 * One described thing (a Product, an Offer, a Person) in a form common to the three markups:
 * its types and properties by schema.org local name, each property with the values it has.
 */
export interface Entity {
  source: EntitySource;
  /** Local type names: `Product`, `Offer`. */
  types: string[];
  props: Map<string, EntityValue[]>;
}

export interface EntityValue {
  text?: string;
  entity?: Entity;
  /** How the value reads in the markup, e.g. `"price": "129.00"`. */
  evidence: string;
}

/** `https://schema.org/Product`, `schema:Product`, `Product` → `Product`. */
export function localName(iri: string): string {
  const trimmed = iri.trim().replace(/[/#]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('#'), trimmed.lastIndexOf(':'));
  return cut >= 0 ? trimmed.slice(cut + 1) : trimmed;
}

export function addValue(entity: Entity, key: string, value: EntityValue): void {
  const list = entity.props.get(key);
  if (list) list.push(value);
  else entity.props.set(key, [value]);
}

/** Every entity reachable from these, each once, parents before children. */
export function allEntities(roots: Entity[]): Entity[] {
  const seen = new Set<Entity>();
  const out: Entity[] = [];
  const visit = (e: Entity, depth: number) => {
    if (seen.has(e) || depth > 8) return;
    seen.add(e);
    out.push(e);
    for (const values of e.props.values()) for (const v of values) if (v.entity) visit(v.entity, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return out;
}
