// n8n's UX guidelines on error wording (ux-guidelines.md, points 38 and 40-44), as the checks the tests share.

/** Words a message or description of ours never uses. */
export const bannedWords = /\b(errors?|problems?|failures?|mistakes?)\b/i;

/** A resource and operation the user follows ("Job > Wait for Completion"): a path, not a parameter name. */
export const operationPath =
	/\b(Job|File|Format|Account) > (Wait for Completion|Get Many|Get Usage|Create|Download|Get|Retry|Unlock)\b/g;

const nextStepVerbs = new RegExp(
	'\\b(check|use|run|create|set|wait|raise|add|pick|map|link|' +
		'choose|try|give|take|remove|connect|point|put|fix|change|name|select)\\b',
	'i',
);

/** Whether a description tells the user what to do next. */
export function namesNextStep(description: string): boolean {
	return description.trim() !== '' && nextStepVerbs.test(description);
}
