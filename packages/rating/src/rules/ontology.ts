import type { FieldType, ProductDefinition } from '../product.js';

/**
 * What rules may name in a product version: its risk types (with their parent), each type's fields
 * (type and enum options) and items. Built from the lines module's product definition.
 */
export interface OntologyField {
  name: string;
  type: FieldType;
  options?: string[];
}

export interface OntologyRiskType {
  name: string;
  parent?: string;
  fields: OntologyField[];
  items: string[];
}

export interface Ontology {
  product: string;
  version?: string;
  riskTypes: OntologyRiskType[];
}

export function ontologyFromDefinition(definition: ProductDefinition): Ontology {
  return {
    product: definition.name,
    ...(definition.version ? { version: definition.version } : {}),
    riskTypes: definition.riskTypes.map((t) => ({
      name: t.name,
      ...(t.parent ? { parent: t.parent } : {}),
      fields: (t.fields ?? []).map((f) => ({
        name: f.name,
        type: f.type,
        ...(f.options ? { options: f.options.map(String) } : {}),
      })),
      items: (t.items ?? []).map((i) => i.name),
    })),
  };
}

/** The risk type and its ancestors, nearest first. */
export function lineage(ontology: Ontology, riskType: string): OntologyRiskType[] {
  const out: OntologyRiskType[] = [];
  let t = ontology.riskTypes.find((r) => r.name === riskType);
  while (t && out.length < 10) {
    out.push(t);
    const parent = t.parent;
    t = parent ? ontology.riskTypes.find((r) => r.name === parent) : undefined;
  }
  return out;
}

/** A field visible from a risk type: its own first, then the nearest ancestor's. */
export function fieldOf(ontology: Ontology, riskType: string, field: string): OntologyField | undefined {
  for (const t of lineage(ontology, riskType)) {
    const f = t.fields.find((x) => x.name === field);
    if (f) return f;
  }
  return undefined;
}
