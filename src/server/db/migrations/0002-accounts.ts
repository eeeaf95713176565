import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('leads_id', 'text', (col) => col.notNull().unique())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('dob', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('phone_verified_at', 'text')
    .addColumn('sms_allow', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('clicks_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('customer_addresses')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('address2', 'text', (col) => col.notNull())
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('zip', 'text', (col) => col.notNull())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('customer_addresses_customer_kind_unique', ['customer_id', 'kind'])
    .execute();

  // Only what DESIGN §3 allows: the gateway's token, brand, last 4 and expiry. Never number or CVV.
  await db.schema
    .createTable('payment_methods')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().unique().references('customers.id').onDelete('cascade'),
    )
    .addColumn('gateway_token', 'text', (col) => col.notNull())
    .addColumn('brand', 'text', (col) => col.notNull())
    .addColumn('last4', 'text', (col) => col.notNull())
    .addColumn('exp_month', 'integer', (col) => col.notNull())
    .addColumn('exp_year', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  // The cookie carries a random token; only its SHA-256 is stored here.
  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('public_id', 'text', (col) => col.notNull().unique())
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('sessions_customer_idx')
    .on('sessions')
    .column('customer_id')
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('sms_codes')
    .addColumn('customer_id', 'integer', (col) =>
      col.primaryKey().references('customers.id').onDelete('cascade'),
    )
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();

  // Fixed-window counters shared by every instance (DESIGN §3: nothing shared lives in memory).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('window_start', 'text', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .execute();
}
