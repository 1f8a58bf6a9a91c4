/**
 * The quote page flow (docs/quote.md, "The flow JSON"): versioned JSON pinned to a product version.
 * Page groups hold pages; a page holds components (reviewPanel, riskEdit, continueButton,
 * backButton); the flow has a header toolbar, a footer toolbar and a sidebar. `risk_types` says how
 * the risk form shows each risk type's fields and items (labels, required, options, default items).
 */
export type FlowComponent =
  | {
      type: 'riskEdit';
      risk_type: string;
      /** root: the quote's root risk; many: a list of child risks. */ policy: 'root' | 'many';
    }
  | { type: 'reviewPanel' }
  | { type: 'billingPanel' }
  | { type: 'bindPanel' }
  | { type: 'continueButton'; label?: string }
  | { type: 'backButton'; label?: string };

export interface FlowPage {
  name: string;
  label: string;
  /** The review step: pages after it open only when the quote is Approved. */
  review?: boolean;
  components: FlowComponent[];
}

export interface FlowPageGroup {
  name: string;
  label: string;
  pages: FlowPage[];
}

export interface FlowField {
  name: string;
  label: string;
  type: 'date' | 'boolean' | 'string' | 'number' | 'enum';
  required?: boolean;
  options?: string[];
  default?: string;
}

export interface FlowAmount {
  label: string;
  default?: string;
  options?: string[];
  min?: string;
  max?: string;
}

export interface FlowItem {
  name: string;
  label: string;
  /** required: always on the risk; default: added with a new risk; optional: the user adds it. */
  presence: 'required' | 'default' | 'optional';
  limit?: FlowAmount;
  deductible?: FlowAmount;
}

export interface FlowRiskType {
  name: string;
  label: string;
  parent: string | null;
  fields: FlowField[];
  items: FlowItem[];
}

export interface QuoteFlow {
  /** The flow JSON's own version (raised when its shape changes). */
  flow_version: number;
  product: string;
  product_version_id: number;
  header_toolbar: string[];
  footer_toolbar: string[];
  sidebar: ('quote_id' | 'line' | 'dates' | 'premium' | 'steps')[];
  page_groups: FlowPageGroup[];
  risk_types: FlowRiskType[];
}

/** Every page of a flow in order, with its group. */
export function flowPages(flow: Pick<QuoteFlow, 'page_groups'>): (FlowPage & { group: string })[] {
  return flow.page_groups.flatMap((g) => g.pages.map((p) => ({ ...p, group: g.name })));
}
