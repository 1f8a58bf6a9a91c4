import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BrlComponent, RuleBundle, RuleTestResult } from '@atrium/rating/rules';

/**
 * The rules module's tables (docs/rules.md). A project is for one lines product; its versions are
 * effective dates (draft → published → archived); components live in packages and keep one version
 * of their text per effective date. Commits are content-hashed snapshots with per-component diffs;
 * a deployment is the frozen compiled bundle of one commit, which the runtime uses.
 */
export const rulesSchema = pgSchema('rules');

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const created = () => timestamptz('created_at').notNull().defaultNow();
const updated = () => timestamptz('updated_at').notNull().defaultNow();

export const EFFECTIVE_DATE_STATUSES = ['draft', 'published', 'archived'] as const;
export type EffectiveDateStatus = (typeof EFFECTIVE_DATE_STATUSES)[number];
export const COMPONENT_TYPES = ['component', 'model', 'rule', 'template', 'test', 'tool', 'values-set'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];
export const COMPONENT_STATES = ['enabled', 'disabled'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

export interface ComponentTag {
  category: string;
  value: string;
  priority: number;
}

export const project = rulesSchema.table(
  'project',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    /** The lines product (by name) whose ontology the rules are checked against. */
    product: text('product').notNull(),
    description: text('description').notNull().default(''),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('project_name_unique').on(sql`lower(${t.name})`)],
);

export const effectiveDate = rulesSchema.table(
  'effective_date',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: EFFECTIVE_DATE_STATUSES }).notNull().default('draft'),
    dateAdded: created(),
    dateModified: updated(),
  },
  (t) => [uniqueIndex('effective_date_unique').on(t.projectId, t.effectiveDate)],
);

export const rulesPackage = rulesSchema.table(
  'package',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('package_name_unique').on(t.projectId, t.name)],
);

export const component = rulesSchema.table(
  'component',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    packageId: integer('package_id')
      .notNull()
      .references(() => rulesPackage.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull().default(''),
    folder: text('folder').notNull().default(''),
    componentType: text('component_type', { enum: COMPONENT_TYPES }).notNull(),
    tags: jsonb('tags').$type<ComponentTag[]>().notNull().default([]),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('component_name_unique').on(t.packageId, t.name)],
);

/** A component's text for one effective date; `tree` is its parsed form (null when it does not parse). */
export const componentVersion = rulesSchema.table(
  'component_version',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    componentId: integer('component_id')
      .notNull()
      .references(() => component.id, { onDelete: 'cascade' }),
    effectiveDateId: integer('effective_date_id')
      .notNull()
      .references(() => effectiveDate.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    tree: jsonb('tree').$type<BrlComponent | null>(),
    state: text('state', { enum: COMPONENT_STATES }).notNull().default('enabled'),
    /** Content hash of body and state at the last commit of this effective date; null: never committed. */
    committedHash: text('committed_hash'),
    updatedBy: text('updated_by').notNull(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('component_version_unique').on(t.componentId, t.effectiveDateId),
    index('component_version_date').on(t.effectiveDateId),
  ],
);

export interface SnapshotEntry {
  fullName: string;
  componentType: ComponentType;
  state: ComponentState;
  hash: string;
  body: string;
}

export interface ComponentDiff {
  fullName: string;
  change: 'added' | 'changed' | 'removed';
  /** Unified-style line diff: lines starting with '-', '+' or ' '. */
  lines: string[];
}

export const commit = rulesSchema.table('commit', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  projectId: integer('project_id')
    .notNull()
    .references(() => project.id, { onDelete: 'cascade' }),
  effectiveDateId: integer('effective_date_id')
    .notNull()
    .references(() => effectiveDate.id, { onDelete: 'cascade' }),
  /** sha256 of the snapshot's entries (names and hashes). */
  hash: text('hash').notNull(),
  message: text('message').notNull().default(''),
  snapshot: jsonb('snapshot').$type<SnapshotEntry[]>().notNull(),
  diff: jsonb('diff').$type<ComponentDiff[]>().notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: created(),
});

export const deployment = rulesSchema.table('deployment', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  projectId: integer('project_id')
    .notNull()
    .references(() => project.id, { onDelete: 'cascade' }),
  effectiveDateId: integer('effective_date_id')
    .notNull()
    .references(() => effectiveDate.id, { onDelete: 'cascade' }),
  commitId: integer('commit_id')
    .notNull()
    .references(() => commit.id, { onDelete: 'cascade' }),
  /** The compiled bundle, frozen: never changed after it is written. */
  bundle: jsonb('bundle').$type<RuleBundle>().notNull(),
  hash: text('hash').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: created(),
});

export const JOB_KINDS = ['validate', 'test', 'commit', 'deploy', 'sync', 'export', 'import'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATUSES = ['NEW', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobResult {
  problems?: { component: string; message: string; line?: number; column?: number }[];
  tests?: (RuleTestResult & { component: string })[];
  commitId?: number;
  deploymentId?: number;
  hash?: string;
  diff?: ComponentDiff[];
  message?: string;
  /** sync: the sync-with-lines report. */
  linesVersion?: string;
  effectiveDate?: string;
  count?: number;
  results?: { component: string; message: string }[];
  /** export: the file written to object storage (download: `GET rules/job/{id}/file/`). */
  file?: { key: string; name: string; size: number; sha256: string };
  /** export and import: what the file holds. */
  counts?: { effective_dates: number; packages: number; components: number; versions: number };
  /** import: the project created. */
  projectId?: number;
}

export const job = rulesSchema.table(
  'job',
  {
    id: text('id').primaryKey(),
    projectId: integer('project_id').references(() => project.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: JOB_KINDS }).notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('NEW'),
    resultStatus: text('result_status', { enum: ['ERROR', 'SUCCESS'] }),
    progress: text('progress').notNull().default('0.00'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    result: jsonb('result').$type<JobResult>(),
    createdBy: text('created_by').notNull(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index('job_project').on(t.projectId)],
);

/** One component in a package tag: its text frozen when the tag was made. */
export interface PackageTagEntry {
  name: string;
  folder: string;
  componentType: ComponentType;
  state: ComponentState;
  body: string;
}

/**
 * A package tag: a named, frozen copy of a package's components on one effective date, which other
 * packages pin as a dependency.
 */
export const packageTag = rulesSchema.table(
  'package_tag',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    packageId: integer('package_id')
      .notNull()
      .references(() => rulesPackage.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    effectiveDateId: integer('effective_date_id')
      .notNull()
      .references(() => effectiveDate.id, { onDelete: 'cascade' }),
    /** sha256 of the entries. */
    hash: text('hash').notNull(),
    components: jsonb('components').$type<PackageTagEntry[]>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('package_tag_name_unique').on(t.packageId, t.name)],
);

export const packageDependency = rulesSchema.table(
  'package_dependency',
  {
    packageId: integer('package_id')
      .notNull()
      .references(() => rulesPackage.id, { onDelete: 'cascade' }),
    dependsOnId: integer('depends_on_id')
      .notNull()
      .references(() => rulesPackage.id, { onDelete: 'cascade' }),
    /** The tag of the package depended on that is pinned (a pinned tag cannot be deleted); null: its working copy. */
    tagId: integer('tag_id').references(() => packageTag.id),
  },
  (t) => [primaryKey({ columns: [t.packageId, t.dependsOnId] })],
);
