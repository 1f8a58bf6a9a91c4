/** Types of JSON:API 1.1 top-level documents, resource objects and error objects. */
export interface ResourceIdentifier {
  type: string;
  id: string;
}

export interface RelationshipObject {
  data?: ResourceIdentifier | ResourceIdentifier[] | null;
  links?: { self?: string; related?: string };
  meta?: Record<string, unknown>;
}

export interface ResourceObject extends ResourceIdentifier {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, RelationshipObject>;
  links?: { self?: string };
  meta?: Record<string, unknown>;
}

export interface PaginationLinks {
  self?: string;
  first?: string;
  prev?: string | null;
  next?: string | null;
  last?: string;
}

export interface JsonApiDocument {
  jsonapi?: { version: '1.1' };
  data: ResourceObject | ResourceObject[] | null;
  included?: ResourceObject[];
  links?: PaginationLinks;
  meta?: Record<string, unknown>;
}

export interface JsonApiErrorObject {
  status: string;
  title: string;
  detail?: string;
  code?: string;
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

export interface JsonApiErrorDocument {
  jsonapi: { version: '1.1' };
  errors: JsonApiErrorObject[];
}
