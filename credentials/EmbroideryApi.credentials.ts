import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class EmbroideryApi implements ICredentialType {
	name = 'embroideryApi';

	displayName = 'Embroidery API';

	icon = {
		light: 'file:../icons/embroidery.svg',
		dark: 'file:../icons/embroidery.dark.svg',
	} as const;

	documentationUrl = 'https://github.com/n8n-nodes-embroidery/n8n-nodes-embroidery#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'A developer API key from the key-management page of the service. Give it the ' +
				'abilities your workflows need: formats:read, usage:read, jobs:read and jobs:write.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:8787/api/v1',
			required: true,
			placeholder: 'e.g. https://example.com/api/v1',
			description: 'The v1 root of the developer API. A trailing slash is fine.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/formats',
			headers: { Accept: 'application/json' },
			// n8n would copy the key to every redirect hop; the test asks the Base URL itself or fails.
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key is invalid, expired or revoked. Create a new key and paste it here.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key is valid but lacks the formats:read ability. Create a key with the ' +
						'abilities your workflows need (formats:read, usage:read, jobs:read, jobs:write).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'No developer API answers at this Base URL. It should end with /api/v1.',
				},
			},
		],
	};
}
