// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '#shared/constants.ts';
import {
  adoptLeadsIdCookie,
  clearBrowserState,
  getAppState,
  rehydrateAppState,
  resetAppStateForTests,
  setLeadsId,
  setLoggedIn,
  setLoginVisible,
  setOnlineVisitUser,
} from './app-state.ts';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  vi.useRealTimers();
  document.cookie = 'leads_id=; Max-Age=0; Path=/';
});

function stored(): unknown {
  return JSON.parse(localStorage.getItem(storageKeys.persistedState) ?? 'null');
}

describe('the persisted application state', () => {
  it('keeps only the login and online-visit parts in local storage', () => {
    setLoggedIn(true);
    setLoginVisible(true);
    setOnlineVisitUser({ category: 'sleep' });
    setLeadsId('lead-1');
    expect(stored()).toEqual({
      login: { isVisible: true, isLoggedIn: true },
      onlineVisit: { user: { category: 'sleep' } },
    });
    // The leads id has its own key and is never part of the persisted blob.
    expect(localStorage.getItem(storageKeys.leadsId)).toBe('lead-1');
  });

  it('is rehydrated at start', async () => {
    localStorage.setItem(
      storageKeys.persistedState,
      JSON.stringify({
        login: { isVisible: false, isLoggedIn: true },
        onlineVisit: { user: { step: 2 } },
      }),
    );
    await expect(rehydrateAppState()).resolves.toBe('rehydrated');
    expect(getAppState().login.isLoggedIn).toBe(true);
    expect(getAppState().onlineVisit.user).toEqual({ step: 2 });
  });

  it('drops stored state of the wrong shape instead of trusting it', async () => {
    localStorage.setItem(
      storageKeys.persistedState,
      JSON.stringify({ login: { isLoggedIn: 'yes' } }),
    );
    await expect(rehydrateAppState()).resolves.toBe('empty');
    expect(getAppState().login).toEqual({ isVisible: false, isLoggedIn: false });

    localStorage.setItem(storageKeys.persistedState, '{not json');
    await expect(rehydrateAppState()).resolves.toBe('empty');
  });

  it('gives up after 5000 ms when storage does not answer, and starts logged out', async () => {
    vi.useFakeTimers();
    const stuck = { getItem: () => new Promise<string>(() => {}), setItem: () => {} };
    let outcome: string | undefined;
    void rehydrateAppState(stuck).then((result) => {
      outcome = result;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('timed-out');
    expect(getAppState().login.isLoggedIn).toBe(false);
  });
});

describe('the inbound leads-id cookie', () => {
  it('is copied to local storage and removed', () => {
    document.cookie = 'leads_id=lead-42; Path=/';
    expect(adoptLeadsIdCookie()).toBe('lead-42');
    expect(localStorage.getItem(storageKeys.leadsId)).toBe('lead-42');
    expect(getAppState().user.userData.leadsId).toBe('lead-42');
    expect(document.cookie).not.toContain('leads_id');
  });

  it('grants nothing by itself: the login state stays logged out', () => {
    document.cookie = 'leads_id=lead-42; Path=/';
    adoptLeadsIdCookie();
    expect(getAppState().login.isLoggedIn).toBe(false);
  });

  it('changes nothing when there is no cookie', () => {
    setLeadsId('lead-7');
    expect(adoptLeadsIdCookie()).toBeNull();
    expect(localStorage.getItem(storageKeys.leadsId)).toBe('lead-7');
  });
});

describe('forgetting the browser state at logout', () => {
  it("clears all local storage, the click id, a visit's kept eligibility and the in-memory login", () => {
    setLoggedIn(true);
    setLeadsId('lead-1');
    localStorage.setItem(storageKeys.cart, '[]');
    sessionStorage.setItem(storageKeys.clickId, 'click-9');
    sessionStorage.setItem(
      storageKeys.visitEligibility,
      JSON.stringify({ category: 'ed', state: 'OR', dob: '04/02/1985' }),
    );
    clearBrowserState();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.getItem(storageKeys.clickId)).toBeNull();
    expect(sessionStorage.getItem(storageKeys.visitEligibility)).toBeNull();
    expect(getAppState().login.isLoggedIn).toBe(false);
    expect(getAppState().user.userData.leadsId).toBeNull();
  });
});
