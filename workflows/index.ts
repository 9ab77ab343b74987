export { crawlWorkflow, frontierChanged } from './crawl';
export { extractWorkflow } from './extract';
export { mapWorkflow } from './map';
export { scrapeWorkflow } from './scrape';
export { screenshotCleanupWorkflow } from './screenshot-cleanup';
export { screenshotWorkflow } from './screenshot';
export { searchWorkflow } from './search';
export { webhookDeliveryWorkflow } from './webhook-delivery';
