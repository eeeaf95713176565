import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

describe('environment', () => {
  it('has working defaults: port 3000, ./data, SQLite, demo data, login and online visit on', () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      SEED_DEMO: true,
      FEATURE_LOGIN: true,
      FEATURE_ONLINE_VISIT: true,
      VERSION_CHECK: false,
    });
  });

  it('reads PORT, DATA_DIR, DATABASE_URL and flags', () => {
    const env = parseEnv({
      PORT: '8080',
      DATA_DIR: '/srv/pw',
      DATABASE_URL: 'postgres://db/pw',
      SEED_DEMO: 'false',
      FEATURE_LOGIN: '0',
    });
    expect(env).toMatchObject({
      PORT: 8080,
      DATA_DIR: '/srv/pw',
      DATABASE_URL: 'postgres://db/pw',
      SEED_DEMO: false,
      FEATURE_LOGIN: false,
    });
  });

  it('treats an empty value as unset', () => {
    const env = parseEnv({ PORT: '', DATABASE_URL: '' });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('a bad value stops with one line naming the variable', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(
      /^Invalid environment variable PORT: must be a port number \(got "eighty"\)$/,
    );
    expect(() => parseEnv({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO: must be true or false/);
  });

  it('takes a tag manager only as a GTM container id, and none by default', () => {
    expect(parseEnv({}).GTM_ID).toBeUndefined();
    expect(parseEnv({ GTM_ID: 'GTM-ABC1234' }).GTM_ID).toBe('GTM-ABC1234');
    for (const bad of ['G-ABC1234', 'GTM-', 'gtm-abc1234', 'GTM-ABC1234"><script>', 'UA-1234-1'])
      expect(() => parseEnv({ GTM_ID: bad }), bad).toThrow(
        `Invalid environment variable GTM_ID: must be a Google Tag Manager container id such as GTM-ABC1234 (got ${JSON.stringify(bad)})`,
      );
  });

  it('production refuses to start without PUBLIC_URL, with one line naming it', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(EnvError);
    expect(() => parseEnv({ NODE_ENV: 'production', PUBLIC_URL: '' })).toThrow(
      /^Invalid environment variable PUBLIC_URL: is required when NODE_ENV=production \(the address email links point to, such as https:\/\/pairwell\.example\)$/,
    );
    expect(
      parseEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' }).PUBLIC_URL,
    ).toBe('https://shop.example');
    // Development and tests still start without it: links then use HOST and PORT.
    expect(parseEnv({ NODE_ENV: 'development' }).PUBLIC_URL).toBeUndefined();
  });

  it('never echoes a value that may carry credentials', () => {
    let message = '';
    try {
      parseEnv({ DATABASE_URL: 'mysql://admin:hunter2@db/pw' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^Invalid environment variable DATABASE_URL: must start with postgres:\/\//,
    );
    expect(message).not.toContain('hunter2');
  });
});
