import { eq } from 'drizzle-orm';
import {
  ApiError,
  defineGatewayMethod,
  isMailAddress,
  newObjectKey,
  z,
  type GatewayMethod,
  type ServerPluginContext,
  type UploadedFile,
} from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';
import {
  ONLY_IMAGES,
  SUPPORT_LIMITS,
  SUPPORT_TICKET_MISSING,
  SUPPORT_TICKET_SUCCESS,
} from '../shared/support-schemas.js';
import { sniffImage } from './image-type.js';
import { supportPermissions } from './permissions.js';
import { ticket, ticketAttachment } from './tables.js';

/** Where tickets are mailed; the operator sets it (docs/support.md). */
export const supportDeskAddress = () => process.env.ATRIUM_SUPPORT_EMAIL?.trim() || 'support@atrium.example';

const required = (max: number) =>
  z
    .string({ error: SUPPORT_TICKET_MISSING })
    .trim()
    .min(1, SUPPORT_TICKET_MISSING)
    .max(max, `At most ${max} characters.`);

/** A form sends one text, JSON a list: both end up as a list of plain addresses. */
const addressList = z
  .union([z.string().max(10_000), z.array(z.string().max(320)).max(SUPPORT_LIMITS.includedEmails)])
  .optional()
  .transform((value) =>
    (Array.isArray(value) ? value : (value ?? '').split(/[,;\s]+/))
      .map((address) => address.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().refine(isMailAddress, 'Enter e-mail addresses like name@example.com, separated by commas.'))
      .max(SUPPORT_LIMITS.includedEmails, `At most ${SUPPORT_LIMITS.includedEmails} e-mail addresses.`),
  );

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])])
  .optional()
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

const uploaded = z.custom<UploadedFile>(
  (value) => typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data),
  ONLY_IMAGES,
);

export const submitIssueBody = z.object({
  subject: required(SUPPORT_LIMITS.subjectLength),
  description: required(SUPPORT_LIMITS.descriptionLength),
  /** Spec form field `ccs`; `includedContactEmails` is the entity's name for the same list. */
  ccs: addressList,
  includedContactEmails: addressList,
  url: z.string().trim().max(2000).optional(),
  /** Spec: the stop flag — the problem stops the user from working (critical). */
  stop: flag,
  critical: flag,
  attachments: z
    .array(uploaded)
    .max(SUPPORT_LIMITS.attachments, `At most ${SUPPORT_LIMITS.attachments} images.`)
    .optional(),
});

const safeName = (name: string | undefined, index: number) =>
  (name ?? '')
    .replace(/[\\/\r\n"]/g, '_')
    .trim()
    .slice(0, 200) || `screenshot-${index + 1}`;

/**
 * `POST /gateway?file=more.oops_issue_tracker&method=submit_issue` (spec): stores the ticket and
 * its images and mails it to the support desk through the platform mail service, all in one
 * transaction (the images' objects are deleted again if it rolls back).
 */
export const submitIssue: GatewayMethod<z.infer<typeof submitIssueBody>> = defineGatewayMethod({
  file: 'more.oops_issue_tracker',
  method: 'submit_issue',
  summary:
    'Files a support ticket (form: subject, description, ccs, url, stop, attachments — images only) and mails it to the support desk.',
  access: supportPermissions.can('ticket', 'create'),
  body: submitIssueBody,
  async handler(input, { request, context }) {
    const images = (input.attachments ?? []).map((file, index) => {
      const type = sniffImage(file.data);
      if (!type) throw new ApiError(400, ONLY_IMAGES, { source: { pointer: `/attachments/${index}` } });
      if (file.data.length > SUPPORT_LIMITS.attachmentBytes) {
        throw new ApiError(400, 'An image may be at most 5 MB.', { source: { pointer: `/attachments/${index}` } });
      }
      return { ...file, contentType: type, filename: safeName(file.filename, index) };
    });
    const included = [...new Set([...input.ccs, ...input.includedContactEmails])];
    if (included.length > SUPPORT_LIMITS.includedEmails) {
      throw new ApiError(400, `At most ${SUPPORT_LIMITS.includedEmails} e-mail addresses.`, {
        source: { pointer: '/ccs' },
      });
    }
    const critical = input.stop || input.critical;
    const username = request.principal.username.trim().toLowerCase();
    const [me] = await context.service(USER_DIRECTORY).findUsers(context.db, [username]);
    const stored = await storeImages(context, images);
    try {
      const id = await context.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(ticket)
          .values({
            subject: input.subject,
            description: input.description,
            critical,
            url: input.url || null,
            includedEmails: included,
            createdBy: username,
            createdByName: me?.name ?? username,
          })
          .returning({ id: ticket.id });
        const ticketId = row!.id;
        if (stored.length > 0) {
          await tx.insert(ticketAttachment).values(
            stored.map((image) => ({
              ticketId,
              filename: image.filename,
              contentType: image.contentType,
              size: image.data.length,
              storageKey: image.key,
            })),
          );
        }
        const mail = await context.mail.enqueue(tx, {
          plugin: 'support',
          reference: String(ticketId),
          to: [supportDeskAddress()],
          cc: included,
          replyTo: me?.email && isMailAddress(me.email) ? me.email : null,
          subject: `${critical ? '[Critical] ' : ''}Support ticket ${ticketId}: ${input.subject}`.slice(0, 255),
          text: [
            input.description,
            '',
            `Submitted by: ${me?.name ?? username} <${me?.email ?? username}>`,
            `Role: ${request.principal.effectiveRole ?? '—'}`,
            `Page: ${input.url || '—'}`,
            `Stops the user from working: ${critical ? 'yes' : 'no'}`,
          ].join('\n'),
          attachments: stored.map((image) => ({
            filename: image.filename,
            contentType: image.contentType,
            content: image.data,
            reference: `support:${image.key}`,
          })),
          createdBy: username,
        });
        await tx.update(ticket).set({ mailId: mail.id }).where(eq(ticket.id, ticketId));
        return ticketId;
      });
      return { success: true, message: SUPPORT_TICKET_SUCCESS, data: { id } };
    } catch (error) {
      // The transaction rolled back: nothing refers to the images any more.
      await Promise.all(stored.map((image) => context.storage.delete(image.key).catch(() => false)));
      throw error;
    }
  },
});

async function storeImages(
  context: ServerPluginContext,
  images: (UploadedFile & { contentType: string; filename: string })[],
) {
  const stored: ((typeof images)[number] & { key: string })[] = [];
  try {
    for (const image of images) {
      const key = newObjectKey('support/tickets');
      await context.storage.put(key, image.data, {
        contentType: image.contentType,
        maxBytes: SUPPORT_LIMITS.attachmentBytes,
      });
      stored.push({ ...image, key });
    }
    return stored;
  } catch (error) {
    await Promise.all(stored.map((image) => context.storage.delete(image.key).catch(() => false)));
    throw error;
  }
}
