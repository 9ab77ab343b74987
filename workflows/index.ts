export { crawlWorkflow, frontierChanged } from './crawl';
export { extractWorkflow } from './extract';
export { mapWorkflow } from './map';
export { scrapeWorkflow } from './scrape';
export { screenshotWorkflow } from './screenshot';
export { screenshotCleanupWorkflow } from './screenshot-cleanup';
export { webhookDeliveryWorkflow } from './webhook-delivery';
