import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { hashPassword, passwordHashing, verifyPassword } from './passwords.ts';

describe('password hashing', () => {
  it('runs one argon2 hash per core at most; the rest wait their turn and all finish', async () => {
    const slots = os.availableParallelism();
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

  it('a malformed stored hash verifies nothing and frees its slot', async () => {
    expect(await verifyPassword('not a hash', 'whatever')).toBe(false);
    expect(passwordHashing.activeCount).toBe(0);
  });
});
