import { createHash } from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import { notFound, type Queryable } from '@atrium/sdk/server';
import { tryParseBrl, type BrlComponent } from '@atrium/rating/rules';
import {
  component,
  componentVersion,
  effectiveDate,
  project,
  rulesPackage,
  type ComponentDiff,
  type ComponentState,
  type ComponentType,
  type PackageTagEntry,
  type SnapshotEntry,
} from './tables.js';

/** Component types whose body is BRL (parsed into a tree on save). */
export const BRL_TYPES: readonly ComponentType[] = ['rule', 'template'];

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const versionHash = (body: string, state: ComponentState) => sha256(`${state}\n${body}`);

export function fullNameOf(packageName: string, folder: string, name: string): string {
  return [packageName, ...folder.split('/').filter(Boolean), name].join('.');
}

/** The tree of a BRL body, or null when it does not parse (the validate job reports why). */
export function treeOf(type: ComponentType, body: string): BrlComponent | null {
  if (!BRL_TYPES.includes(type)) return null;
  return tryParseBrl(body).component;
}

/** The hash of a package tag's entries. */
export const packageTagHash = (entries: PackageTagEntry[]) =>
  sha256(entries.map((e) => `${e.folder}/${e.name}\t${e.componentType}\t${e.state}\t${sha256(e.body)}`).join('\n'));

export async function findProject(db: Queryable, id: number) {
  const [row] = await db.select().from(project).where(eq(project.id, id));
  if (!row) throw notFound(`Rules project ${id} not found.`);
  return row;
}

export async function findEffectiveDate(db: Queryable, projectId: number, id: number) {
  const [row] = await db
    .select()
    .from(effectiveDate)
    .where(and(eq(effectiveDate.id, id), eq(effectiveDate.projectId, projectId)));
  if (!row) throw notFound(`Effective date ${id} of rules project ${projectId} not found.`);
  return row;
}

/** The effective date a component call means when none is named: the latest draft, else the latest. */
export async function currentEffectiveDate(db: Queryable, projectId: number) {
  const rows = await db
    .select()
    .from(effectiveDate)
    .where(eq(effectiveDate.projectId, projectId))
    .orderBy(desc(effectiveDate.effectiveDate));
  const row = rows.find((r) => r.status === 'draft') ?? rows.find((r) => r.status !== 'archived') ?? rows[0];
  if (!row) throw notFound(`Rules project ${projectId} has no effective dates.`);
  return row;
}

/** The effective date a call names by id, else the current one (currentEffectiveDate). */
export async function effectiveDateOf(db: Queryable, projectId: number, dateId?: number) {
  return dateId === undefined
    ? await currentEffectiveDate(db, projectId)
    : await findEffectiveDate(db, projectId, dateId);
}

export interface LoadedComponent {
  id: number;
  packageId: number;
  packageName: string;
  name: string;
  label: string;
  folder: string;
  componentType: ComponentType;
  tags: { category: string; value: string; priority: number }[];
  fullName: string;
  versionId: number;
  effectiveDateId: number;
  body: string;
  tree: BrlComponent | null;
  state: ComponentState;
  committedHash: string | null;
  hash: string;
  updatedAt: Date;
  updatedBy: string;
}

/** Every component of a project with its version for one effective date, by full name. */
export async function componentsAt(
  db: Queryable,
  projectId: number,
  effectiveDateId: number,
): Promise<LoadedComponent[]> {
  const rows = await db
    .select({ c: component, v: componentVersion, packageName: rulesPackage.name })
    .from(componentVersion)
    .innerJoin(component, eq(component.id, componentVersion.componentId))
    .innerJoin(rulesPackage, eq(rulesPackage.id, component.packageId))
    .where(and(eq(rulesPackage.projectId, projectId), eq(componentVersion.effectiveDateId, effectiveDateId)))
    .orderBy(asc(rulesPackage.name), asc(component.folder), asc(component.name));
  return rows.map(({ c, v, packageName }) => ({
    id: c.id,
    packageId: c.packageId,
    packageName,
    name: c.name,
    label: c.label,
    folder: c.folder,
    componentType: c.componentType,
    tags: c.tags,
    fullName: fullNameOf(packageName, c.folder, c.name),
    versionId: v.id,
    effectiveDateId: v.effectiveDateId,
    body: v.body,
    tree: v.tree ?? null,
    state: v.state,
    committedHash: v.committedHash,
    hash: versionHash(v.body, v.state),
    updatedAt: v.updatedAt,
    updatedBy: v.updatedBy,
  }));
}

export function snapshotOf(components: LoadedComponent[]): SnapshotEntry[] {
  return components
    .map((c) => ({ fullName: c.fullName, componentType: c.componentType, state: c.state, hash: c.hash, body: c.body }))
    .sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0));
}

export const snapshotHash = (entries: SnapshotEntry[]) =>
  sha256(entries.map((e) => `${e.fullName}\t${e.componentType}\t${e.hash}`).join('\n'));

/** Line diff (longest common subsequence) of two texts: ' ' kept, '-' removed, '+' added. */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > 4_000_000) return [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)];
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(` ${a[i]}`);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push(`-${a[i++]}`);
    else out.push(`+${b[j++]}`);
  }
  while (i < a.length) out.push(`-${a[i++]}`);
  while (j < b.length) out.push(`+${b[j++]}`);
  return out;
}

export function diffSnapshots(before: SnapshotEntry[], after: SnapshotEntry[]): ComponentDiff[] {
  const old = new Map(before.map((e) => [e.fullName, e]));
  const now = new Map(after.map((e) => [e.fullName, e]));
  const diff: ComponentDiff[] = [];
  for (const e of after) {
    const o = old.get(e.fullName);
    if (!o) diff.push({ fullName: e.fullName, change: 'added', lines: e.body.split('\n').map((l) => `+${l}`) });
    else if (o.hash !== e.hash) {
      const lines = lineDiff(o.body, e.body);
      if (o.state !== e.state) lines.unshift(`-state ${o.state}`, `+state ${e.state}`);
      diff.push({ fullName: e.fullName, change: 'changed', lines });
    }
  }
  for (const o of before) {
    if (!now.has(o.fullName))
      diff.push({ fullName: o.fullName, change: 'removed', lines: o.body.split('\n').map((l) => `-${l}`) });
  }
  return diff.sort((x, y) => (x.fullName < y.fullName ? -1 : 1));
}
