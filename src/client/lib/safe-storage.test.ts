// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localStore, sessionStore } from './safe-storage.ts';

describe('safe storage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.localStorage.clear();
    window.sessionStorage.clear();
  });

  it('reads back what it wrote, and forgets what it removed', () => {
    localStore.set('selectedProduct', '[]');
    sessionStore.set('clickId', 'c-1');
    expect(localStore.get('selectedProduct')).toBe('[]');
    expect(sessionStore.get('clickId')).toBe('c-1');
    sessionStore.remove('clickId');
    expect(sessionStore.get('clickId')).toBeNull();
  });

  it('finds nothing and breaks nothing when the browser refuses storage', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(() => localStore.set('selectedProduct', '[]')).not.toThrow();
    expect(localStore.get('selectedProduct')).toBeNull();
    expect(() => sessionStore.clear()).not.toThrow();
  });
});
