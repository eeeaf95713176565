import os from 'node:os';
import { hash } from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import {
  hashPassword,
  PASSWORD_HASHING_SLOTS,
  passwordHashing,
  verifyPassword,
} from './passwords.ts';

describe('password hashing', () => {
  it('runs argon2 on half the cores at most; the rest wait their turn and all finish', async () => {
    const slots = PASSWORD_HASHING_SLOTS;
    expect(slots).toBe(Math.max(1, Math.floor(os.availableParallelism() / 2)));
    const burst = slots + 3;
    const hashes = Promise.all(
      Array.from({ length: burst }, (_, i) => hashPassword(`a long passphrase ${i}`)),
    );
    await vi.waitFor(() => expect(passwordHashing.activeCount).toBe(slots));
    expect(passwordHashing.pendingCount).toBe(burst - slots);
    const done = await hashes;
    expect(passwordHashing.activeCount).toBe(0);
    expect(await verifyPassword(done[2] ?? '', 'a long passphrase 2')).toBe(true);
    expect(await verifyPassword(done[2] ?? '', 'a long passphrase 3')).toBe(false);
  });

  it('hashes with argon2id at 7 MiB and 5 passes; a hash made at 19 MiB and 2 passes still verifies', async () => {
    const made = await hashPassword('a long passphrase');
    expect(made).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect(await verifyPassword(made, 'a long passphrase')).toBe(true);
    const before = await hash('a long passphrase');
    expect(before).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(before, 'a long passphrase')).toBe(true);
    expect(await verifyPassword(before, 'another passphrase')).toBe(false);
  });

  it('a malformed stored hash verifies nothing and frees its slot', async () => {
    expect(await verifyPassword('not a hash', 'whatever')).toBe(false);
    expect(passwordHashing.activeCount).toBe(0);
  });
});
