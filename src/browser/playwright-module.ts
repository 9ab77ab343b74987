/**
 * Playwright, loaded on first use. Loading it adds about 100 MB to a process (measured under
 * tsx), which a worker that only fetches over HTTP, or one that has not rendered yet, need not
 * carry; `require` caches it after the first call. (The service's modules are CommonJS, run by
 * tsx; were they ever ES modules, this would become a dynamic `import()`.)
 */
export function playwright(): typeof import('playwright') {
  return require('playwright') as typeof import('playwright');
}
