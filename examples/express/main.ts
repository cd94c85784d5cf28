import { startShop } from './server.js';

const shop = await startShop({ port: 8787 });
process.stdout.write(`Shop on ${shop.url}; ask with POST ${shop.url}/chat/ or ${shop.url}/chat/stream/\n`);
process.once('SIGINT', () => void shop.close());
