import { site } from '#shared/site.ts';

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * A plain, accessible e-mail layout in the brand's colours. Paragraphs are text (escaped here);
 * e-mails never carry health information, card data, passwords or session tokens.
 */
export function emailHtml(
  paragraphs: string[],
  button: { href: string; label: string } | null,
  footnote: string,
  /** Further links, each a plain link below the button. */
  more: { href: string; label: string }[] = [],
): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
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
