import { html } from '../../../platform/pages/html.ts';

/** A mail's content, before it is laid out as plain text and as HTML. Every string is plain text. */
export interface MailLayout {
  lang: string;
  subject: string;
  /** `logoUrl`: an https image, shown above the name in the HTML part */
  brand: { name: string; color: string; logoUrl: string | null };
  heading: string;
  greeting: string;
  paragraphs: string[];
  details: [label: string, value: string][];
  actions: { label: string; url: string }[];
  notes: string[];
  footer: string;
}

/** The plain-text part: the same content, readable in any client. */
export function textPart(mail: MailLayout): string {
  const width = Math.max(...mail.details.map(([label]) => label.length));
  return [
    mail.heading,
    '',
    mail.greeting,
    '',
    ...mail.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...mail.details.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`),
    '',
    ...mail.actions.flatMap((action) => [`${action.label}: ${action.url}`, '']),
    ...mail.notes.flatMap((note) => [note, '']),
    '-- ',
    mail.brand.name,
    mail.footer,
    '',
  ].join('\n');
}

/*
 * The HTML part: one centred column of at most 560 px in tables with inline styles, which is what mail
 * clients (Outlook included) render alike. Every value is escaped here, at the point of output, whoever wrote it.
 */
export function htmlPart(mail: MailLayout): string {
  const color = mail.brand.color;
  const rows = mail.details.map(
    ([label, value], index) => html`${index > 0 ? '\n' : ''}<tr>
<td style="padding:6px 12px 6px 0;color:#5b6270;vertical-align:top;white-space:nowrap">${label}</td>
<td style="padding:6px 0;color:#1d2330;font-weight:600;overflow-wrap:anywhere">${value}</td>
</tr>`,
  );
  const buttons = mail.actions.map(
    (action, index) => html`${index > 0 ? '\n' : ''}<tr><td style="padding:${index === 0 ? '8px' : '4px'} 0 4px">
<a href="${action.url}" style="display:inline-block;padding:12px 20px;border-radius:8px;font-weight:600;text-decoration:none;${index === 0 ? `background:${color};color:#ffffff` : `border:1px solid ${color};color:${color}`}">${action.label}</a>
</td></tr>`,
  );
  const lines = (texts: string[]) => texts.map((text, index) => html`${index > 0 ? '\n' : ''}<p style="margin:0 0 12px">${text}</p>`);
  const notes = mail.notes.map((note, index) => html`${index > 0 ? '\n' : ''}<p style="margin:0 0 8px">${note}</p>`);
  return html`<!doctype html>
<html lang="${mail.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${mail.subject}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1d2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:${color};height:6px;line-height:6px;font-size:0">&nbsp;</td></tr>
<tr><td style="padding:24px 24px 8px">
${mail.brand.logoUrl ? html`<img src="${mail.brand.logoUrl}" alt="" height="40" style="display:block;height:40px;width:auto;max-width:200px;margin:0 0 8px;border:0">` : ''}
<p style="margin:0 0 16px;font-size:14px;font-weight:600;color:${color}">${mail.brand.name}</p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1d2330">${mail.heading}</h1>
<p style="margin:0 0 12px">${mail.greeting}</p>
${lines(mail.paragraphs)}
</td></tr>
<tr><td style="padding:0 24px">
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;border-top:1px solid #e5e7eb;border-bottom:1px solid #e5e7eb;margin:8px 0 16px">
${rows}
</table>
</td></tr>
<tr><td style="padding:0 24px 8px">
<table role="presentation" cellpadding="0" cellspacing="0">
${buttons}
</table>
</td></tr>
<tr><td style="padding:8px 24px 24px;font-size:14px;color:#5b6270">
${notes}
</td></tr>
</table>
<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#6b7280;padding:0 12px">${mail.footer}</p>
</td></tr>
</table>
</body>
</html>
`.markup;
}
