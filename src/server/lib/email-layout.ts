import { site } from '#shared/site.ts';

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** One row of an itemised receipt: what, a detail under it, and the amount. */
export interface ReceiptLine {
  label: string;
  detail?: string;
  amount: string;
  /** The total: set apart and bold. */
  total?: boolean;
}

/** The receipt as a table (a layout table, as mail clients need), escaped here. */
function receiptHtml(lines: ReceiptLine[]): string {
  const rows = lines.map((line) => {
    const top = line.total ? 'border-top:1px solid #d5e1ea;font-weight:700;' : '';
    const detail = line.detail
      ? `<br><span style="color:#56697a;font-size:14px">${escapeHtml(line.detail)}</span>`
      : '';
    return `<tr><td style="${top}padding:8px 0;vertical-align:top">${escapeHtml(line.label)}${detail}</td><td style="${top}padding:8px 0 8px 16px;text-align:right;vertical-align:top;white-space:nowrap">${escapeHtml(line.amount)}</td></tr>`;
  });
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px">${rows.join('')}</table>`;
}

/** The receipt in the text part: one line per row. */
export function receiptText(lines: ReceiptLine[]): string[] {
  return lines.map(
    (line) => `${line.label}${line.detail ? ` — ${line.detail}` : ''}: ${line.amount}`,
  );
}

/**
 * A plain, accessible email layout in the brand's colours. Paragraphs are text (escaped here),
 * with an itemised receipt after the first and further links under the button when given; emails never carry health
 * information, card data, passwords or session tokens.
 */
export function emailHtml(
  paragraphs: string[],
  button: { href: string; label: string } | null,
  footnote: string,
  extras: {
    /** An itemised receipt, after the first paragraph. */
    receipt?: ReceiptLine[];
    /** Further links, each a plain link below the button. */
    more?: { href: string; label: string }[];
  } = {},
): string {
  const { receipt = [], more = [] } = extras;
  const body = paragraphs
    .map(
      (p, index) =>
        `<p style="margin:0 0 16px">${escapeHtml(p)}</p>${index === 0 && receipt.length > 0 ? receiptHtml(receipt) : ''}`,
    )
    .join('');
  const action = button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(button.href)}" style="background:#176c9b;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(button.label)}</a></p>`
    : '';
  const links = more
    .map(
      (link) =>
        `<p style="margin:0 0 12px"><a href="${escapeHtml(link.href)}" style="color:#176c9b;font-weight:600">${escapeHtml(link.label)}</a></p>`,
    )
    .join('');
  return [
    '<!doctype html><html lang="en"><body style="margin:0;background:#f6fafd;font-family:Arial,Helvetica,sans-serif;color:#0f2533">',
    '<div style="max-width:560px;margin:0 auto;padding:32px 24px">',
    `<p style="font-size:20px;font-weight:700;margin:0 0 24px;color:#176c9b">${escapeHtml(site.name)}</p>`,
    body,
    action,
    links,
    `<p style="margin:24px 0 0;color:#56697a;font-size:14px">${escapeHtml(footnote)}</p>`,
    `<p style="margin:24px 0 0;color:#56697a;font-size:12px">${escapeHtml(`${site.title} · ${site.supportEmail} · ${site.supportPhone}`)}</p>`,
    '</div></body></html>',
  ].join('');
}

/** The text version's signature. */
export const emailSignature = [
  `— The ${site.name} team`,
  `${site.supportEmail} · ${site.supportPhone}`,
];
