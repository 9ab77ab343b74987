export * from './accounts';
export * from './jobs';
export * from './ledger';
export * from './pages';
export * from './crawl';
export * from './screenshots';
export * from './extractions';
export * from './search';
