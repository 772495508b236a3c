/**
 * Sound files written by hand from the formats' specifications for the upload tests: the structures the
 * checker reads (an Ogg page with a Vorbis or Opus identification header, MP3 frames behind an ID3v2 tag,
 * an MP4 box tree with a sound or video handler). Small and structurally whole; the Ogg Vorbis one is not
 * meant to be decoded, the MP3 frames are silent frames a browser decodes.
 */

const u32be = (n: number) => {
	const b = Buffer.alloc(4);
	b.writeUInt32BE(n >>> 0);
	return b;
};

/** One Ogg page (RFC 3533) holding `packet`; `flags` 0x02 starts the stream. */
export function oggPage(packet: Buffer, flags = 0x02, serial = 1, sequence = 0): Buffer {
	const header = Buffer.alloc(27);
	header.write('OggS', 0, 'latin1');
	header[4] = 0;
	header[5] = flags;
	header.writeUInt32LE(serial, 14);
	header.writeUInt32LE(sequence, 18);
	// Lacing: 255-byte segments then the remainder (a packet of exactly 255·n ends with a 0 segment).
	const lacing: number[] = [];
	let left = packet.byteLength;
	while (left >= 255) {
		lacing.push(255);
		left -= 255;
	}
	lacing.push(left);
	header[26] = lacing.length;
	return Buffer.concat([header, Buffer.from(lacing), packet]);
}

/** Vorbis I identification header (the Vorbis I spec, 4.2.2): 1 channel, 44.1 kHz. */
export function vorbisIdentification(): Buffer {
	const b = Buffer.alloc(30);
	b[0] = 1;
	b.write('vorbis', 1, 'latin1');
	b.writeUInt32LE(0, 7); // version
	b[11] = 1; // channels
	b.writeUInt32LE(44100, 12);
	b.writeInt32LE(0, 16);
	b.writeInt32LE(96000, 20);
	b.writeInt32LE(0, 24);
	b[28] = 0xb8; // blocksizes 256 / 2048
	b[29] = 1; // framing
	return b;
}

/** Opus identification header (RFC 7845, 5.1): 1 channel, 48 kHz. */
export function opusHead(): Buffer {
	const b = Buffer.alloc(19);
	b.write('OpusHead', 0, 'latin1');
	b[8] = 1;
	b[9] = 1;
	b.writeUInt16LE(312, 10);
	b.writeUInt32LE(48000, 12);
	return b;
}

export const oggVorbis = (): Buffer => oggPage(vorbisIdentification());
export const oggOpus = (): Buffer => oggPage(opusHead());

/** An MPEG-1 layer III frame header: 128 kbit/s, 44.1 kHz, mono, no CRC; the frame filled with zeros (silence). */
export function mp3Frame(): Buffer {
	const FRAME_BYTES = 417; // 144 × 128000 / 44100, no padding
	const frame = Buffer.alloc(FRAME_BYTES);
	frame.set([0xff, 0xfb, 0x90, 0xc4]);
	return frame;
}

/** An ID3v2.4 tag of `body` bytes (its size in four syncsafe 7-bit bytes). */
export function id3Tag(body: Buffer): Buffer {
	const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
	const n = body.byteLength;
	header.set([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f], 6);
	return Buffer.concat([header, body]);
}

/** An MP3: an ID3 tag with a title frame, then `frames` silent frames. */
export function mp3File(frames = 4, tagged = true): Buffer {
	const title = Buffer.concat([Buffer.from('TIT2', 'latin1'), Buffer.from([0, 0, 0, 6, 0, 0, 3]), Buffer.from('Storm', 'latin1')]);
	return Buffer.concat([...(tagged ? [id3Tag(title)] : []), ...Array.from({ length: frames }, mp3Frame)]);
}

/** An ISO BMFF box. */
export function box(type: string, ...children: Buffer[]): Buffer {
	const body = Buffer.concat(children);
	return Buffer.concat([u32be(8 + body.byteLength), Buffer.from(type, 'latin1'), body]);
}

/** A handler box (ISO/IEC 14496-12, 8.4.3) of `handler` type ('soun', 'vide'). */
export function hdlr(handler: string): Buffer {
	return box('hdlr', Buffer.alloc(8), Buffer.from(handler, 'latin1'), Buffer.alloc(12), Buffer.from('Sound\0', 'latin1'));
}

/** An M4A's box tree: ftyp (M4A, compatible mp42 isom), moov with one track per handler, an empty mdat. */
export function m4aFile(handlers: readonly string[] = ['soun'], brand = 'M4A '): Buffer {
	const ftyp = box('ftyp', Buffer.from(brand, 'latin1'), u32be(0), Buffer.from('M4A mp42isom', 'latin1'));
	const traks = handlers.map((h) => box('trak', box('tkhd', Buffer.alloc(84)), box('mdia', box('mdhd', Buffer.alloc(24)), hdlr(h))));
	return Buffer.concat([ftyp, box('moov', box('mvhd', Buffer.alloc(100)), ...traks), box('mdat', Buffer.alloc(16))]);
}
