/**
 * A confidence note (API.md, "POST /v1/extract"): where a field's value came from and how sure
 * we are of it. Every field of a result has one, filled or not. Stored in `extractions.notes`,
 * so declared here, below the extract engines that write it.
 */
export interface FieldNote {
  /** Where in the result: `price`, `offers.price`, `tags`, `items[2].name`; '' is the whole object. */
  path: string;
  /** 0..1: how likely the value is what the page states. */
  confidence: number;
  /** What filled it: json-ld, microdata, rdfa, opengraph, twitter, meta, table, definition-list, selector, llm (and agreements such as llm+json-ld), merge, schema, or none. */
  source: string;
  /** The snippet of the page the value came from; null when nothing was found. */
  evidence: string | null;
  /** The page the value came from, when several were read. */
  url?: string;
  /** Why: not found, how it was coerced, how pages were merged. */
  message?: string;
  /** On the `schema` note of a prompt-only extract: the schema inferred from the prompt. */
  schema?: Record<string, unknown>;
}
