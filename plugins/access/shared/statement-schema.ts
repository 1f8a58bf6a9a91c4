/**
 * The statement language of access policies, shared by the server (validation, evaluation) and the
 * web editor (types, and the JSON Schema Monaco validates the statements field against).
 *
 * A statement allows or denies `actions` on `resources` (both may use `*` wildcards), optionally only
 * when every one of its `conditions` holds. Conditions compare attributes of the record acted on,
 * of the user (the signed-in principal) and of the request's context with literals or with one
 * another. See docs/access.md for the full semantics.
 */

export type Effect = 'allow' | 'deny';

export const CONDITION_OPERATORS = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'not_in',
  'contains',
  'starts_with',
  'exists',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Where an attribute is read from: `record.loss_state`, `user.state`, `context.amount`. */
export const ATTRIBUTE_ROOTS = ['record', 'user', 'context'] as const;
export type AttributeRoot = (typeof ATTRIBUTE_ROOTS)[number];

export type Literal = string | number | boolean | null;
/** Another attribute instead of a literal, e.g. `{ "ref": "user.state" }`. */
export interface AttributeReference {
  ref: string;
}
export type Operand = Literal | Literal[] | AttributeReference;

export interface Comparison {
  attribute: string;
  operator: ConditionOperator;
  /** Absent for `exists`; a list for `in` and `not_in`. */
  value?: Operand;
}
export interface AllOf {
  all: Condition[];
}
export interface AnyOf {
  any: Condition[];
}
export interface Not {
  not: Condition;
}
export type Condition = Comparison | AllOf | AnyOf | Not;

export interface Statement {
  /** Optional statement id, unique within its policy; named in validation errors. */
  sid?: string;
  effect: Effect;
  actions: string[];
  resources: string[];
  /** Every condition must hold (an implicit `all`). */
  conditions?: Condition[];
}

/** Limits that keep a policy readable and its evaluation fast. */
export const STATEMENT_LIMITS = {
  statementsPerPolicy: 500,
  patternsPerStatement: 100,
  conditionsPerStatement: 50,
  conditionDepth: 6,
  listValues: 500,
  patternLength: 200,
  sidLength: 128,
} as const;

/** Action and resource patterns: letters, digits, `_ - . : /` and the `*` wildcard. */
export const PATTERN = /^[A-Za-z0-9_.:/*-]+$/;
/** `record.loss_state`, `user.state`, `context.payment.amount`. */
export const ATTRIBUTE_PATH = /^(record|user|context)(\.[A-Za-z0-9_-]+)+$/;
export const SID = /^[A-Za-z0-9_.-]+$/;

const literal = { type: ['string', 'number', 'boolean', 'null'] };
const reference = {
  type: 'object',
  required: ['ref'],
  additionalProperties: false,
  properties: { ref: { type: 'string', pattern: ATTRIBUTE_PATH.source, description: 'e.g. user.state' } },
};

/** JSON Schema (draft-07) of a policy's `statements`, for the editor. The server's validator is the judge. */
export const STATEMENTS_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Access policy statements',
  type: 'array',
  maxItems: STATEMENT_LIMITS.statementsPerPolicy,
  items: { $ref: '#/definitions/statement' },
  definitions: {
    statement: {
      type: 'object',
      required: ['effect', 'actions', 'resources'],
      additionalProperties: false,
      properties: {
        sid: { type: 'string', pattern: SID.source, maxLength: STATEMENT_LIMITS.sidLength },
        effect: { enum: ['allow', 'deny'] },
        actions: {
          type: 'array',
          minItems: 1,
          maxItems: STATEMENT_LIMITS.patternsPerStatement,
          items: { type: 'string', pattern: PATTERN.source, maxLength: STATEMENT_LIMITS.patternLength },
          description: 'e.g. read, update, ViewModule, *',
        },
        resources: {
          type: 'array',
          minItems: 1,
          maxItems: STATEMENT_LIMITS.patternsPerStatement,
          items: { type: 'string', pattern: PATTERN.source, maxLength: STATEMENT_LIMITS.patternLength },
          description: 'e.g. claims:payment, claims:*, ui:claims, *',
        },
        conditions: {
          type: 'array',
          maxItems: STATEMENT_LIMITS.conditionsPerStatement,
          items: { $ref: '#/definitions/condition' },
        },
      },
    },
    condition: {
      oneOf: [
        {
          type: 'object',
          required: ['attribute', 'operator'],
          additionalProperties: false,
          properties: {
            attribute: { type: 'string', pattern: ATTRIBUTE_PATH.source, description: 'e.g. record.loss_state' },
            operator: { enum: [...CONDITION_OPERATORS] },
            value: { oneOf: [literal, { type: 'array', items: literal }, reference] },
          },
        },
        {
          type: 'object',
          required: ['all'],
          additionalProperties: false,
          properties: { all: { type: 'array', minItems: 1, items: { $ref: '#/definitions/condition' } } },
        },
        {
          type: 'object',
          required: ['any'],
          additionalProperties: false,
          properties: { any: { type: 'array', minItems: 1, items: { $ref: '#/definitions/condition' } } },
        },
        {
          type: 'object',
          required: ['not'],
          additionalProperties: false,
          properties: { not: { $ref: '#/definitions/condition' } },
        },
      ],
    },
  },
} as const;
