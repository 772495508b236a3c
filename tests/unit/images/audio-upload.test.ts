/**
 * Uploaded sound files told from their bytes (files written from the specs: tests/helpers/audio.ts):
 * Ogg Vorbis and Opus, MP3 with and without an ID3 tag, M4A; a picture or a page renamed, a video, a
 * truncated or lying header and an over-size file refused with a message that says which.
 */
import { describe, expect, it } from 'vitest';
import { AUDIO_UPLOAD_LIMITS, AudioUploadError, checkUploadedAudio } from '../../../src/lib/server/images';
import { box, id3Tag, m4aFile, mp3File, mp3Frame, oggOpus, oggPage, oggVorbis } from '../../helpers/audio';
import { pngImage } from '../../helpers/images';

const refused = (bytes: Uint8Array, message: RegExp) => {
	expect(() => checkUploadedAudio(bytes)).toThrow(AudioUploadError);
	expect(() => checkUploadedAudio(bytes)).toThrow(message);
};

describe('checkUploadedAudio', () => {
	it('tells OGG (Vorbis, Opus), MP3 (tagged or not) and M4A from their bytes', () => {
		expect(checkUploadedAudio(oggVorbis())).toBe('audio/ogg');
		expect(checkUploadedAudio(oggOpus())).toBe('audio/ogg');
		expect(checkUploadedAudio(mp3File())).toBe('audio/mpeg');
		expect(checkUploadedAudio(mp3File(2, false))).toBe('audio/mpeg');
		expect(checkUploadedAudio(m4aFile())).toBe('audio/mp4');
		expect(checkUploadedAudio(m4aFile(['soun'], 'mp42'))).toBe('audio/mp4');
	});

	it('refuses a PNG (whatever its name), a web page, an empty file and one over the size limit', () => {
		refused(pngImage(2, 2), /not an OGG, MP3 or M4A/);
		refused(Buffer.from('<!doctype html><audio src=x>', 'latin1'), /not an OGG, MP3 or M4A/);
		refused(new Uint8Array(), /empty/);
		const big = Buffer.concat([mp3File(1), Buffer.alloc(AUDIO_UPLOAD_LIMITS.bytes)]);
		refused(big, /larger than 6 MB/);
		// At the limit it is taken.
		expect(checkUploadedAudio(big.subarray(0, AUDIO_UPLOAD_LIMITS.bytes))).toBe('audio/mpeg');
	});

	it('refuses broken or lying containers: a Theora video in Ogg, an Ogg page past the end, a tag past the end, no frame, a video in MP4', () => {
		refused(oggPage(Buffer.from('\x80theora' + '\0'.repeat(34), 'latin1')), /neither Vorbis nor Opus/);
		refused(oggVorbis().subarray(0, 40), /longer than the file/);
		refused(oggPage(Buffer.from('\x01vorbis', 'latin1'), 0), /does not start a stream/);
		refused(Buffer.concat([id3Tag(Buffer.alloc(4000)).subarray(0, 200)]), /ID3 tag says it is longer/);
		refused(Buffer.concat([id3Tag(Buffer.alloc(10)), Buffer.from('not a frame at all', 'latin1')]), /no MPEG layer III frame/);
		// Layer I (bits 11) is not MP3.
		const layer1 = mp3Frame();
		layer1[1] = 0xff;
		refused(layer1, /not an OGG, MP3 or M4A/);
		refused(m4aFile(['soun', 'vide']), /holds video/);
		refused(m4aFile([]), /no sound track/);
		refused(m4aFile(['soun'], 'qt  ').subarray(0, 24), /invalid ftyp box/);
		const lying = m4aFile();
		lying.writeUInt32BE(0x7fffffff, lying.indexOf('moov', 0, 'latin1') - 4);
		refused(lying, /moov box says it is longer/);
		refused(
			Buffer.concat([box('ftyp', Buffer.from('qt  ', 'latin1'), Buffer.alloc(4), Buffer.from('qt  ', 'latin1'))]),
			/not of an MPEG-4 audio brand/
		);
	});
});
