import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { prepareStatement } from './client.ts';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;
type Value = string | number | null;

/** Stands for the builder's n-th argument while the query is compiled once. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query the app runs on every request, built and compiled by Kysely once per database and then
 * run with each call's values in place of the first call's: Kysely builds and compiles a query
 * anew every time, which cost 120 µs of a customer's orders details (its three statements) and
 * 20% of the server's CPU there (issue 14, decision 017). The SQL is the same text every time, so
 * SQLite's kept statement (`withStatementCache`) is reused too, and PostgreSQL keeps it prepared on
 * each connection (`prepareStatement`), so it is not parsed and planned on every call.
 *
 * `build` must pass its arguments into the query as values only (`where(…, '=', customerId)`,
 * `limit(n)`): it is called once with stand-ins, so a value it reads in JavaScript (`if (after)`)
 * would be read once for every call. A stand-in that does not reach the compiled query's
 * parameters is such a use, and throws on the first call; a query whose shape depends on a value
 * needs one reusable query per shape.
 */
export function reusable<Args extends Value[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<Row>; slots: number[] }>();
  return async (db, ...args) => {
    let entry = compiled.get(db);
    if (!entry) {
      const stand = args.map((_, index) => new Slot(index)) as unknown as Args;
      const query = build(db, ...stand).compile();
      const slots = query.parameters.map((value) => (value instanceof Slot ? value.index : -1));
      for (let index = 0; index < args.length; index++)
        if (!slots.includes(index))
          throw new Error(`reusable query: argument ${index} is not a value of the query`);
      prepareStatement(query.sql);
      entry = { query, slots };
      compiled.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((value, at) => {
      const slot = slots[at] ?? -1;
      return slot === -1 ? value : args[slot];
    });
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}
