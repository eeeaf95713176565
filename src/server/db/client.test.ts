import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './client.ts';

describe('the SQLite statement cache', () => {
  it('reuses the compiled statement for the same SQL and forgets the least recently used', () => {
    const sqlite = new SQLite(':memory:');
    const database = withStatementCache(sqlite, 2);
    const first = database.prepare('select 1 as one');
    expect(database.prepare('select 1 as one')).toBe(first);
    database.prepare('select 2 as two');
    // `select 1` was used last but one; a third text pushes out `select 2`, the least recent.
    database.prepare('select 1 as one');
    database.prepare('select 3 as three');
    expect(database.prepare('select 1 as one')).toBe(first);
    expect(database.prepare('select 1 as one').all([])).toEqual([{ one: 1 }]);
    database.close();
  });

  it('a kept statement sees a schema a migration changed under it', () => {
    const sqlite = new SQLite(':memory:');
    const database = withStatementCache(sqlite);
    database.prepare('create table notes (id integer primary key, body text)').run([]);
    database.prepare('insert into notes (body) values (?)').run(['first']);
    expect(database.prepare('select * from notes').all([])).toEqual([{ id: 1, body: 'first' }]);
    database.prepare('alter table notes add column pinned integer not null default 0').run([]);
    expect(database.prepare('select * from notes').all([])).toEqual([
      { id: 1, body: 'first', pinned: 0 },
    ]);
    database.close();
  });
});
