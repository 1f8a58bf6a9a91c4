import type { Decimal } from './decimal.js';
import type { SourcePosition } from './errors.js';

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '^' | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

/**
 * How a name was bound when the product was compiled. `field` is an answer of the risk being rated
 * (or a computed field), `ancestor_field` an answer of the nearest enclosing risk that has the field,
 * `calculation` another calculation of the same risk.
 */
export type ReferenceKind = 'field' | 'ancestor_field' | 'calculation';

export type Node =
  | { type: 'number'; value: Decimal; text: string; pos: SourcePosition }
  | { type: 'string'; value: string; pos: SourcePosition }
  | { type: 'boolean'; value: boolean; pos: SourcePosition }
  | {
      type: 'reference';
      name: string;
      /** Written as `field:name` or `calc:name`. */
      namespace?: 'field' | 'calc';
      pos: SourcePosition;
      kind?: ReferenceKind;
    }
  | { type: 'unary'; op: '-' | 'not'; arg: Node; pos: SourcePosition }
  | { type: 'binary'; op: BinaryOperator; left: Node; right: Node; pos: SourcePosition }
  | { type: 'in'; value: Node; list: Node[]; negated: boolean; pos: SourcePosition }
  | {
      type: 'call';
      name: string;
      args: Node[];
      pos: SourcePosition;
      /** The function name in lower case (names are case-insensitive). */
      fn: string;
      /** Set at compile time when the call is a rate-table lookup (`tablename(keys…)`, `table(…)`, `lookup(…)`). */
      table?: string;
      /** Index of the first key argument of a rate-table lookup (1 for `table`/`lookup`, else 0). */
      keyStart?: number;
    };

/** A parsed formula; parse once, evaluate many times. */
export interface Formula {
  source: string;
  ast: Node;
}
