import { updateDisplayOptions } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { outputProperties, shapeOutput, simplifyProperty } from '../../helpers/simplify';
import type { OutputView } from '../../helpers/simplify';
import { UsageResponseSchema, embroideryApiRequest, routes } from '../../transport';
import type { OperationOutput } from '../types';
import { fromVersion3 } from '../job/fields';

/** What Simplify keeps of the account's usage, most used first: what the account can pay, and what is left. */
const keptFields = [
	'creditBalance',
	'conversionCreditCost',
	'digitisingCreditCost',
	'previewRemaining',
	'limited',
	'dailyRemaining',
	'monthlyRemaining',
	'dailyResetsAt',
	'monthlyResetsAt',
	'subscriptionPlanSlug',
];

const fieldNames: Record<string, string> = {
	creditBalance: 'Credit Balance',
	conversionCreditCost: 'Conversion Credit Cost',
	digitisingCreditCost: 'Digitising Credit Cost',
	previewRemaining: 'Free Previews Left',
	limited: 'Limited Free Processing',
	dailyLimit: 'Daily Job Limit',
	dailyUsed: 'Daily Jobs Used',
	dailyRemaining: 'Daily Jobs Left',
	dailyResetsAt: 'Daily Reset At',
	monthlyLimit: 'Monthly Job Limit',
	monthlyUsed: 'Monthly Jobs Used',
	monthlyRemaining: 'Monthly Jobs Left',
	monthlyResetsAt: 'Monthly Reset At',
	subscriptionPlanSlug: 'Subscription Plan',
	subscriptionRenewsAt: 'Subscription Renews At',
};

function pick(usage: IDataObject, fields: string[]): IDataObject {
	return Object.fromEntries(fields.map((field) => [field, usage[field] ?? null]));
}

const usageView: OutputView = {
	simplify: (usage) => pick(usage, keptFields),
	select: (usage, picked) =>
		pick(
			usage,
			Object.keys(fieldNames).filter((field) => picked.includes(field)),
		),
};

const kept =
	'credit balance, the credit cost of unlocking a conversion and a digitising job, free ' +
	'previews left, whether processing is limited, daily and monthly jobs left and when they ' +
	'reset, and the subscription plan';

// Version 3: the answer has 15 fields, so Simplify (and in the AI tool variant, Output) keeps ten.
const properties: INodeProperties[] = [
	simplifyProperty({ show: { ...fromVersion3, '@tool': [false] } }, kept),
	...outputProperties(
		{ show: { ...fromVersion3, '@tool': [true] } },
		{
			simplified: `Ten fields: ${kept}`,
			fields: Object.entries(fieldNames).map(([value, name]) => ({ name, value })),
			selected: 'Only the fields chosen below',
		},
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['getUsage'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const answer = await embroideryApiRequest.call(this, {
		...routes.getUsage(),
		schema: UsageResponseSchema,
		itemIndex,
	});
	const usage = { ...answer.freeUsage } as IDataObject;
	return [
		{
			json:
				this.getNode().typeVersion >= 3 ? shapeOutput(this, itemIndex, usage, usageView) : usage,
		},
	];
}
