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
  it('takes Stripe as all three keys or none, and says which one is missing', () => {
    const keys = {
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    };
    expect(parseEnv(keys)).toMatchObject(keys);
    expect(parseEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
    expect(() => parseEnv({ ...keys, STRIPE_WEBHOOK_SECRET: '' })).toThrow(
      /^Invalid environment variable STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY \(set all three Stripe keys, or none for the simulator\)$/,
    );
    expect(() => parseEnv({ STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' })).toThrow(
      /^Invalid environment variable STRIPE_SECRET_KEY: is required with STRIPE_PUBLISHABLE_KEY /,
    );
    expect(() => parseEnv({ ...keys, STRIPE_PUBLISHABLE_KEY: 'sk_test_abc123' })).toThrow(
      /^Invalid environment variable STRIPE_PUBLISHABLE_KEY: must be a Stripe publishable key \(pk_live_… or pk_test_…\) \(got "sk_test_abc123"\)$/,
    );
  });

  it('never echoes a Stripe secret it refuses', () => {
    for (const [name, value] of [
      ['STRIPE_SECRET_KEY', 'pk_live_not-a-secret-key'],
      ['STRIPE_WEBHOOK_SECRET', 'secret_wrong_prefix'],
    ] as const) {
      let message = '';
      try {
        parseEnv({ [name]: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: must be`));
      expect(message).not.toContain(value);
    }
  });

  it('points Stripe at another host only outside production', () => {
    expect(parseEnv({ STRIPE_API_BASE: 'http://127.0.0.1:12111' }).STRIPE_API_BASE).toBe(
      'http://127.0.0.1:12111',
    );
    expect(() => parseEnv({ STRIPE_API_BASE: 'ftp://127.0.0.1' })).toThrow(
      /^Invalid environment variable STRIPE_API_BASE: must be an http:\/\/ or https:\/\/ URL$/,
    );
    expect(() =>
      parseEnv({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://shop.example',
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
      }),
    ).toThrow(
      /^Invalid environment variable STRIPE_API_BASE: is for tests and local fakes only and is refused when NODE_ENV=production$/,
    );
  });

  it('takes a partner pharmacy as all three settings or none, and keeps the key and secret out of the message', () => {
    const partner = {
      PHARMACY_URL: 'https://pharmacy.example/api',
      PHARMACY_API_KEY: 'ph_live_0123456789abcdef',
      PHARMACY_WEBHOOK_SECRET: 'whsec_0123456789abcdef01234567',
    };
    expect(parseEnv(partner)).toMatchObject(partner);
    expect(parseEnv({}).PHARMACY_URL).toBeUndefined();
    expect(parseEnv({})).toMatchObject({
      PHARMACY_INTERVAL_SECONDS: 10,
      PHARMACY_SIMULATOR_DELAY_SECONDS: 120,
      PHARMACY_NAME: 'Pairwell Pharmacy',
    });
    // The name a receipt gives the pharmacy (issue 29).
    expect(parseEnv({ PHARMACY_NAME: '  Cascade Pharmacy ' }).PHARMACY_NAME).toBe(
      'Cascade Pharmacy',
    );
    expect(() => parseEnv({ PHARMACY_NAME: ' ' })).toThrow(
      /^Invalid environment variable PHARMACY_NAME: must name the pharmacy/,
    );
    expect(() => parseEnv({ PHARMACY_URL: partner.PHARMACY_URL })).toThrow(
      /^Invalid environment variable PHARMACY_API_KEY: is required with PHARMACY_URL \(set all three pharmacy settings, or none for the simulator\)$/,
    );
    expect(() => parseEnv({ ...partner, PHARMACY_API_KEY: 'short' })).toThrow(
      /^Invalid environment variable PHARMACY_API_KEY: must be at least 16 characters$/,
    );
    expect(() => parseEnv({ PHARMACY_INTERVAL_SECONDS: '-1' })).toThrow(
      'Invalid environment variable PHARMACY_INTERVAL_SECONDS: must be a whole number of seconds (0 turns the pharmacy job off) (got "-1")',
    );
  });

  it("keeps the statement descriptor suffix neutral and within Stripe's rules", () => {
    expect(parseEnv({}).STRIPE_STATEMENT_DESCRIPTOR_SUFFIX).toBe('PAIRWELL');
    expect(
      parseEnv({ STRIPE_STATEMENT_DESCRIPTOR_SUFFIX: 'PW Health 2' })
        .STRIPE_STATEMENT_DESCRIPTOR_SUFFIX,
    ).toBe('PW Health 2');
    expect(() =>
      parseEnv({ STRIPE_STATEMENT_DESCRIPTOR_SUFFIX: 'A much too long descriptor' }),
    ).toThrow(
      'Invalid environment variable STRIPE_STATEMENT_DESCRIPTOR_SUFFIX: must be at most 22 characters (got "A much too long descriptor")',
    );
    for (const bad of ["Pair'well", 'Pair*well', 'Pair<well>', 'Pair\\well', 'Pairwéll', '1234'])
      expect(() => parseEnv({ STRIPE_STATEMENT_DESCRIPTOR_SUFFIX: bad }), bad).toThrow(
        'Invalid environment variable STRIPE_STATEMENT_DESCRIPTOR_SUFFIX: must be latin letters, digits and spaces, with at least one letter',
      );
  });
});
