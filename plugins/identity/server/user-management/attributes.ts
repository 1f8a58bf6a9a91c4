import { z } from '@atrium/sdk/server';

/** Attribute schemas shared by the user-management documents. */
export const emailAddress = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Enter a valid email address.')
  .transform((value) => value.toLowerCase());
export const phoneNumber = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, 'Enter a phone number in E.164 format, e.g. +15555550123.');
export const personName = z.string().trim().min(1, 'This field may not be blank.').max(200);
/** True when the value is the path of an uploaded picture (what the picture attribute holds after an upload). */
export const isUploadedPictureUrl = (value: string) =>
  /^\/api\/identity\/user-management\/users\/[0-9a-f-]{36}\/picture(\?v=[0-9a-f]{1,64})?$/i.test(value);

/** An absolute http or https URL with a host (not `javascript:`, `file:` or any other scheme). */
export const isWebUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** A raster image inlined as a data URL (not SVG, which can carry script). */
export const isImageDataUrl = (value: string): boolean =>
  /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/.test(value);

/**
 * A picture is an http(s) URL, a data:image URL, or the path of an uploaded picture
 * (users/{id}/picture) as the upload sets it; anything else (`javascript:`…) is refused.
 */
export const pictureUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (value) => isUploadedPictureUrl(value) || isWebUrl(value) || isImageDataUrl(value),
    'Enter an http or https URL, or a data:image URL.',
  );
