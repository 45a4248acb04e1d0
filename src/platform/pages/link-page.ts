import { AppError } from '../../core/errors.ts';
import { html, type Html } from './html.ts';
import { layout } from './layout.ts';
import { pageResponse } from './response.ts';

/*
 * What the pages behind a link token have in common (the manage link, docs/contract/notifications.md, and the
 * waiting-list offer, docs/contract/classes.md §3): the token in the URL is the credential, so the page is never
 * stored or sent on as a referrer; an unknown token is a 404 page that says so in plain words; and a form posted
 * there comes back to the page (303) with what happened or what went wrong.
 */

/** A page behind a link token as a response: never cached, never a referrer. */
export const linkPageResponse = (document: string, status = 200) => pageResponse(document, { status, cache: 'no-store', referrer: 'no-referrer' });

/** The words of the page an unknown link token gets (English: no workspace, so no language, is known). */
export interface LinkNotFoundWords {
  notFoundTitle: string;
  notFoundHeading: string;
  notFoundLead: string;
}

/** 404: the link opens nothing (a mistyped, spent or removed token). */
export function linkNotFound(words: LinkNotFoundWords): Response {
  return linkPageResponse(
    layout({
      title: words.notFoundTitle,
      noindex: true,
      body: html`<main class="wrap narrow"><h1>${words.notFoundHeading}</h1><p class="lead">${words.notFoundLead}</p></main>`,
    }),
    404,
  );
}

/** The head of a link page: the workspace's name over the page's title. */
export const linkPageHead = (workspaceName: string, title: string): Html =>
  html`<header class="booking-head"><p>${workspaceName}</p><h1>${title}</h1></header>`;

/** The page's parts, one a line, as its body. */
export const linkPageBody = (parts: Html[]): Html => html`${parts.map((part, i) => (i === 0 ? part : html`\n${part}`))}`;

/**
 * After a form post on the page at `base`: `work` runs and names where to go next (303 there); a NOT_FOUND is the
 * page's own 404 (`notFound`); any other failure goes back to the page with the error's sentence in `?error=`.
 * `refused` may answer a failure itself first (a page that shows a form again with what was typed).
 */
export async function afterLinkForm(
  base: string,
  work: () => Promise<string>,
  notFound: () => Response | Promise<Response>,
  refused?: (error: AppError) => Response | Promise<Response> | null,
): Promise<Response> {
  try {
    return new Response(null, { status: 303, headers: { location: await work() } });
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return notFound();
    const answered = error instanceof AppError && refused ? await refused(error) : null;
    if (answered) return answered;
    const message = error instanceof AppError ? error.message : 'something went wrong; please try again';
    return new Response(null, { status: 303, headers: { location: `${base}?error=${encodeURIComponent(message)}` } });
  }
}
