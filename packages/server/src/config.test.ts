import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, logLevel: 'info', databaseUrl: undefined, workers: true });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/var/lib/atrium',
      DATABASE_URL: 'postgres://u@db:5432/atrium',
      LOG_LEVEL: 'debug',
      ATRIUM_WORKERS: 'false',
      ATRIUM_SECRET_KEY: 'ab'.repeat(32),
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/var/lib/atrium',
      databaseUrl: 'postgres://u@db:5432/atrium',
      logLevel: 'debug',
      workers: false,
    });
  });

  it('needs ATRIUM_SECRET_KEY with DATABASE_URL, and refuses a key that is not 32 bytes', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db:5432/atrium' })).toThrow(
      /ATRIUM_SECRET_KEY: ATRIUM_SECRET_KEY is required when DATABASE_URL is set/,
    );
    expect(() => loadConfig({ ATRIUM_SECRET_KEY: 'short' })).toThrow(/ATRIUM_SECRET_KEY: each key must be 32 bytes/);
    expect(loadConfig({}).secretKey).toBeUndefined();
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('takes the schema owner connection only beside DATABASE_URL', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://atrium_app@db/atrium',
      DATABASE_MIGRATION_URL: 'postgres://atrium_owner@db/atrium',
      ATRIUM_SECRET_KEY: 'ab'.repeat(32),
    });
    expect(config.databaseMigrationUrl).toBe('postgres://atrium_owner@db/atrium');
    expect(() => loadConfig({ DATABASE_MIGRATION_URL: 'postgres://atrium_owner@db/atrium' })).toThrow(
      /DATABASE_MIGRATION_URL: needs DATABASE_URL/,
    );
  });

  it('stops with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '70000', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', ATRIUM_PUBLIC_URL: 'claims.example' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('LOG_LEVEL');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('ATRIUM_PUBLIC_URL');
    }
    expect(() => loadConfig({ ATRIUM_PUBLIC_URL: 'https://claims.example' })).not.toThrow();
    expect(() => loadConfig({ ATRIUM_TRUST_PROXY: 'true' })).toThrow(/ATRIUM_TRUST_PROXY: true would trust any client/);
    expect(loadConfig({ ATRIUM_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});
