import { childPath } from '../extract/field-path';
import { PageText } from '../extract/llm/evidence';

/**
 * Per field of a model's answer, the pages read that show its value (the same string, or the same
 * number however the page writes it): the `sources` the structured-data path gives from its
 * notes, here checked against the pages rather than taken from the model's word. A value no page
 * shows has no source.
 */
export function answerSources(data: unknown, read: readonly { url: string; markdown: string }[]): Record<string, string[]> {
  const texts = read.map((p) => ({ url: p.url, text: new PageText(p.markdown) }));
  const out: Record<string, string[]> = {};
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (value && typeof value === 'object') for (const [name, v] of Object.entries(value)) walk(v, childPath(path, name));
    else if (path && ((typeof value === 'string' && value.trim()) || typeof value === 'number')) {
      const urls = texts.filter((t) => t.text.shows(value)).map((t) => t.url);
      if (urls.length > 0) out[path] = [...new Set(urls)];
    }
  };
  walk(data, '');
  return out;
}
