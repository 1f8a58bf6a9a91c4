import { and, eq, inArray, sql, type Column, type SQL } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  declareResource,
  defineAuditLog,
  maskSsn,
  scopeFor,
  SecretOpenError,
  SSN_INVALID,
  SSN_PATTERN,
  ssnDigits,
  ssnVault,
  type Queryable,
  type ResourceCall,
  type ResourceDeclaration,
  type ResourceRow,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { contactShape, noteShape, quotingPermissionShape, relationShape } from '../shared/contact-shape.js';
import { auditEntry, contact, contactBook, contactNote, contactRelation, quotingPermission } from './tables.js';

/** The context a contact's sealed SSN is bound to: copied to another row it no longer opens. */
export const ssnContext = (id: string) => `contacts.contact:${id}:ssn`;

export type ContactRow = typeof contact.$inferSelect;

/** The store's audit log, through the SDK's audit mechanism (who, what, which record; no SSN). */
const contactsAudit = defineAuditLog(auditEntry);

export async function writeAudit(
  tx: Queryable,
  entry: { action: string; type: string; id: string; username: string },
): Promise<void> {
  await contactsAudit.write(tx, {
    action: entry.action,
    entityType: entry.type,
    entityId: entry.id,
    username: entry.username,
  });
}

const audit = contactsAudit.forResource();

/**
 * What the access evaluator sees of a contact: the books it is in (semi-joins over contact_book, so
 * a contact in several producers' books is in each of them) and who created it.
 */
export const contactRecordColumns = {
  agent_contact_id: { related: { key: contact.id, id: contactBook.contactId, column: contactBook.agentContactId } },
  agency_contact_id: { related: { key: contact.id, id: contactBook.contactId, column: contactBook.agencyContactId } },
  created_by: contact.createdBy,
};

/** The contact store's declared resources and the helpers the classic calls share. */
export function contactStore(context: ServerPluginContext) {
  const vault = ssnVault(context.secrets);

  /** `ssn` masked (`***-**-1234`), `has_ssn`, `ssn_last4`; never the number. */
  const ssnAttributes = (row: ResourceRow) => {
    if (!row.ssnSealed) return { ssn: null, has_ssn: false, ssn_last4: null };
    try {
      const ssn = vault.open(row.ssnSealed as string, ssnContext(row.id as string));
      return { ssn: maskSsn(ssn), has_ssn: true, ssn_last4: ssnDigits(ssn).slice(-4) };
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      context.log.error({ err: error, contactId: row.id }, 'a sealed SSN does not open');
      return { ssn: '***-**-****', has_ssn: true, ssn_last4: null };
    }
  };

  const present = (row: ResourceRow) => ({
    kind: row.kind,
    first_name: row.firstName,
    last_name: row.lastName,
    name: row.name,
    roles: row.roles,
    addresses: row.addresses,
    phones: row.phones,
    emails: row.emails,
    website: row.website,
    dob: row.dob,
    agency_id: row.agencyId,
    username: row.username,
    ...ssnAttributes(row),
    created_by: row.createdBy,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  });

  /** Seals `ssn` into the row's columns after checking it is well formed and nobody else's. */
  const sealInto = async (values: ResourceRow, id: string) => {
    const ssn = values.ssn as string | null | undefined;
    delete values.ssn;
    if (ssn === undefined) return;
    if (ssn === null || ssn === '') {
      values.ssnSealed = null;
      values.ssnHash = null;
      return;
    }
    if (!SSN_PATTERN.test(ssn)) throw attributeError('ssn', SSN_INVALID);
    const holders = await context.db
      .select({ id: contact.id })
      .from(contact)
      .where(inArray(contact.ssnHash, vault.hashes(ssn)));
    if (holders.some((h) => h.id !== id)) {
      throw new ApiError(400, 'Another contact already has this SSN.', {
        code: 'duplicate_ssn',
        source: { pointer: '/data/attributes/ssn' },
      });
    }
    const stored = vault.seal(ssn, ssnContext(id));
    values.ssnSealed = stored.sealed;
    values.ssnHash = stored.hash;
  };

  const agencyExists = async (values: ResourceRow) => {
    if (!values.agencyId) return;
    const [agency] = await context.db
      .select({ kind: contact.kind })
      .from(contact)
      .where(eq(contact.id, values.agencyId as string));
    if (!agency) throw attributeError('agency_id', `Contact ${String(values.agencyId)} not found.`);
    if (agency.kind !== 'organization') throw attributeError('agency_id', 'An agency must be an organization.');
  };

  const contacts: ResourceDeclaration<typeof contactShape> = declareResource({
    shape: contactShape,
    table: contact,
    id: { column: 'id', kind: 'text', maxLength: 50 },
    permission: { resource: 'contacts:contact' },
    record: { columns: contactRecordColumns },
    present,
    messages: { notFound: (id) => `Contact ${id} not found.` },
    audit,
    openapi: { summary: 'contacts (people and organisations)', tags: ['contacts'] },
    hooks: {
      async validate(values, { request, action, before }) {
        await agencyExists(values);
        if (action === 'create') {
          const [next] = (await context.db.execute(sql`select nextval('contacts.contact_number') as n`)).rows as {
            n: string | number;
          }[];
          values.id = `CON-${String(next!.n)}`;
          values.number = Number(next!.n);
          values.createdBy = request.principal?.username ?? 'system';
          await sealInto(values, values.id as string);
        } else {
          const row = await before();
          values.updatedAt = new Date();
          if (row) await sealInto(values, row.id as string);
        }
      },
    },
  });

  /** Rows hanging off a contact are seen exactly when their contact is. */
  const followContact =
    (column: Column) =>
    async ({ request }: ResourceCall, action: string): Promise<SQL | undefined> => {
      const scope = await scopeFor(contacts, context, request, action === 'read' ? 'read' : 'update');
      if (scope === undefined) return undefined;
      return inArray(column, context.db.select({ id: contact.id }).from(contact).where(scope));
    };

  /** A write naming a contact the caller may not see is refused like a missing one. */
  const visibleContact = async (request: FastifyRequest, id: unknown, relationship: string) => {
    if (id === undefined) return;
    const scope = await scopeFor(contacts, context, request, 'read');
    const [found] = await context.db
      .select({ id: contact.id })
      .from(contact)
      .where(and(eq(contact.id, String(id)), scope));
    if (!found) {
      throw new ApiError(400, `Contact ${String(id)} not found.`, {
        source: { pointer: `/data/relationships/${relationship}/data/id` },
      });
    }
  };

  const notes = declareResource({
    shape: noteShape,
    table: contactNote,
    permission: { resource: 'contacts:note' },
    scope: followContact(contactNote.contactId),
    related: { contact: () => contacts },
    audit,
    openapi: { summary: 'notes on contacts', tags: ['contacts'] },
    hooks: {
      async validate(values, { request, action }) {
        await visibleContact(request, values.contactId, 'contact');
        if (action === 'create') values.createdBy = request.principal?.username ?? 'system';
      },
    },
  });

  const relations = declareResource({
    shape: relationShape,
    table: contactRelation,
    permission: { resource: 'contacts:relation' },
    scope: followContact(contactRelation.contactId),
    related: { contact: () => contacts, related_contact: () => contacts },
    audit,
    openapi: { summary: 'relations between contacts', tags: ['contacts'] },
    hooks: {
      async validate(values, { request }) {
        await visibleContact(request, values.contactId, 'contact');
        await visibleContact(request, values.relatedContactId, 'related_contact');
        if (values.contactId !== undefined && values.contactId === values.relatedContactId) {
          throw attributeError('relation', 'A contact cannot be related to itself.');
        }
      },
    },
  });

  const quotingPermissions = declareResource({
    shape: quotingPermissionShape,
    table: quotingPermission,
    permission: { resource: 'contacts:quoting-permission' },
    scope: followContact(quotingPermission.contactId),
    related: { contact: () => contacts },
    audit,
    messages: {
      unique: {
        attribute: 'action',
        detail: (v) => `The contact may already ${String(v.action)} ${String(v.product)} in ${String(v.state)}.`,
      },
    },
    openapi: { summary: 'quoting permissions (product × state × action) of producers', tags: ['contacts'] },
    hooks: {
      async validate(values, { request }) {
        await visibleContact(request, values.contactId, 'contact');
      },
    },
  });

  return {
    vault,
    contacts,
    notes,
    relations,
    quotingPermissions,
    present,
    /** The caller's read scope over contacts (undefined: every contact). */
    readScope: (request: FastifyRequest) => scopeFor(contacts, context, request, 'read'),
  };
}

export type ContactStore = ReturnType<typeof contactStore>;
