// The key page's copy button, served as a file so the Content-Security-Policy needs no inline script.
// The button stays hidden without this script; the key is in a read-only field either way.
document.querySelectorAll('button[data-copy]').forEach((button) => {
	const field = document.getElementById(button.dataset.copy);
	const status = document.getElementById(button.dataset.status);
	button.hidden = false;
	button.addEventListener('click', async () => {
		try {
			await navigator.clipboard.writeText(field.value);
			status.textContent = 'Copied to the clipboard.';
		} catch {
			field.select();
			status.textContent = 'The key is selected: press Ctrl+C (or Cmd+C) to copy it.';
		}
	});
});
