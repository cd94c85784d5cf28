import { startShop } from './server.js';

// PORT=0 picks a free port; the line below prints the one it got.
const shop = await startShop({ port: Number(process.env.PORT ?? 8787) });
process.stdout.write(`Shop on ${shop.url}; ask with POST ${shop.url}/chat/ or ${shop.url}/chat/stream/\n`);
process.once('SIGINT', () => void shop.close());
