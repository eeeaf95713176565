import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { formatCents } from '#shared/money.ts';
import { orderStatuses, orderStatusLabels, type OrderStatus } from '#shared/orders.ts';
import type { StaffOrderSummary } from '#shared/operations.ts';
import { inputClass, SelectField } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { mediumDate, OrderStatusBadge } from '#client/components/ui/order-status.tsx';
import { paths } from '#shared/paths.ts';
import { useStaffOrders, type OrderFilters } from '../operations.api.ts';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { ProviderCoverage } from './provider-coverage.tsx';

function isOrderStatus(value: string | null): value is OrderStatus {
  return value !== null && (orderStatuses as readonly string[]).includes(value);
}

/** The filters live in the address, so a reload or the way back from an order keeps them. */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const filters: OrderFilters = {
    status: isOrderStatus(status) ? status : undefined,
    query: params.get('q')?.trim() || undefined,
  };
  const update = (next: OrderFilters) => {
    const search = new URLSearchParams();
    if (next.status) search.set('status', next.status);
    if (next.query) search.set('q', next.query);
    setParams(search, { replace: true });
  };
  return { filters, update };
}

/**
 * The operations dashboard: where visits can be reviewed (provider coverage), then every order,
 * filtered by status and found by number, email or name.
 */
export function OrdersDashboard() {
  const { filters, update } = useFilters();
  const orders = useStaffOrders(filters);
  const location = useLocation();
  const searchId = useId();
  const [query, setQuery] = useState(filters.query ?? '');
  const filtered = Boolean(filters.status || filters.query);

  const search = (event: FormEvent) => {
    event.preventDefault();
    update({ ...filters, query: query.trim() || undefined });
  };
  // The list remembers where it was, so the order page's way back keeps the filters.
  const linkState = { listSearch: location.search };

  return (
    <>
      <StaffHeader title="Orders" subtitle="Ship, deliver, refund and cancel customer orders." />
      <ProviderCoverage />
      <form
        role="search"
        aria-label="Orders"
        onSubmit={search}
        className="mb-5 grid gap-4 rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] md:grid-cols-[14rem_minmax(0,1fr)] md:items-end"
      >
        <SelectField
          label="Status"
          value={filters.status ?? ''}
          onChange={(event) =>
            update({
              ...filters,
              status: isOrderStatus(event.target.value) ? event.target.value : undefined,
            })
          }
        >
          <option value="">All statuses</option>
          {orderStatuses.map((status) => (
            <option key={status} value={status}>
              {orderStatusLabels[status]}
            </option>
          ))}
        </SelectField>
        <div>
          <label htmlFor={searchId} className="block text-[0.9375rem] font-medium text-ink">
            Search
          </label>
          <div className="mt-1.5 flex gap-2">
            <input
              id={searchId}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder="Order number, email or name"
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
              className={`${inputClass(false)} min-w-0`}
            />
            <button type="submit" className={`${buttonClass('primary')} shrink-0`}>
              Search
            </button>
          </div>
        </div>
      </form>

      <QueryView query={orders} loading="Loading orders…">
        {(list) => (
          <section aria-labelledby="orders-count" aria-busy={orders.isFetching || undefined}>
            <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
              <h2
                id="orders-count"
                aria-live="polite"
                className="font-sans text-[0.9375rem] font-semibold text-ink-soft"
              >
                {list.length === 1 ? '1 order' : `${list.length} orders`}
                {filtered ? ' match' : ''}
              </h2>
              {filtered ? (
                <button
                  type="button"
                  onClick={() => {
                    setQuery('');
                    update({});
                  }}
                  className={`${buttonClass('ghost')} min-h-10! px-3! text-sm`}
                >
                  Clear filters
                </button>
              ) : null}
            </div>
            {list.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-line bg-white p-6 text-center text-ink-soft">
                {filtered ? 'No orders match these filters.' : 'No orders yet.'}
              </p>
            ) : (
              <>
                <OrdersTable orders={list} linkState={linkState} />
                <OrderCards orders={list} linkState={linkState} />
              </>
            )}
          </section>
        )}
      </QueryView>
    </>
  );
}

interface ListProps {
  orders: StaffOrderSummary[];
  linkState: { listSearch: string };
}

function Total({ order }: { order: StaffOrderSummary }) {
  return (
    <>
      <span className="font-semibold text-ink">{formatCents(order.total_cents)}</span>
      {order.refund_cents > 0 ? (
        <span className="block text-sm text-muted">Refunded {formatCents(order.refund_cents)}</span>
      ) : null}
    </>
  );
}

/** From 768px: a table, one order a row. */
function OrdersTable({ orders, linkState }: ListProps) {
  return (
    <div className="hidden overflow-x-auto rounded-2xl border border-line bg-white shadow-[0_1px_2px_rgba(15,37,51,0.04)] md:block">
      <table className="w-full text-left text-[0.9375rem]">
        <caption className="sr-only">Orders</caption>
        <thead className="border-b border-line bg-surface text-sm text-muted">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Order
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Placed
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Customer
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Items
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Total
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Tracking
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {orders.map((order) => (
            <tr key={order.orders_id} className="hover:bg-accent-50/40">
              <th scope="row" className="px-4 py-3 font-semibold whitespace-nowrap">
                <Link
                  to={paths.staffOrder(order.orders_id)}
                  state={linkState}
                  className="text-accent-800 underline-offset-4 hover:underline"
                >
                  {order.order_number}
                </Link>
              </th>
              <td className="px-4 py-3 whitespace-nowrap text-ink-soft">
                <time dateTime={order.order_date}>{mediumDate(order.order_date)}</time>
              </td>
              <td className="max-w-64 px-4 py-3">
                <span className="block truncate text-ink">{order.customer_name}</span>
                <span className="block truncate text-sm text-muted">{order.customer_email}</span>
              </td>
              <td className="px-4 py-3 text-right text-ink-soft">{order.item_count}</td>
              <td className="px-4 py-3 text-right whitespace-nowrap">
                <Total order={order} />
              </td>
              <td className="px-4 py-3">
                <OrderStatusBadge status={order.order_status} />
              </td>
              <td className="px-4 py-3 font-mono text-sm break-all text-ink-soft">
                {order.tracking_number ?? <span className="font-sans text-muted">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Below 768px: one card an order, the whole card a link. */
function OrderCards({ orders, linkState }: ListProps) {
  return (
    <ul className="space-y-3 md:hidden">
      {orders.map((order) => (
        <li key={order.orders_id}>
          <Link
            to={paths.staffOrder(order.orders_id)}
            state={linkState}
            className="block rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] hover:border-accent-300"
          >
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-semibold text-accent-800">{order.order_number}</p>
                <p className="text-sm text-muted">
                  <time dateTime={order.order_date}>{mediumDate(order.order_date)}</time> ·{' '}
                  {order.item_count === 1 ? '1 item' : `${order.item_count} items`}
                </p>
              </div>
              <OrderStatusBadge status={order.order_status} />
            </div>
            <div className="mt-3 flex items-end justify-between gap-3">
              <div className="min-w-0">
                <p className="truncate text-ink">{order.customer_name}</p>
                <p className="truncate text-sm text-muted">{order.customer_email}</p>
              </div>
              <p className="shrink-0 text-right">
                <Total order={order} />
              </p>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
