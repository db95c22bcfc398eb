import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { usageShaping } from '../../helpers/simplify';
import { UsageResponseSchema, embroideryApiRequest, routes } from '../../transport';
import type { OperationOption, OperationOutput, OutputShaping, ToolTexts } from '../types';

export const option: OperationOption = {
	name: 'Get Usage',
	description: "Get the account's free previews, credits, costs and daily and monthly allowances",
	action: 'Get account usage',
};

/** Nothing to fill: Simplify (and in the AI tool variant, Output) are all it has. */
export const description: INodeProperties[] = [];

export const routesCalled = ['getUsage'] as const;

const beforeVersion3 =
	'Returns what the account can still spend: credit balance, unlock entitlements, free ' +
	'previews, daily and monthly job allowances, and the credit cost of unlocking a ' +
	'conversion and a digitising job. Free; nothing to fill. Call it before Unlock to check ' +
	'the account can pay.';

export const toolDescription: ToolTexts = {
	1: beforeVersion3,
	2: beforeVersion3,
	3:
		'Returns what the account can still spend: credit balance, the credit cost of unlocking ' +
		'a conversion and a digitising job, free previews left, whether processing is limited, ' +
		'daily and monthly jobs left and when they reset, and the subscription plan. Free; ' +
		'nothing to fill. Call it before Unlock to check the account can pay.',
};

/** Version 3: the answer has 15 fields, so Simplify (and in the AI tool variant, Output) keeps ten. */
export const output: OutputShaping = { shaping: usageShaping, fromVersion: 3 };

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const answer = await embroideryApiRequest.call(this, {
		...routes.getUsage(),
		schema: UsageResponseSchema,
		itemIndex,
	});
	return [{ json: { ...answer.freeUsage } as IDataObject }];
}
