import type { BinaryOperator } from '../ast.js';
import type { SourcePosition } from '../errors.js';

/**
 * The typed JSON syntax tree of rule components (docs/rules.md). Expressions are the formula
 * language of @atrium/rating, kept as plain JSON (numbers as exact decimal text) so a tree can be
 * stored, sent to the browser and compared; `param` is a template placeholder (`{{name}}`).
 */
export type Expr =
  | { type: 'number'; value: string }
  | { type: 'string'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'reference'; name: string; namespace?: 'field' | 'calc' }
  | { type: 'param'; name: string }
  | { type: 'unary'; op: '-' | 'not'; arg: Expr }
  | { type: 'binary'; op: BinaryOperator; left: Expr; right: Expr }
  | { type: 'in'; value: Expr; list: Expr[]; negated: boolean }
  | { type: 'call'; fn: string; args: Expr[] };

/** A name that may be a template placeholder: `model_year` or `{{field}}`. */
export type Name = string | { param: string };

export type Quantifier = 'at-least' | 'at-most' | 'exactly';

/** The "When" tools. Every condition of a rule must hold (they are joined by `and`). */
export type Condition =
  | { tool: 'always' }
  | { tool: 'it-is-true-that'; expr: Expr }
  | { tool: 'user-role-is'; roles: string[] }
  | { tool: 'there-is-a-risk'; riskType: Name; where?: Expr }
  | { tool: 'there-is-no-risk'; riskType: Name; where?: Expr }
  | { tool: 'there-are'; quantifier: Quantifier; count: number; riskType: Name; where?: Expr }
  | { tool: 'count'; riskType: Name; as: string; where?: Expr };

export const SEVERITIES = ['info', 'warning', 'refer', 'decline', 'early-decline'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const BLOCKING_POINTS = ['none', 'rate', 'submit', 'bind'] as const;
export type BlockingPoint = (typeof BLOCKING_POINTS)[number];

/** The "Then" / "Otherwise" actions. `element` names a field or item of the risk the rule applies to. */
export type Action =
  | { action: 'show' | 'hide' | 'readonly' | 'editable' | 'mandatory' | 'optional'; element: Name }
  | { action: 'invalid'; element: Name; message?: string }
  | { action: 'set-value'; element: Name; value: Expr }
  | { action: 'options-whitelist' | 'options-blacklist'; element: Name; options: string[] }
  | { action: 'raise-issue'; code: string; severity: Severity; blocking: BlockingPoint; message: string }
  | AttachFormAction;

/**
 * A form-inclusion rule's action: attach a form (named as the documents module names it) to the
 * declarations. `print`: it prints on new business and changes, and on renewals only with
 * `onRenewal` ("always print on renewal"); `suppress`: attached but never printed.
 */
export interface AttachFormAction {
  action: 'attach-form';
  form: string;
  printing: 'print' | 'suppress';
  onRenewal: boolean;
}

export const RULE_CATEGORIES = ['ui-control', 'validation', 'underwriting', 'flow', 'role', 'form-inclusion'] as const;
export type RuleCategory = (typeof RULE_CATEGORIES)[number];

/** The body shared by a rule and a template. */
export interface RuleBody {
  label?: string;
  category: RuleCategory;
  /** The risk type whose risks the rule runs on (every risk of that type in the view model). */
  appliesTo: Name;
  /** Higher wins when rules disagree about one property of one element (docs/rules.md, "Merging"). */
  priority: number;
  when: Condition[];
  then: Action[];
  otherwise: Action[];
}

export interface RuleComponent extends RuleBody {
  kind: 'rule';
  name: string;
}

export const PARAMETER_TYPES = ['number', 'string', 'boolean', 'date', 'field', 'risk-type'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];
export const INPUT_TYPES = ['text', 'number', 'select', 'checkbox', 'date'] as const;
export type InputType = (typeof INPUT_TYPES)[number];
export type ArgumentValue = string | number | boolean;

/** A template argument: `name`, `label`, `documentation`, `type`, `input-type`, `default`. */
export interface TemplateParameter {
  name: string;
  type: ParameterType;
  label?: string;
  documentation?: string;
  inputType?: InputType;
  default?: ArgumentValue;
}

/** An abstract rule with `{{placeholders}}`; a `use` component gives the arguments' `value`s. */
export interface TemplateComponent extends RuleBody {
  kind: 'template';
  name: string;
  parameters: TemplateParameter[];
}

/** A rule made from a template: `rule x "Label" from template t with a = 1, b = 'c' end`. */
export interface TemplateUseComponent {
  kind: 'use';
  name: string;
  label?: string;
  template: string;
  values: Record<string, ArgumentValue>;
  /** Overrides the template's priority when given. */
  priority?: number;
}

export type BrlComponent = RuleComponent | TemplateComponent | TemplateUseComponent;

/** A problem found while parsing or checking a component. */
export interface BrlProblem {
  code: 'syntax' | 'type' | 'unknown_reference' | 'template';
  message: string;
  /** Where in the component's text (1-based line and column); absent for problems of a tree. */
  position?: SourcePosition;
}
