import type { MenuProfile, ProductProfile } from './page-profiles';

/**
 * The v2 formats an LLM may work on (question and query's `answer`, `product`, `menu`) as read
 * of a crawl's or batch's page when it was stored, with the configured LLM. A read of the page
 * (a status poll, a webhook) shows them as stored, so the model is asked, and paid, once per page.
 */
export interface LlmFormats {
  answer?: string;
  product?: ProductProfile;
  menu?: MenuProfile;
  /** What the document's `warning` says about them (an absent format, a quote replaced). */
  warnings: string[];
  /** Credits charged for the model's work, beyond the page's own. */
  credits: number;
}
