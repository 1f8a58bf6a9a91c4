import path from 'node:path';
import { z } from 'zod';
import { parseSecretKeys, SECRET_KEY_REQUIRED } from '@atrium/sdk/server';
import { DEFAULT_MAIL_FROM, type MailConfig } from './mail/mail-config.js';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy.js';

/**
 * Configuration comes only from the environment and is validated once at start; a bad value stops
 * the process with a message naming the variable instead of failing later.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const environmentSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /**
     * The schema owner's connection (docs/security.md, "Database privileges"): migrations, the job
     * queue's schema and the grants run over it, and DATABASE_URL may then name a role that can only
     * read and write rows.
     */
    DATABASE_MIGRATION_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    /** `false` when job workers run as separate `atrium worker` processes. */
    ATRIUM_WORKERS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /** Where the built SPA lives; the server serves it when present. */
    WEB_DIST: z.string().optional(),
    /** Object storage (docs/storage.md). Only the local-disk driver is built. */
    ATRIUM_STORAGE_DRIVER: z.enum(['local']).default('local'),
    /** Where the local driver keeps objects; default `<DATA_DIR>/storage`. */
    ATRIUM_STORAGE_DIR: z.string().min(1).optional(),
    /** HMAC key of upload tickets; every process behind one load balancer needs the same one. */
    ATRIUM_STORAGE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** The largest object one upload may store. */
    ATRIUM_UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(2 ** 31 - 1)
      .default(25 * 1024 * 1024),
    /** SMTP server for outgoing mail (docs/mail.md); unset: mails wait in the outbox, unsent. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^/]/, 'must be an smtp:// or smtps:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /**
     * The origin users reach the app at; its /login/idpresponse is an allowed OIDC redirect URI
     * (identity reads it, docs/security.md). Checked here so that a typo stops the start instead of
     * refusing every external sign-in.
     */
    ATRIUM_PUBLIC_URL: z
      .string()
      .trim()
      .refine((value) => {
        try {
          return ['http:', 'https:'].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, 'must be an http:// or https:// URL, e.g. https://claims.example')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** The From of outgoing mail: `name@domain` or `Name <name@domain>`. */
    MAIL_FROM: z
      .string()
      .regex(/^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, 'must be name@domain or Name <name@domain>')
      .default(DEFAULT_MAIL_FROM),
    /** SMTP attempts per mail before it stays failed. */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
    /** Seconds before the first retry; each further retry waits twice as long (at most an hour). */
    MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** Key(s) of the secrets service (docs/security.md, "Secrets at rest"); required with DATABASE_URL. */
    ATRIUM_SECRET_KEY: z
      .string()
      .optional()
      .or(z.literal('').transform(() => undefined))
      .superRefine((value, context) => {
        if (!value) return;
        try {
          parseSecretKeys(value);
        } catch (error) {
          context.addIssue({ code: 'custom', message: (error as Error).message });
        }
      }),
    /** Proxies whose X-Forwarded-For/-Proto are believed (http/trust-proxy.ts, docs/operations.md). */
    ATRIUM_TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, context) => {
        const parsed = parseTrustProxy(value);
        if (typeof parsed === 'object' && !Array.isArray(parsed)) {
          context.addIssue({ code: 'custom', message: parsed.error });
          return z.NEVER;
        }
        return parsed;
      }),
  })
  .superRefine((value, context) => {
    if (value.DATABASE_URL && !value.ATRIUM_SECRET_KEY) {
      context.addIssue({ code: 'custom', path: ['ATRIUM_SECRET_KEY'], message: SECRET_KEY_REQUIRED });
    }
  });

export type AtriumConfig = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** The owner's connection for migrations; unset: DATABASE_URL migrates too. */
  databaseMigrationUrl?: string;
  databasePoolMax: number;
  logLevel: (typeof LOG_LEVELS)[number];
  workers: boolean;
  webDist?: string;
  storage: StorageConfig;
  mail: MailConfig;
  /** ATRIUM_SECRET_KEY; unset on the embedded database, which keeps a generated key in DATA_DIR. */
  secretKey?: string;
  /** ATRIUM_TRUST_PROXY: which hops in front may name the client (false: none). */
  trustProxy: TrustProxy;
};

export interface StorageConfig {
  driver: 'local';
  /** Unset: `<dataDir>/storage` (see storage/create-object-storage.ts). */
  dir?: string;
  secret?: string;
  maxUploadBytes: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AtriumConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const value = parsed.data;
  if (value.DATABASE_MIGRATION_URL && !value.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_MIGRATION_URL: needs DATABASE_URL (the embedded database has no roles)',
    );
  }
  return {
    port: value.PORT,
    host: value.HOST,
    dataDir: path.resolve(value.DATA_DIR),
    databaseUrl: value.DATABASE_URL,
    databaseMigrationUrl: value.DATABASE_MIGRATION_URL,
    databasePoolMax: value.DATABASE_POOL_MAX,
    logLevel: value.LOG_LEVEL,
    workers: value.ATRIUM_WORKERS,
    webDist: value.WEB_DIST ? path.resolve(value.WEB_DIST) : undefined,
    storage: {
      driver: value.ATRIUM_STORAGE_DRIVER,
      dir: value.ATRIUM_STORAGE_DIR ? path.resolve(value.ATRIUM_STORAGE_DIR) : undefined,
      secret: value.ATRIUM_STORAGE_SECRET,
      maxUploadBytes: value.ATRIUM_UPLOAD_MAX_BYTES,
    },
    mail: {
      smtpUrl: value.SMTP_URL,
      from: value.MAIL_FROM,
      maxAttempts: value.MAIL_MAX_ATTEMPTS,
      retryDelaySeconds: value.MAIL_RETRY_DELAY_SECONDS,
    },
    secretKey: value.ATRIUM_SECRET_KEY,
    trustProxy: value.ATRIUM_TRUST_PROXY,
  };
}
