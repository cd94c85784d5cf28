import { startShop } from './server.js';

const shop = await startShop({ port: 8787 });
process.stdout.write(`Shop on ${shop.url}, its assistant on ${shop.url}/assistant/console/\n`);
process.once('SIGINT', () => void shop.close());
