import { eq, sql } from 'drizzle-orm';
import { ApiError, type ProblemIssue, type Queryable } from '@atrium/sdk/server';
import type { Statement } from '../../shared/statement-schema.js';
import { normalizeUserName } from '../access-snapshot.js';
import { VERSION } from '../routes/policy-routes.js';
import { validateStatements } from '../statements/statement-validator.js';
import { policy, policyAssignment, role, roleGroupNameAssignment, roleUserNameAssignment } from '../tables.js';
import {
  CSV_COLUMNS,
  CSV_RECORDS,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  type AccessExport,
  type CsvColumn,
} from './access-export.js';
import { CsvError, parseCsv } from './csv.js';

/**
 * Imports an export file, all or nothing: the file is checked whole first (every problem reported
 * with its pointer into the file), then applied in one transaction that also refuses what clashes
 * with this installation. Records are matched by name: a role or custom policy of the same name is
 * updated, a missing one created; assignments are added when missing. Nothing is deleted. System
 * policies are never written: one in the file must already exist here (it is left as it is), and a
 * custom policy in the file cannot take a system policy's name.
 */
export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}
export interface ImportSummary {
  roles: ImportCounts;
  policies: ImportCounts;
  policy_assignments: ImportCounts;
  role_user_name_assignments: ImportCounts;
  role_group_name_assignments: ImportCounts;
}

const SECTIONS = [
  'roles',
  'policies',
  'policy_assignments',
  'role_user_name_assignments',
  'role_group_name_assignments',
] as const;
const TOP_LEVEL = new Set<string>(['format', 'format_version', 'exported_at', ...SECTIONS]);
const FIELDS: Record<(typeof SECTIONS)[number], { required: string[]; optional: string[] }> = {
  roles: { required: ['name'], optional: ['gen2_role'] },
  policies: { required: ['name', 'statements'], optional: ['description', 'version', 'type'] },
  policy_assignments: { required: ['policy', 'role'], optional: [] },
  role_user_name_assignments: { required: ['user_name', 'role'], optional: [] },
  role_group_name_assignments: { required: ['group_name', 'role'], optional: [] },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (issues: ProblemIssue[]) =>
  new ApiError(400, issues[0]!.detail, { issues: issues.slice(0, 100), code: 'invalid_import' });
const issueAt = (pointer: string, detail: string, code = 'invalid'): ProblemIssue => ({
  detail,
  source: { pointer },
  code,
});

/** Reads an uploaded file as JSON or CSV (by its name or type, else by its first character). */
export function readImportFile(data: Buffer, hint: { filename?: string; contentType?: string }): unknown {
  const text = data.toString('utf8');
  const csv =
    /\.csv$/i.test(hint.filename ?? '') ||
    /text\/csv/i.test(hint.contentType ?? '') ||
    !/^\s*[{[]/.test(text.replace(/^\uFEFF/, ''));
  if (!csv) {
    try {
      return JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      throw new ApiError(400, 'The file is not valid JSON.', { source: { pointer: '' }, code: 'invalid_json' });
    }
  }
  return csvToDocument(text);
}

/** The CSV form of an export as the JSON document; an issue names the CSV line. */
export function csvToDocument(text: string): AccessExport {
  let rows: string[][];
  try {
    rows = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError)
      throw new ApiError(400, error.message, { source: { pointer: '' }, code: 'invalid_csv' });
    throw error;
  }
  const [header, ...records] = rows;
  const missing = CSV_COLUMNS.filter((column) => !header?.includes(column));
  if (!header || missing.length) {
    throw new ApiError(
      400,
      `The CSV file needs a header row with the columns ${CSV_COLUMNS.join(', ')} (missing: ${missing.join(', ')}).`,
      {
        source: { pointer: '' },
        code: 'invalid_csv',
      },
    );
  }
  const document: AccessExport = {
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: '',
    roles: [],
    policies: [],
    policy_assignments: [],
    role_user_name_assignments: [],
    role_group_name_assignments: [],
  };
  const issues: ProblemIssue[] = [];
  records.forEach((cells, index) => {
    const line = index + 2;
    const cell = (column: CsvColumn) => cells[header.indexOf(column)] ?? '';
    const kind = cell('record') as keyof typeof CSV_RECORDS;
    switch (kind) {
      case 'role':
        document.roles.push({ name: cell('name'), gen2_role: cell('gen2_role') || null });
        break;
      case 'policy': {
        let statements: unknown;
        try {
          statements = JSON.parse(cell('statements') || 'null');
        } catch {
          issues.push(
            issueAt(
              `/policies/${document.policies.length}/statements`,
              `Line ${line}: the statements are not valid JSON.`,
              'invalid_json',
            ),
          );
        }
        document.policies.push({
          name: cell('name'),
          description: cell('description'),
          version: cell('version') || '0.0.0',
          type: (cell('type') || 'custom') as 'custom',
          statements: statements as Statement[],
        });
        break;
      }
      case 'policy_assignment':
        document.policy_assignments.push({ policy: cell('policy'), role: cell('role') });
        break;
      case 'role_user_name_assignment':
        document.role_user_name_assignments.push({ user_name: cell('user_name'), role: cell('role') });
        break;
      case 'role_group_name_assignment':
        document.role_group_name_assignments.push({ group_name: cell('group_name'), role: cell('role') });
        break;
      default:
        issues.push(
          issueAt(
            '',
            `Line ${line}: unknown record '${kind}' (one of ${Object.keys(CSV_RECORDS).join(', ')}).`,
            'invalid_value',
          ),
        );
    }
  });
  if (issues.length) throw invalid(issues);
  return document;
}

/** Checks the file's shape; answers it typed, or throws a 400 listing every problem. */
export function checkImportDocument(document: unknown): AccessExport {
  const issues: ProblemIssue[] = [];
  const report = (pointer: string, detail: string, code?: string) => issues.push(issueAt(pointer, detail, code));
  if (!isObject(document))
    throw invalid([issueAt('', 'The file must hold an access export (a JSON object).', 'invalid_type')]);
  for (const key of Object.keys(document))
    if (!TOP_LEVEL.has(key)) report(`/${key}`, `Unknown field '${key}'.`, 'unrecognized_keys');
  if (document.format !== EXPORT_FORMAT)
    report('/format', `This is not an access export (format must be '${EXPORT_FORMAT}').`, 'invalid_value');
  if (document.format_version !== EXPORT_FORMAT_VERSION)
    report('/format_version', `Only format_version ${EXPORT_FORMAT_VERSION} can be imported.`, 'invalid_value');
  const text = (value: unknown, max: number) =>
    typeof value === 'string' && value.trim().length > 0 && value.length <= max;
  for (const section of SECTIONS) {
    const list = document[section] ?? [];
    if (!Array.isArray(list)) {
      report(`/${section}`, `${section} must be a list.`, 'invalid_type');
      continue;
    }
    const { required, optional } = FIELDS[section];
    const seen = new Map<string, number>();
    list.forEach((entry, index) => {
      const at = `/${section}/${index}`;
      if (!isObject(entry)) return report(at, `Entry ${index} of ${section} must be an object.`, 'invalid_type');
      for (const key of Object.keys(entry))
        if (!required.includes(key) && !optional.includes(key))
          report(`${at}/${key}`, `Unknown field '${key}'.`, 'unrecognized_keys');
      for (const key of required)
        if (entry[key] === undefined) report(`${at}/${key}`, `${key} is required.`, 'required');
      for (const key of ['name', 'policy', 'role', 'user_name', 'group_name']) {
        if (entry[key] !== undefined && !text(entry[key], key === 'user_name' ? 320 : 200))
          report(`${at}/${key}`, `${key} must be non-empty text.`, 'invalid_type');
      }
      if (
        section === 'roles' &&
        entry.gen2_role !== undefined &&
        entry.gen2_role !== null &&
        (typeof entry.gen2_role !== 'string' || entry.gen2_role.length > 100)
      ) {
        report(`${at}/gen2_role`, 'gen2_role must be text or null.', 'invalid_type');
      }
      if (section === 'policies') {
        if (
          entry.description !== undefined &&
          (typeof entry.description !== 'string' || entry.description.length > 4000)
        )
          report(`${at}/description`, 'The description is text of at most 4000 characters.', 'invalid_type');
        if (entry.version !== undefined && (typeof entry.version !== 'string' || !VERSION.test(entry.version)))
          report(`${at}/version`, "Version is written MAJOR.MINOR.PATCH, e.g. '1.2.0'.", 'invalid_string');
        if (entry.type !== undefined && entry.type !== 'system' && entry.type !== 'custom')
          report(`${at}/type`, "type is 'system' or 'custom'.", 'invalid_value');
        if (entry.statements !== undefined) issues.push(...validateStatements(entry.statements, `${at}/statements`));
      }
      const key =
        section === 'roles' || section === 'policies'
          ? String(entry.name ?? '')
              .trim()
              .toLowerCase()
          : JSON.stringify(
              [
                section === 'policy_assignments'
                  ? entry.policy
                  : section === 'role_user_name_assignments'
                    ? entry.user_name
                    : entry.group_name,
                entry.role,
              ].map((v) =>
                String(v ?? '')
                  .trim()
                  .toLowerCase(),
              ),
            );
      if (seen.has(key))
        report(
          section === 'roles' || section === 'policies' ? `${at}/name` : `${at}/role`,
          `Entry ${index} repeats entry ${seen.get(key)} of ${section}.`,
          'duplicate',
        );
      else seen.set(key, index);
    });
  }
  if (issues.length) throw invalid(issues);
  const typed = document as unknown as Partial<AccessExport>;
  return {
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: typeof typed.exported_at === 'string' ? typed.exported_at : '',
    roles: (typed.roles ?? []).map((r) => ({ name: r.name.trim(), gen2_role: r.gen2_role?.trim() || null })),
    policies: (typed.policies ?? []).map((p) => ({
      name: p.name.trim(),
      description: p.description ?? '',
      version: p.version ?? '0.0.0',
      type: p.type ?? 'custom',
      statements: p.statements,
    })),
    policy_assignments: (typed.policy_assignments ?? []).map((a) => ({ policy: a.policy.trim(), role: a.role.trim() })),
    role_user_name_assignments: (typed.role_user_name_assignments ?? []).map((a) => ({
      user_name: normalizeUserName(a.user_name),
      role: a.role.trim(),
    })),
    role_group_name_assignments: (typed.role_group_name_assignments ?? []).map((a) => ({
      group_name: a.group_name.trim(),
      role: a.role.trim(),
    })),
  };
}

const counts = (): ImportCounts => ({ created: 0, updated: 0, unchanged: 0 });
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Applies a checked document inside the caller's transaction; throws a 400 (and so rolls back) on a clash. */
export async function applyImport(tx: Queryable, document: AccessExport): Promise<ImportSummary> {
  const summary: ImportSummary = {
    roles: counts(),
    policies: counts(),
    policy_assignments: counts(),
    role_user_name_assignments: counts(),
    role_group_name_assignments: counts(),
  };
  const issues: ProblemIssue[] = [];

  const existingRoles = new Map((await tx.select().from(role)).map((r) => [r.name.toLowerCase(), r]));
  const roleIds = new Map([...existingRoles].map(([name, r]) => [name, r.id]));
  for (const entry of document.roles) {
    const found = existingRoles.get(entry.name.toLowerCase());
    if (!found) {
      const [created] = await tx
        .insert(role)
        .values({ name: entry.name, gen2Role: entry.gen2_role })
        .returning({ id: role.id });
      roleIds.set(entry.name.toLowerCase(), created!.id);
      summary.roles.created++;
    } else if (found.gen2Role !== entry.gen2_role) {
      await tx.update(role).set({ gen2Role: entry.gen2_role }).where(eq(role.id, found.id));
      summary.roles.updated++;
    } else {
      summary.roles.unchanged++;
    }
  }

  const existingPolicies = new Map((await tx.select().from(policy)).map((p) => [p.name.toLowerCase(), p]));
  const policyIds = new Map([...existingPolicies].map(([name, p]) => [name, p.id]));
  for (const [index, entry] of document.policies.entries()) {
    const found = existingPolicies.get(entry.name.toLowerCase());
    const at = `/policies/${index}`;
    if (entry.type === 'system') {
      if (found?.type === 'system') summary.policies.unchanged++;
      else
        issues.push(
          issueAt(
            `${at}/type`,
            `System policy '${entry.name}' does not exist here; system policies come with the installation.`,
            'system_policy_read_only',
          ),
        );
      continue;
    }
    if (found?.type === 'system') {
      issues.push(
        issueAt(
          `${at}/name`,
          `'${entry.name}' is a system policy here; a custom policy cannot replace it.`,
          'system_policy_read_only',
        ),
      );
      continue;
    }
    if (!found) {
      const [created] = await tx
        .insert(policy)
        .values({
          name: entry.name,
          description: entry.description,
          version: entry.version,
          type: 'custom',
          statements: entry.statements,
        })
        .returning({ id: policy.id });
      policyIds.set(entry.name.toLowerCase(), created!.id);
      summary.policies.created++;
    } else if (
      found.description !== entry.description ||
      found.version !== entry.version ||
      !sameJson(found.statements, entry.statements)
    ) {
      await tx
        .update(policy)
        .set({
          description: entry.description,
          version: entry.version,
          statements: entry.statements,
          updatedAt: new Date(),
        })
        .where(eq(policy.id, found.id));
      summary.policies.updated++;
    } else {
      summary.policies.unchanged++;
    }
  }

  const roleOf = (name: string, at: string) => {
    const id = roleIds.get(name.toLowerCase());
    if (id === undefined) issues.push(issueAt(at, `Role '${name}' is neither in the file nor here.`, 'not_found'));
    return id;
  };
  for (const [index, entry] of document.policy_assignments.entries()) {
    const policyId = policyIds.get(entry.policy.toLowerCase());
    if (policyId === undefined)
      issues.push(
        issueAt(
          `/policy_assignments/${index}/policy`,
          `Policy '${entry.policy}' is neither in the file nor here.`,
          'not_found',
        ),
      );
    const roleId = roleOf(entry.role, `/policy_assignments/${index}/role`);
    if (policyId === undefined || roleId === undefined) continue;
    const added = await tx
      .insert(policyAssignment)
      .values({ policyId, roleId })
      .onConflictDoNothing()
      .returning({ id: policyAssignment.id });
    summary.policy_assignments[added.length ? 'created' : 'unchanged']++;
  }
  for (const [index, entry] of document.role_user_name_assignments.entries()) {
    const roleId = roleOf(entry.role, `/role_user_name_assignments/${index}/role`);
    if (roleId === undefined) continue;
    const added = await tx
      .insert(roleUserNameAssignment)
      .values({ userName: entry.user_name, roleId })
      .onConflictDoNothing()
      .returning({ id: roleUserNameAssignment.id });
    summary.role_user_name_assignments[added.length ? 'created' : 'unchanged']++;
  }
  for (const [index, entry] of document.role_group_name_assignments.entries()) {
    const roleId = roleOf(entry.role, `/role_group_name_assignments/${index}/role`);
    if (roleId === undefined) continue;
    const [present] = await tx
      .select({ id: roleGroupNameAssignment.id })
      .from(roleGroupNameAssignment)
      .where(
        sql`lower(${roleGroupNameAssignment.groupName}) = lower(${entry.group_name}) and ${roleGroupNameAssignment.roleId} = ${roleId}`,
      )
      .limit(1);
    if (present) {
      summary.role_group_name_assignments.unchanged++;
      continue;
    }
    await tx.insert(roleGroupNameAssignment).values({ groupName: entry.group_name, roleId });
    summary.role_group_name_assignments.created++;
  }
  if (issues.length) throw invalid(issues);
  return summary;
}
