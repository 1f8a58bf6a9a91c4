import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ApiError, z, type AtriumRouter } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { userPicture } from '../tables.js';
import { isUuid, USER_MANAGEMENT_BASE } from './resources.js';

const tags = ['identity', 'user-management'];
const security = [{ bearer: [] }];

export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type PictureType = (typeof PICTURE_TYPES)[number];
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURE_TOO_LARGE_MESSAGE = 'The picture must be 2 MB or smaller.';
export const PICTURE_WRONG_TYPE_MESSAGE = 'Upload the picture as image/png, image/jpeg or image/webp.';
export const PICTURE_NOT_AN_IMAGE_MESSAGE = 'The picture must be a PNG, JPEG or WebP image.';

/** Where a user's uploaded picture is served; `v` changes with the picture so that pages show the new one. */
export const pictureUrlOf = (userId: string, sha256: string) =>
  `${USER_MANAGEMENT_BASE}/users/${userId}/picture?v=${sha256.slice(0, 12)}`;

const startsWith = (bytes: Buffer, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

/** The image type the bytes really are, by their magic numbers, or null. */
export function sniffPictureType(bytes: Buffer): PictureType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return null;
}

const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

const etagOf = (sha256: string) => `"${sha256}"`;

/** The ETags an If-None-Match header names (weak or strong), or '*'. */
const matchesIfNoneMatch = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });

/**
 * POST/DELETE users/me/picture and GET users/{id}/picture. Registered in a scope of their own: the
 * image content-type parser (raw body, 2 MB) and the error handler that words body-size and
 * media-type refusals apply to these routes only.
 */
export async function pictureRoutes(router: AtriumRouter, services: IdentityServices) {
  const { db } = services;

  router.addContentTypeParser(
    [...PICTURE_TYPES],
    { parseAs: 'buffer', bodyLimit: PICTURE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  router.setErrorHandler((error) => {
    const code = (error as { code?: string }).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new ApiError(413, PICTURE_TOO_LARGE_MESSAGE, { code });
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new ApiError(415, PICTURE_WRONG_TYPE_MESSAGE, { code });
    throw error;
  });

  router.post(
    '/users/me/picture',
    {
      config: { access: 'authenticated' },
      bodyLimit: PICTURE_MAX_BYTES,
      schema: {
        summary: "Uploads the caller's picture: the image itself as the body (image/png, image/jpeg or image/webp).",
        description:
          'At most 2 MB (413 otherwise); another content type is 415; bytes that are not the image type they claim ' +
          "are 400. The user's picture attribute becomes the URL of GET users/{id}/picture.",
        tags,
        security,
        response: { 200: z.object({ picture: z.string(), content_type: z.string(), sha256: z.string() }) },
      },
    },
    async (request) => {
      const declared = mediaTypeOf(request.headers['content-type']);
      if (!(PICTURE_TYPES as readonly string[]).includes(declared) || !Buffer.isBuffer(request.body)) {
        throw new ApiError(415, PICTURE_WRONG_TYPE_MESSAGE);
      }
      const bytes = request.body;
      if (sniffPictureType(bytes) !== declared) {
        throw new ApiError(400, PICTURE_NOT_AN_IMAGE_MESSAGE, { code: 'InvalidParameterException' });
      }
      const userId = request.principal!.subject;
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const now = services.clock.now();
      // The picture and the attribute pointing at it land together or not at all. The update also
      // bumps the user's updated_at, so the web session client renews the token and reads it.
      const updated = await db.transaction(async (tx) => {
        await tx
          .insert(userPicture)
          .values({ userId, contentType: declared, bytes, sha256, updatedAt: now })
          .onConflictDoUpdate({
            target: userPicture.userId,
            set: { contentType: declared, bytes, sha256, updatedAt: now },
          });
        return services.users.update(userId, { picture: pictureUrlOf(userId, sha256) }, tx);
      });
      return { picture: updated.picture!, content_type: declared, sha256 };
    },
  );

  router.delete(
    '/users/me/picture',
    {
      config: { access: 'authenticated' },
      schema: { summary: "Removes the caller's uploaded picture (and the picture attribute).", tags, security },
    },
    async (request, reply) => {
      const userId = request.principal!.subject;
      await db.transaction(async (tx) => {
        await tx.delete(userPicture).where(eq(userPicture.userId, userId));
        await services.users.update(userId, { picture: null }, tx);
      });
      return reply.status(204).send();
    },
  );

  router.get(
    '/users/:id/picture',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "A user's uploaded picture, for any signed-in caller.",
        description:
          'The image with its content type, ETag (the SHA-256 of the bytes; If-None-Match answers 304) and ' +
          'Cache-Control private. With Accept: application/json (and no image type) it answers ' +
          '`{ content_type, sha256, data_url }` instead, for clients that send a bearer token and so cannot ' +
          'point an <img> at it. 404 when the user has none.',
        tags,
        security,
        params: z.object({ id: z.string() }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const notFound = () => new ApiError(404, 'This user has no picture.', { code: 'ResourceNotFoundException' });
      if (!isUuid(id)) throw notFound();
      const [row] = await db.select().from(userPicture).where(eq(userPicture.userId, id)).limit(1);
      if (!row) throw notFound();
      const accept = String(request.headers.accept ?? '');
      const asJson = /application\/json/i.test(accept) && !/image\//i.test(accept);
      const etag = etagOf(asJson ? `${row.sha256}-json` : row.sha256);
      reply.header('etag', etag);
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'Accept');
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
      if (asJson) {
        return reply.type('application/json; charset=utf-8').send({
          content_type: row.contentType,
          sha256: row.sha256,
          data_url: `data:${row.contentType};base64,${row.bytes.toString('base64')}`,
        });
      }
      reply.header('x-content-type-options', 'nosniff');
      return reply.type(row.contentType).send(row.bytes);
    },
  );
}
