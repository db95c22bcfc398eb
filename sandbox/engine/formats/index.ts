import { broFormat } from './bro';
import { datFormat } from './dat';
import { dsbFormat } from './dsb';
import { dstFormat } from './dst';
import { dszFormat } from './dsz';
import { emdFormat } from './emd';
import { expFormat } from './exp';
import { exyFormat } from './exy';
import type { FormatModule } from './format';
import { fxyFormat } from './fxy';
import { husFormat } from './hus';
import { inbFormat } from './inb';
import { jefFormat } from './jef';
import { jpxFormat } from './jpx';
import { ksmFormat } from './ksm';
import { newFormat } from './new';
import { pcdFormat } from './pcd';
import { pcmFormat } from './pcm';
import { pcqFormat } from './pcq';
import { pcsFormat } from './pcs';
import { pecFormat } from './pec';
import { pesFormat } from './pes';
import { sewFormat } from './sew';
import { shvFormat } from './shv';
import { stcFormat } from './stc';
import { stxFormat } from './stx';
import { tapFormat } from './tap';
import { tbfFormat } from './tbf';
import { toyota100Format } from './toyota100';
import { toyota10oFormat } from './toyota10o';
import { phbFormat } from './phb';
import { phcFormat } from './phc';
import { u01Format } from './u01';
import { vipFormat } from './vip';
import { vp3Format } from './vp3';
import { xxxFormat } from './xxx';

/**
 * Every known format, in the order detection tries them (most distinctive magic first).
 * Each format module registers itself here with one line.
 */
export const formatModules: FormatModule[] = [
	pesFormat,
	pecFormat,
	phbFormat,
	phcFormat,
	stxFormat,
	stcFormat,
	jefFormat,
	vp3Format,
	husFormat,
	vipFormat,
	shvFormat,
	dstFormat,
	dsbFormat,
	dszFormat,
	tbfFormat,
	tapFormat,
	toyota100Format,
	toyota10oFormat,
	datFormat,
	fxyFormat,
	emdFormat,
	xxxFormat,
	u01Format,
	broFormat,
	sewFormat,
	inbFormat,
	jpxFormat,
	exyFormat,
	newFormat,
	ksmFormat,
	pcsFormat,
	pcdFormat,
	pcqFormat,
	pcmFormat,
	expFormat,
];
