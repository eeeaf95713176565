/* global process */
// The minimal honest reference: Fastify and better-sqlite3 (Pairwell's own SQLite driver) serving
// the same catalogue bytes as Pairwell's `GET /lapi/products/`, read from the same SQLite file
// (REFERENCE_DB, opened read-only) with one prepared statement on every request: no cache, no
// logger, no compression, no schema checks. What Pairwell spends beyond this on the catalogue is
// what its framework costs; the bench checks the bytes are the same before it measures.
import Database from 'better-sqlite3';
import fastify from 'fastify';

const file = process.env.REFERENCE_DB;
if (!file) throw new Error('REFERENCE_DB (the SQLite file to read the catalogue from) is not set');
const db = new Database(file, { readonly: true, fileMustExist: true });

// The query of Pairwell's selectCatalog (catalog.queries.ts), prepared once.
const catalogue = db.prepare(
  `select l.id as line_id, l.slug, l.name, l.summary, l.description, l.img, l.category,
          p.id as product_id, p.frequency, p.price_cents, p.dose, p.quantity_supported
     from product_lines l join products p on p.line_id = l.id
    where p.active = 1
    order by l.sort_order, p.id`,
);
const FREQUENCY_ORDER = { ONE_TIME: 0, MONTHLY: 1, QUARTERLY: 2 };

function catalogueBody() {
  const lines = new Map();
  for (const row of catalogue.all()) {
    let line = lines.get(row.line_id);
    if (!line) {
      line = {
        slug: row.slug,
        name: row.name,
        summary: row.summary,
        description: row.description,
        img: row.img,
        category: row.category,
        offers: [],
      };
      lines.set(row.line_id, line);
    }
    line.offers.push({
      product_id: row.product_id,
      product_name: row.name,
      price: Math.round(row.price_cents) / 100,
      price_cents: row.price_cents,
      frequency: row.frequency,
      quantity_supported: row.quantity_supported === 1,
      img: row.img,
      description: row.summary,
      dose: row.dose,
      category: row.category,
    });
  }
  for (const line of lines.values())
    line.offers.sort((a, b) => FREQUENCY_ORDER[a.frequency] - FREQUENCY_ORDER[b.frequency]);
  return JSON.stringify({ status: 'SUCCESS', message: '', data: { lines: [...lines.values()] } });
}

const app = fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/lapi/products/', async (_request, reply) =>
  reply
    .type('application/json; charset=utf-8')
    .header('Cache-Control', 'public, max-age=60')
    .send(catalogueBody()),
);

const shutdown = () =>
  void app.close().then(() => {
    db.close();
    process.exit(0);
  });
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
