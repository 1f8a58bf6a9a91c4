/** What the rules API answers, for the web half (docs/rules.md, "API"). */
export interface EffectiveDateJson {
  id: number;
  name: string;
  project: number;
  effective_date: string;
  description: string;
  status: 'draft' | 'published' | 'archived';
  date_added: string;
  date_modified: string;
}

export interface ProjectJson {
  id: number;
  name: string;
  label: string;
  product: string;
  description: string;
  effective_dates: EffectiveDateJson[];
}

export interface ComponentJson {
  id: number;
  name: string;
  label: string;
  folder: string;
  component_type: 'component' | 'model' | 'rule' | 'template' | 'test' | 'tool' | 'values-set';
  package: number;
  package_name: string;
  full_name: string;
  tags: { category: string; value: string; priority: number }[];
  state: 'enabled' | 'disabled';
  effective_date: number;
  uncommitted: boolean;
  date_modified: string;
  modified_by: string;
  body?: string;
}

/** `GET rules/projects/{id}/failedtests/`: a test component and its latest (failed) run. */
export interface FailedTestJson extends ComponentJson {
  test_result: {
    name: string;
    differences: { element: string; property: string; expected: unknown; actual: unknown; message: string }[];
    errors: string[];
    job: string;
    date_tested: string;
    tested_by: string;
  };
}

export interface ListJson<T> {
  count: number;
  results: T[];
}

export const STATUS_LABELS: Record<EffectiveDateJson['status'], string> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
};

export const TYPE_LABELS: Record<ComponentJson['component_type'], string> = {
  component: 'Component',
  model: 'Model',
  rule: 'Rule',
  template: 'Template',
  test: 'Test',
  tool: 'Tool',
  'values-set': 'Values set',
};

export const STATE_LABELS: Record<ComponentJson['state'], string> = { enabled: 'Enabled', disabled: 'Disabled' };

/** A build job (`GET rules/job/{id}/`) in the spec's Job shape. */
export interface JobJson {
  id: string;
  kind: 'validate' | 'test' | 'commit' | 'deploy';
  project: number;
  status: 'NEW' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED';
  resultStatus: 'SUCCESS' | 'ERROR' | null;
  progress: string;
  /** Tests for a test job; `{ problems }` for validate (and a refused commit), else the job's answer. */
  result: RuleTestJson[] | { problems?: BuildProblemJson[]; message?: string } | null;
  problems?: BuildProblemJson[];
  [key: string]: unknown;
}

export interface BuildProblemJson {
  component: string;
  message: string;
  line?: number;
  column?: number;
}

export interface RuleTestJson {
  component: string;
  name: string;
  testPassed: boolean;
  differences: { element: string; property: string; message: string }[];
  errors: string[];
}
