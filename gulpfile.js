// Copies what tsc does not emit into dist: node and credential icons, and the nodes' codex JSON.
const { src, dest, parallel } = require('gulp');

function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports.build = parallel(copyIcons, copyCodex);
exports.default = exports.build;
