import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SelectField, TextField } from '#client/components/forms/fields.tsx';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { useCatalog } from '#client/features/catalog/catalog.api.ts';
import { MAX_QUANTITY } from '#shared/cart.ts';
import { bottlesText, type Catalog } from '#shared/catalog.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { formatCents } from '#shared/money.ts';
import {
  couplesPriceCents,
  type AddressText,
  type ShipTo,
  type TogetherItem,
  type TogetherOverview,
} from '#shared/partners-together.ts';
import { paths } from '#shared/paths.ts';
import {
  useAcceptTogether,
  useCancelTogether,
  useChangeTogether,
  useChangeShipTo,
  useDeclineTogether,
  useGiveGift,
  useStartPlan,
  useTogether,
} from '../partners.api.ts';

const addressLine = (a: AddressText) =>
  `${a.address}${a.address2 ? `, ${a.address2}` : ''}, ${a.city}, ${a.state} ${a.zip}`;

/**
 * The partner page's gifts and couples' plan (decision 018): what waits for an answer, what runs
 * and its next date, and the forms to give a subscription or start a plan. Each side sees and may
 * do only what the server says (`actions`).
 */
export function TogetherSection({ leadsId, name }: { leadsId: string; name: string }) {
  const together = useTogether(leadsId);
  return (
    <AccountSection
      id="partner-together"
      title={`Together with ${name}`}
      description="Gift a subscription, or start a couples' plan: two subscriptions delivered together with one charge. Nothing is charged until the other accepts."
    >
      <QueryView query={together} loading="Loading gifts and plans…" size="inline">
        {(data) => <TogetherBody leadsId={leadsId} name={name} data={data} />}
      </QueryView>
    </AccountSection>
  );
}

function TogetherBody({
  leadsId,
  name,
  data,
}: {
  leadsId: string;
  name: string;
  data: TogetherOverview;
}) {
  const hasPlan = data.items.some((item) => item.kind === 'plan');
  return (
    <div className="space-y-6">
      {data.items.length > 0 ? (
        <ul className="space-y-4">
          {data.items.map((item) => (
            <li key={item.together_id}>
              <ItemCard leadsId={leadsId} item={item} data={data} />
            </li>
          ))}
        </ul>
      ) : null}
      <GiveForm leadsId={leadsId} name={name} data={data} />
      {hasPlan ? null : <PlanForm leadsId={leadsId} name={name} data={data} />}
    </div>
  );
}

function itemTitle(item: TogetherItem): string {
  const who = item.partner_first_name;
  if (item.kind === 'plan') return `Couples' plan with ${who}`;
  const product = item.lines[0]?.product_name ?? 'A subscription';
  return item.role === 'payer'
    ? `Your gift to ${who}: ${product}`
    : `A gift from ${who}: ${product}`;
}

function statusText(item: TogetherItem): string {
  const who = item.partner_first_name;
  switch (item.status) {
    case 'pending':
      return item.role === 'payer'
        ? `Waiting for ${who} to accept. Nothing is charged until then.`
        : item.kind === 'gift'
          ? `${who} would like to give you this subscription. Nothing is charged until you accept, and then it is billed to ${who}.`
          : `${who} would like to start a couples' plan with you, billed to ${who}. Nothing is charged until you accept.`;
    case 'active':
      return `Next delivery ${usDateFromIso(item.next_date ?? '')}`;
    case 'paused':
      return item.paused_until
        ? `Paused until ${usDateFromIso(item.paused_until)}`
        : 'Paused until the payment goes through';
    case 'payment_due':
      return item.role === 'payer'
        ? 'Payment due: update your card and we will charge it right away.'
        : `Payment due: ${who} has been asked to update their card.`;
  }
}

function ItemCard({
  leadsId,
  item,
  data,
}: {
  leadsId: string;
  item: TogetherItem;
  data: TogetherOverview;
}) {
  const waiting = item.status === 'pending' && item.role === 'partner';
  return (
    <article
      aria-label={itemTitle(item)}
      className={`rounded-2xl border p-4 ${waiting ? 'border-accent-200 bg-accent-50/60' : 'border-line'}`}
    >
      <h3 className="font-sans text-base font-semibold text-ink">{itemTitle(item)}</h3>
      <p className="mt-1 text-[0.9375rem] text-ink">{statusText(item)}</p>
      <ul className="mt-2 space-y-0.5 text-sm text-ink-soft">
        {item.lines.map((line) => (
          <li key={`${line.for}-${line.product_id}`}>
            {item.kind === 'plan'
              ? line.for === 'you'
                ? 'For you: '
                : `For ${item.partner_first_name}: `
              : null}
            {line.product_name},{' '}
            {bottlesText({ product_id: line.product_id, frequency: line.frequency }, line.quantity)}{' '}
            {item.kind === 'gift' && item.role === 'partner'
              ? null
              : ` · ${formatCents(line.unit_price_cents * line.quantity)}`}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-ink-soft">
        {item.ships_to
          ? `Ships to ${addressLine(item.ships_to)}`
          : `Ships to ${item.ships_to_name}`}
        {item.role === 'payer'
          ? ` · ${formatCents(item.total_cents)} each delivery, billed to ${item.billed_to ? `your ${item.billed_to}` : 'your card'}`
          : ''}
      </p>
      <ItemActions leadsId={leadsId} item={item} data={data} />
    </article>
  );
}

function ItemActions({
  leadsId,
  item,
  data,
}: {
  leadsId: string;
  item: TogetherItem;
  data: TogetherOverview;
}) {
  const id = item.together_id;
  const can = (action: TogetherItem['actions'][number]) => item.actions.includes(action);
  const [shipTo, setShipTo] = useState<ShipTo>(item.ship_to ?? 'shipping');
  const [date, setDate] = useState('');
  const [ending, setEnding] = useState(false);
  const accept = useAcceptTogether(leadsId);
  const decline = useDeclineTogether(leadsId);
  const cancel = useCancelTogether(leadsId);
  const change = useChangeTogether(leadsId);
  const address = useChangeShipTo(leadsId);
  const busy =
    accept.isPending ||
    decline.isPending ||
    cancel.isPending ||
    change.isPending ||
    address.isPending;
  const choices = (['shipping', 'billing'] as const).filter((kind) => data.addresses[kind]);

  return (
    <div className="mt-3 space-y-3">
      {(can('accept') && item.kind === 'gift') || can('address') ? (
        choices.length === 0 ? (
          <p className="text-sm text-ink-soft">
            Add an address in{' '}
            <Link className={textLinkClass} to={paths.accounts}>
              Accounts
            </Link>{' '}
            first, so we know where to ship it.
          </p>
        ) : (
          <SelectField
            label="Where it ships"
            value={shipTo}
            wrapperClassName="max-w-md"
            onChange={(event) => setShipTo(event.target.value as ShipTo)}
          >
            {choices.map((kind) => (
              <option key={kind} value={kind}>
                {kind === 'shipping' ? 'Shipping' : 'Billing'}: {data.addresses[kind]!.address}
              </option>
            ))}
          </SelectField>
        )
      ) : null}
      {can('move_date') || can('pause') ? (
        <TextField
          label="Date"
          hint="For moving the next delivery, or pausing until then."
          type="date"
          value={date}
          wrapperClassName="max-w-xs"
          onChange={(event) => setDate(event.target.value)}
        />
      ) : null}
      <div className="flex flex-wrap gap-3">
        {can('accept') ? (
          <ActionButton
            primary
            disabled={busy || (item.kind === 'gift' && choices.length === 0)}
            onClick={() =>
              accept.mutate({
                together_id: id,
                ...(item.kind === 'gift' ? { ship_to: shipTo } : {}),
              })
            }
          >
            {item.kind === 'gift' ? 'Accept the gift' : "Accept the couples' plan"}
          </ActionButton>
        ) : null}
        {can('decline') ? (
          <ActionButton disabled={busy} onClick={() => decline.mutate({ together_id: id })}>
            Decline
          </ActionButton>
        ) : null}
        {can('address') && shipTo !== item.ship_to ? (
          <ActionButton
            disabled={busy}
            onClick={() => address.mutate({ together_id: id, ship_to: shipTo })}
          >
            Ship here from now on
          </ActionButton>
        ) : null}
        {can('skip') ? (
          <ActionButton
            disabled={busy}
            onClick={() => change.mutate({ together_id: id, change: { action: 'skip' } })}
          >
            Skip next delivery
          </ActionButton>
        ) : null}
        {can('move_date') ? (
          <ActionButton
            disabled={busy || !date}
            onClick={() =>
              change.mutate({ together_id: id, change: { action: 'move_date', date } })
            }
          >
            Move next delivery
          </ActionButton>
        ) : null}
        {can('pause') ? (
          <ActionButton
            disabled={busy || !date}
            onClick={() =>
              change.mutate({ together_id: id, change: { action: 'pause', until: date } })
            }
          >
            Pause until the date
          </ActionButton>
        ) : null}
        {can('resume') ? (
          <ActionButton
            disabled={busy}
            onClick={() => change.mutate({ together_id: id, change: { action: 'resume' } })}
          >
            Resume
          </ActionButton>
        ) : null}
        {can('withdraw') ? (
          <ActionButton disabled={busy} onClick={() => cancel.mutate({ together_id: id })}>
            Withdraw
          </ActionButton>
        ) : null}
        {can('cancel') && !ending ? (
          <ActionButton disabled={busy} onClick={() => setEnding(true)}>
            {item.kind === 'gift' ? 'End the gift' : 'End the plan'}
          </ActionButton>
        ) : null}
      </div>
      {ending ? (
        <div
          role="group"
          aria-label="Confirm the ending"
          className="rounded-xl border border-danger/15 bg-danger-soft/60 p-3"
        >
          <p className="text-sm text-ink">
            {item.kind === 'gift'
              ? 'The gift ends now for both of you, and nothing more is charged.'
              : 'The plan ends now for both of you, and nothing more is charged.'}
          </p>
          <div className="mt-2 flex flex-wrap gap-3">
            <ActionButton
              primary
              disabled={busy}
              onClick={() => cancel.mutate({ together_id: id })}
            >
              Yes, end it
            </ActionButton>
            <ActionButton disabled={busy} onClick={() => setEnding(false)}>
              Keep it
            </ActionButton>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function ActionButton({
  primary = false,
  disabled,
  onClick,
  children,
}: {
  primary?: boolean;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={buttonClass(primary ? 'primary' : 'secondary')}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

type PlanFrequency = 'MONTHLY' | 'QUARTERLY';

/**
 * Supplement subscriptions of the catalogue at one frequency: what a gift or plan can be. Each is
 * known by its line's slug, because the same supplement has another product id at the other
 * frequency: a form keeps the supplement chosen when the frequency changes.
 */
function supplementOffers(catalog: Catalog, frequency: PlanFrequency) {
  return catalog.lines
    .filter((line) => line.category === 'supplements')
    .flatMap((line) =>
      line.offers
        .filter((o) => o.frequency === frequency)
        .map((o) => ({ ...o, slug: line.slug, name: line.name })),
    );
}

function BilledTo({ data }: { data: TogetherOverview }) {
  return data.card ? (
    <p className="text-sm text-ink-soft">
      Billed to your {data.card.brand} ending {data.card.last4}, only once it is accepted.
    </p>
  ) : (
    <p className="text-sm text-ink">
      You need a card on file first.{' '}
      <Link to={paths.editPaymentMethod} className={textLinkClass}>
        Add a card in Payment method
      </Link>
      , then come back here.
    </p>
  );
}

function FrequencySelect({
  value,
  onChange,
}: {
  value: PlanFrequency;
  onChange: (v: PlanFrequency) => void;
}) {
  return (
    <SelectField
      label="How often"
      value={value}
      onChange={(event) => onChange(event.target.value as PlanFrequency)}
    >
      <option value="MONTHLY">Every month</option>
      <option value="QUARTERLY">Every 3 months</option>
    </SelectField>
  );
}

type Offer = ReturnType<typeof supplementOffers>[number];

/** A supplement to choose among `offers` (by its slug), each with the price it would cost. */
function OfferSelect({
  label,
  offers,
  value,
  onChange,
  price,
}: {
  label: string;
  offers: Offer[];
  value: Offer | undefined;
  onChange: (slug: string) => void;
  price: (offer: Offer) => number;
}) {
  return (
    <SelectField
      label={label}
      value={value?.slug ?? ''}
      onChange={(event) => onChange(event.target.value)}
    >
      {offers.map((o) => (
        <option key={o.slug} value={o.slug}>
          {o.name}, {formatCents(price(o))}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * A gift or plan form: its title and what it means, the choices, what exactly would be sent (said
 * again as any choice changes), the card it is billed to, and the one button (disabled without a
 * card or while it is sent).
 */
function TogetherForm({
  id,
  title,
  intro,
  columns,
  summary,
  data,
  action,
  ready,
  pending,
  onSubmit,
  children,
}: {
  id: string;
  title: ReactNode;
  intro: ReactNode;
  columns: string;
  summary: ReactNode;
  data: TogetherOverview;
  action: ReactNode;
  ready: boolean;
  pending: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-line p-4">
      <h3 id={id} className="font-sans text-base font-semibold text-ink">
        {title}
      </h3>
      <p className="mt-1 text-sm text-ink-soft">{intro}</p>
      <div className={`mt-3 grid gap-3 ${columns}`}>{children}</div>
      <div aria-live="polite" className="mt-3 text-[0.9375rem] text-ink">
        {summary}
      </div>
      <div className="mt-2">
        <BilledTo data={data} />
      </div>
      <button
        type="button"
        className={`${buttonClass('primary')} mt-3`}
        disabled={!data.card || !ready || pending}
        onClick={onSubmit}
      >
        {action}
      </button>
    </section>
  );
}

interface FormProps {
  leadsId: string;
  name: string;
  data: TogetherOverview;
}

/** The frequency chosen (monthly first) and the supplement subscriptions offered at it. */
function useOffers() {
  const catalog = useCatalog();
  const [frequency, setFrequency] = useState<PlanFrequency>('MONTHLY');
  const offers = catalog.data ? supplementOffers(catalog.data, frequency) : [];
  /** The offer of the supplement chosen (by slug) at the frequency chosen; the first until one is. */
  const offerOf = (slug: string | null) => offers.find((o) => o.slug === slug) ?? offers[0];
  return { frequency, setFrequency, offers, offerOf };
}

/** "Immunity Gummies, 3 bottles every 3 months, $45.00": one line of what would be sent. */
function lineText(offer: Offer, quantity: number, unitCents: number): string {
  return `${offer.name}, ${bottlesText(offer, quantity)}, ${formatCents(unitCents * quantity)}`;
}

function GiveForm({ leadsId, name, data }: FormProps) {
  const { frequency, setFrequency, offers, offerOf } = useOffers();
  const [slug, setSlug] = useState<string | null>(null);
  const [quantity, setQuantity] = useState(1);
  const give = useGiveGift(leadsId);
  const chosen = offerOf(slug);
  return (
    <TogetherForm
      id="give-title"
      title={<>Give {name} a subscription</>}
      intro={
        <>
          {name} chooses where it ships and manages its dates; you keep the billing and can end it.
          You see &quot;Ships to {name}&quot;, not their address, unless they share it.
        </>
      }
      columns="md:grid-cols-[minmax(0,5fr)_minmax(0,3fr)_minmax(0,2fr)]"
      summary={
        chosen ? (
          <p>
            {name} gets {lineText(chosen, quantity, chosen.price_cents)} each delivery.
          </p>
        ) : null
      }
      data={data}
      action={<>Give {name} a subscription</>}
      ready={chosen !== undefined}
      pending={give.isPending}
      onSubmit={() => chosen && give.mutate({ product_id: chosen.product_id, quantity })}
    >
      <OfferSelect
        label="Supplement"
        offers={offers}
        value={chosen}
        onChange={setSlug}
        price={(o) => o.price_cents}
      />
      <FrequencySelect value={frequency} onChange={setFrequency} />
      <SelectField
        label="Quantity"
        value={quantity}
        onChange={(event) => setQuantity(Number(event.target.value))}
      >
        {Array.from({ length: MAX_QUANTITY }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </SelectField>
    </TogetherForm>
  );
}

function PlanForm({ leadsId, name, data }: FormProps) {
  const { frequency, setFrequency, offers, offerOf } = useOffers();
  const [mine, setMine] = useState<string | null>(null);
  const [theirs, setTheirs] = useState<string | null>(null);
  const start = useStartPlan(leadsId);
  const own = offerOf(mine);
  const partner = offerOf(theirs);
  const couplesPrice = (o: Offer) => couplesPriceCents(o.price_cents);
  return (
    <TogetherForm
      id="plan-title"
      title={<>Start a couples&apos; plan</>}
      intro={
        <>
          One supplement each, delivered together to your address on one date, with one charge at
          the couples&apos; price. You keep the dates; either of you can end it.
        </>
      }
      columns="md:grid-cols-2"
      summary={
        own && partner ? (
          <>
            <ul className="space-y-0.5">
              <li>For you: {lineText(own, 1, couplesPrice(own))}</li>
              <li>
                For {name}: {lineText(partner, 1, couplesPrice(partner))}
              </li>
            </ul>
            <p className="mt-1">
              {formatCents(couplesPrice(own) + couplesPrice(partner))} each delivery for both,{' '}
              {frequency === 'MONTHLY' ? 'every month' : 'every 3 months'}.
            </p>
          </>
        ) : null
      }
      data={data}
      action={<>Propose the couples&apos; plan</>}
      ready={own !== undefined && partner !== undefined}
      pending={start.isPending}
      onSubmit={() =>
        own &&
        partner &&
        start.mutate({
          product_id: own.product_id,
          quantity: 1,
          partner_product_id: partner.product_id,
          partner_quantity: 1,
        })
      }
    >
      <OfferSelect
        label="Your supplement"
        offers={offers}
        value={own}
        onChange={setMine}
        price={couplesPrice}
      />
      <OfferSelect
        label={`${name}'s supplement`}
        offers={offers}
        value={partner}
        onChange={setTheirs}
        price={couplesPrice}
      />
      <FrequencySelect value={frequency} onChange={setFrequency} />
    </TogetherForm>
  );
}
