import { describe, expect, it } from 'vitest';
import { autoSlash, dateGroups, expiryGroups, groupCardNumber } from './auto-slash.ts';

function typeInto(text: string, groups: readonly number[]): string {
  let value = '';
  for (const char of text) value = autoSlash(value, value + char, groups);
  return value;
}

describe('slashes on a number keypad', () => {
  it('fill in as a birth date is typed digit by digit', () => {
    expect(typeInto('01152000', dateGroups)).toBe('01/15/2000');
  });

  it('leave a customer who types the slashes with exactly what they typed', () => {
    expect(typeInto('01/15/2000', dateGroups)).toBe('01/15/2000');
    expect(typeInto('1/15/2000', dateGroups)).toBe('1/15/2000');
  });

  it('format a pasted date and a pasted expiry', () => {
    expect(autoSlash('', '01152000', dateGroups)).toBe('01/15/2000');
    expect(autoSlash('', '1228', expiryGroups)).toBe('12/28');
  });

  it('never add a slash after the last group, so an overlong value still fails validation', () => {
    expect(typeInto('12288', expiryGroups)).toBe('12/288');
  });

  it('leave deleting alone', () => {
    expect(autoSlash('01/', '01', dateGroups)).toBe('01');
    expect(autoSlash('01', '015', dateGroups)).toBe('01/5');
  });
});

describe('a card number grouped as it is typed', () => {
  const typeCard = (text: string) => {
    let value = '';
    for (const char of text) value = groupCardNumber(value, value + char);
    return value;
  };

  it('in fours, or 4-6-5 for American Express, typed or pasted', () => {
    expect(typeCard('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(typeCard('4242 4242 4242 4242')).toBe('4242 4242 4242 4242');
    expect(typeCard('378282246310005')).toBe('3782 822463 10005');
    expect(groupCardNumber('', '4000-0000-0000-0002')).toBe('4000 0000 0000 0002');
  });

  it('keeps a digit too many for the form to refuse, and leaves deleting and letters alone', () => {
    expect(typeCard('42424242424242421')).toBe('4242 4242 4242 4242 1');
    expect(groupCardNumber('4242 4242', '4242 424')).toBe('4242 424');
    expect(groupCardNumber('4242', '4242x')).toBe('4242x');
  });
});
