import { describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import { absoluteLink, publicUrl } from './links.ts';

describe('links in email', () => {
  it('use PUBLIC_URL when it is set, without a doubled slash', () => {
    const env = parseEnv({ PUBLIC_URL: 'https://shop.example/' });
    expect(publicUrl(env)).toBe('https://shop.example');
    expect(absoluteLink(env, '/orders#A1')).toBe('https://shop.example/orders#A1');
  });

  it('fall back to the configured host and port in development', () => {
    expect(publicUrl(parseEnv({}))).toBe('http://localhost:3000');
    expect(publicUrl(parseEnv({ HOST: '::', PORT: '8080' }))).toBe('http://localhost:8080');
    expect(publicUrl(parseEnv({ HOST: '127.0.0.1', PORT: '4000' }))).toBe('http://127.0.0.1:4000');
    expect(publicUrl(parseEnv({ HOST: '::1', PORT: '4000' }))).toBe('http://[::1]:4000');
  });
});
