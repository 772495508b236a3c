/**
 * A sound file a person uploads (a preset's music, ambience loop or effect), checked before it is
 * stored and served: its format told from its bytes (Ogg Vorbis or Opus, MP3, M4A; never from a name
 * or a Content-Type) and its size bounded. Nothing is decoded: the container's first structures are
 * read, every declared length checked against the bytes that are there, so a picture or a page renamed
 * `.ogg`, a video in an MP4 box or a truncated header is refused with a message saying which.
 */

export const AUDIO_UPLOAD_LIMITS = {
	/** Four minutes of 192 kbit/s MP3, ample for a looped track; the request body limit applies first. */
	bytes: 6 * 1024 * 1024
} as const;

/** The sound formats taken; the store keeps them beside the images (provider.ts's IMAGE_FORMATS). */
export type AudioContentType = 'audio/ogg' | 'audio/mpeg' | 'audio/mp4';

/** An upload refused: the message says why, for the person who sent it. */
export class AudioUploadError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'AudioUploadError';
	}
}

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The uploaded bytes' sound format, or AudioUploadError. */
export function checkUploadedAudio(bytes: Uint8Array): AudioContentType {
	if (bytes.byteLength === 0) throw new AudioUploadError('The sound file is empty.');
	if (bytes.byteLength > AUDIO_UPLOAD_LIMITS.bytes)
		throw new AudioUploadError(`The sound file is larger than ${AUDIO_UPLOAD_LIMITS.bytes / 1024 / 1024} MB.`);
	if (ascii(bytes, 0, 4) === 'OggS') return checkOgg(bytes);
	if (ascii(bytes, 4, 4) === 'ftyp') return checkM4a(bytes);
	if (ascii(bytes, 0, 3) === 'ID3' || isMp3Frame(bytes, 0)) return checkMp3(bytes);
	throw new AudioUploadError('This is not an OGG, MP3 or M4A sound file (told from its contents, not its name).');
}

/**
 * Ogg (RFC 3533): the first page starts a stream (flag 0x02) and its first packet is the codec's
 * identification header — Vorbis (`\x01vorbis`) or Opus (`OpusHead`); a Theora video or anything else is refused.
 */
function checkOgg(bytes: Uint8Array): 'audio/ogg' {
	const PAGE_HEADER = 27;
	if (bytes.byteLength < PAGE_HEADER) throw new AudioUploadError('The OGG file ends inside its first page header.');
	if (bytes[4] !== 0) throw new AudioUploadError('The OGG file has an unknown version.');
	if (((bytes[5] ?? 0) & 0x02) === 0) throw new AudioUploadError('The OGG file does not start a stream.');
	const segments = bytes[26] ?? 0;
	const payload = PAGE_HEADER + segments;
	let length = 0;
	for (let i = 0; i < segments; i++) length += bytes[PAGE_HEADER + i] ?? 0;
	if (segments === 0 || payload + length > bytes.byteLength) throw new AudioUploadError('The OGG page says it is longer than the file.');
	if (ascii(bytes, payload, 7) === '\x01vorbis' || ascii(bytes, payload, 8) === 'OpusHead') return 'audio/ogg';
	throw new AudioUploadError('The OGG file holds neither Vorbis nor Opus sound.');
}

/** MPEG audio frame header: 11 sync bits, a known version, layer III, a real bitrate and sample rate. */
function isMp3Frame(bytes: Uint8Array, at: number): boolean {
	if (at + 4 > bytes.byteLength) return false;
	const b1 = bytes[at + 1] ?? 0;
	const b2 = bytes[at + 2] ?? 0;
	const version = (b1 >> 3) & 0x03;
	const layer = (b1 >> 1) & 0x03;
	const bitrate = b2 >> 4;
	const rate = (b2 >> 2) & 0x03;
	return (
		bytes[at] === 0xff && (b1 & 0xe0) === 0xe0 && version !== 0b01 && layer === 0b01 && bitrate !== 0 && bitrate !== 0x0f && rate !== 0x03
	);
}

/** MP3: an optional ID3v2 tag (its size in syncsafe bytes, checked), then an MPEG layer III frame header. */
function checkMp3(bytes: Uint8Array): 'audio/mpeg' {
	let at = 0;
	if (ascii(bytes, 0, 3) === 'ID3') {
		const ID3_HEADER = 10;
		if (bytes.byteLength < ID3_HEADER) throw new AudioUploadError('The MP3 ends inside its ID3 tag header.');
		const size = bytes.subarray(6, 10);
		if ((bytes[3] ?? 0xff) > 4 || size.some((b) => b >= 0x80)) throw new AudioUploadError('The MP3 has an invalid ID3 tag header.');
		const footer = ((bytes[5] ?? 0) & 0x10) !== 0 ? ID3_HEADER : 0;
		at = ID3_HEADER + footer + size.reduce((n, b) => (n << 7) | b, 0);
		if (at >= bytes.byteLength) throw new AudioUploadError('The MP3 ID3 tag says it is longer than the file.');
	}
	if (!isMp3Frame(bytes, at)) throw new AudioUploadError('The MP3 has no MPEG layer III frame where its sound should start.');
	return 'audio/mpeg';
}

/** Brands an M4A (MPEG-4 audio) file declares itself with, as its major brand or a compatible one. */
const M4A_BRANDS = new Set(['M4A ', 'M4B ', 'mp42', 'mp41', 'isom', 'iso2', 'iso4', 'iso5', 'iso6', 'dash']);
/** Boxes walked at most: a real file has a few dozen; this bounds a hostile file's work. */
const MAX_BOXES = 10_000;

/**
 * M4A (ISO/IEC 14496-12): an `ftyp` box with an MPEG-4 brand, then boxes whose sizes fit the file;
 * its tracks' handlers (`moov/trak/mdia/hdlr`) must include sound and no video.
 */
function checkM4a(bytes: Uint8Array): 'audio/mp4' {
	const dv = view(bytes);
	const ftypSize = dv.getUint32(0);
	if (ftypSize < 16 || ftypSize > bytes.byteLength || ftypSize % 4 !== 0)
		throw new AudioUploadError('The M4A file has an invalid ftyp box.');
	const brands = [ascii(bytes, 8, 4)];
	for (let at = 16; at + 4 <= ftypSize; at += 4) brands.push(ascii(bytes, at, 4));
	if (!brands.some((b) => M4A_BRANDS.has(b))) throw new AudioUploadError('The MP4 file is not of an MPEG-4 audio brand.');
	const handlers: string[] = [];
	walkBoxes(bytes, 0, bytes.byteLength, [], handlers, { count: 0 });
	if (handlers.includes('vide')) throw new AudioUploadError('The MP4 file holds video; upload the sound alone (M4A).');
	if (!handlers.includes('soun')) throw new AudioUploadError('The M4A file has no sound track.');
	return 'audio/mp4';
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia']);

function walkBoxes(
	bytes: Uint8Array,
	start: number,
	end: number,
	path: readonly string[],
	handlers: string[],
	walked: { count: number }
): void {
	const dv = view(bytes);
	for (let at = start; at < end;) {
		if (++walked.count > MAX_BOXES) throw new AudioUploadError('The M4A file has too many boxes.');
		if (at + 8 > end) throw new AudioUploadError('The M4A file ends inside a box header.');
		const type = ascii(bytes, at + 4, 4);
		let size = dv.getUint32(at);
		let header = 8;
		if (size === 1) {
			if (at + 16 > end) throw new AudioUploadError('The M4A file ends inside a box header.');
			size = Number(dv.getBigUint64(at + 8));
			header = 16;
		} else if (size === 0) size = end - at;
		if (size < header || at + size > end) throw new AudioUploadError(`The M4A file's ${type} box says it is longer than the file.`);
		if (CONTAINERS.has(type)) walkBoxes(bytes, at + header, at + size, [...path, type], handlers, walked);
		// A handler box: version and flags (4), pre_defined (4), then the handler type.
		else if (type === 'hdlr' && path.at(-1) === 'mdia' && size >= header + 12) handlers.push(ascii(bytes, at + header + 8, 4));
		at += size;
	}
}
