import {
  execute,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type ASTVisitor,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { linesGraphqlSchema, type GraphqlContext } from './schema.js';

/**
 * Runs one GraphQL request against the lines schema, with limits that keep an abusive query from
 * costing the server: the query text's size, the nesting depth of its selections (fragments
 * followed) and the number of selected fields. A risk type tree is 7 deep and a product tree 3, so
 * the legitimate queries (and the introspection query) stay well inside MAX_QUERY_DEPTH.
 */
export const MAX_QUERY_LENGTH = 20_000;
export const MAX_QUERY_DEPTH = 15;
export const MAX_SELECTED_FIELDS = 1_000;

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

function measure(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  depth: number,
  visiting: Set<string>,
  counter: { fields: number },
): number {
  let deepest = depth;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      counter.fields++;
      if (selection.selectionSet) {
        deepest = Math.max(deepest, measure(selection.selectionSet, fragments, depth + 1, visiting, counter));
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, measure(selection.selectionSet, fragments, depth, visiting, counter));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // A fragment cycle is reported by the standard NoFragmentCycles rule; do not loop on it here.
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      deepest = Math.max(deepest, measure(fragment.selectionSet, fragments, depth, visiting, counter));
      visiting.delete(name);
    }
  }
  return deepest;
}

/** Validation rule: refuses operations nested deeper than MAX_QUERY_DEPTH or selecting too many fields. */
export function queryLimitsRule(context: ValidationContext): ASTVisitor {
  const document = context.getDocument();
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return {
    OperationDefinition(operation) {
      const counter = { fields: 0 };
      const depth = measure(operation.selectionSet, fragments, 1, new Set(), counter);
      const name = operation.name ? `'${operation.name.value}'` : 'The query';
      if (depth > MAX_QUERY_DEPTH) {
        context.reportError(
          new GraphQLError(`${name} is nested ${depth} levels deep; at most ${MAX_QUERY_DEPTH} are allowed.`, {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_DEEP' },
          }),
        );
      }
      if (counter.fields > MAX_SELECTED_FIELDS) {
        context.reportError(
          new GraphQLError(`${name} selects ${counter.fields} fields; at most ${MAX_SELECTED_FIELDS} are allowed.`, {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_LARGE' },
          }),
        );
      }
    },
  };
}

const RULES = [...specifiedRules, queryLimitsRule];

/**
 * Parses, validates and executes. Errors in the request itself (syntax, validation, limits) come
 * back as `{ errors }` without `data`, which the route answers with 400; resolver errors (such as a
 * refused permission) come back beside the data, answered 200 as GraphQL over HTTP does.
 */
export async function runGraphql(request: GraphqlRequest, context: GraphqlContext): Promise<ExecutionResult> {
  if (request.query.length > MAX_QUERY_LENGTH) {
    return {
      errors: [
        new GraphQLError(`The query is ${request.query.length} characters long; at most ${MAX_QUERY_LENGTH}.`, {
          extensions: { code: 'QUERY_TOO_LARGE' },
        }),
      ],
    };
  }
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: 5_000 });
  } catch (error) {
    return { errors: [error as GraphQLError] };
  }
  const errors = validate(linesGraphqlSchema, document, RULES, { maxErrors: 20 });
  if (errors.length > 0) return { errors };
  return execute({
    schema: linesGraphqlSchema,
    document,
    variableValues: request.variables ?? undefined,
    operationName: request.operationName ?? undefined,
    contextValue: context,
  });
}
