import { openShop, shopKey, orderItems, runOrders, createWaitDownload } from '../test/load/support/shopOrders';
const t0 = Date.now();
process.on('beforeExit', () => { console.error('beforeExit', Date.now() - t0, process.getActiveResourcesInfo().join(',')); });
(async () => {
	const shop = await openShop();
	const key = await shopKey(shop);
	const r = await runOrders(shop, key, orderItems(10), createWaitDownload(['preview'], false));
	console.error('ran', r.run.items.length);
	await shop.proxy.close();
	console.error('proxy closed');
	await shop.sandbox.close();
	console.error('sandbox closed');
})().catch((e) => { console.error('ERR', e); });
