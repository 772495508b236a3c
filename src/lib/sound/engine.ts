/**
 * The sound of the stage, with Web Audio (loaded on the reader's first interaction, so it is no part
 * of the play page's first load): the preset's own files where it has them (a music track or an
 * ambience loop, decoded once and looped without a gap, an effect played once), else synthesised —
 * ambiences are filtered noise shaped by slow oscillators (rain, wind, a fire's rumble and crackle, a
 * crowd's murmur, the sea's swell), effects short envelopes over noise and tones. A loop plays until
 * the next one crossfades in. Three channels (music, ambience, effects) with a gain each feed a
 * master gain; `snapshot` reports the context's state, what loops and the gains as the nodes hold
 * them, which the screen exposes for tests (they cannot listen).
 */
import type { Ambience, SoundEffect } from '../adv';
import type { MixedChannel } from './settings.svelte';

/** Seconds of noise per looped buffer: long enough that the loop is not heard. */
const NOISE_SECONDS = 4;
/** How long one ambience takes to give way to the next. */
const CROSSFADE_S = 1.5;

type NoiseColour = 'white' | 'pink' | 'brown';

export interface SoundSnapshot {
	state: AudioContextState;
	/** What each loop channel plays (a synthesised ambience's name or a file's `id`), once it has started. */
	ambience: string | null;
	music: string | null;
	gains: Record<MixedChannel, number>;
}

/** What a loop channel should play: a synthesised ambience, or a file at `url` (`id` names it in the snapshot). */
export type LoopChoice = { readonly id: string; readonly synth: Ambience } | { readonly id: string; readonly url: string };
type LoopChannel = 'music' | 'ambience';

interface Playing {
	id: string;
	out: GainNode;
	sources: AudioScheduledSourceNode[];
}

export class SoundEngine {
	private readonly ctx = new AudioContext();
	private readonly channels: Record<MixedChannel, GainNode>;
	private readonly noise = new Map<NoiseColour, AudioBuffer>();
	private readonly files = new Map<string, Promise<AudioBuffer | null>>();
	private readonly loops: Record<LoopChannel, Playing | null> = { music: null, ambience: null };
	/** What each loop channel was last asked for: a file that finishes loading after another was asked for is not played. */
	private readonly wanted: Record<LoopChannel, string | null> = { music: null, ambience: null };

	/** `onChange`: the context's state moved (running, suspended by the browser, closed), or a file's loop began. */
	constructor(
		gains: Record<MixedChannel, number>,
		private readonly onChange: () => void = () => undefined
	) {
		this.ctx.addEventListener('statechange', onChange);
		const master = this.ctx.createGain();
		master.connect(this.ctx.destination);
		const channel = (gain: number) => {
			const node = this.ctx.createGain();
			node.gain.value = gain;
			node.connect(master);
			return node;
		};
		this.channels = { music: channel(gains.music), ambience: channel(gains.ambience), effects: channel(gains.effects) };
	}

	/** Called inside the reader's first click or key press, which is what lets a page start audio. */
	async start(): Promise<void> {
		if (this.ctx.state === 'suspended') await this.ctx.resume();
	}

	/** At once (the setter, not a scheduled change): a slider is heard as it moves, and `snapshot` reads what was set. */
	setGain(channel: MixedChannel, gain: number): void {
		const param = this.channels[channel].gain;
		param.cancelScheduledValues(this.ctx.currentTime);
		param.value = gain;
	}

	/** The loop of `channel` crossfades to `choice` (a file once it has loaded); null fades it out. */
	setLoop(channel: LoopChannel, choice: LoopChoice | null): void {
		const id = choice?.id ?? null;
		if (this.wanted[channel] === id) return;
		this.wanted[channel] = id;
		const old = this.loops[channel];
		if (old) {
			const now = this.ctx.currentTime;
			old.out.gain.setTargetAtTime(0, now, CROSSFADE_S / 4);
			for (const s of old.sources) s.stop(now + CROSSFADE_S * 2);
			this.loops[channel] = null;
		}
		if (choice === null) return;
		if ('synth' in choice) {
			this.loops[channel] = this.startLoop(channel, choice.id, (out) => AMBIENCES[choice.synth](this, out));
			return;
		}
		void this.file(choice.url).then((buffer) => {
			if (!buffer || this.wanted[channel] !== choice.id) return;
			this.loops[channel] = this.startLoop(channel, choice.id, (out) => {
				const source = this.ctx.createBufferSource();
				source.buffer = buffer;
				source.loop = true;
				source.connect(out);
				return [source];
			});
			this.onChange();
		});
	}

	play(effect: SoundEffect): void {
		EFFECTS[effect](this, this.ctx.currentTime);
	}

	/** A sound file played once on the effects channel (once it has loaded). */
	playFile(url: string): void {
		void this.file(url).then((buffer) => {
			if (!buffer || this.ctx.state === 'closed') return;
			const source = this.ctx.createBufferSource();
			source.buffer = buffer;
			source.connect(this.channels.effects);
			source.start();
		});
	}

	snapshot(): SoundSnapshot {
		const gain = (c: MixedChannel) => this.channels[c].gain.value;
		return {
			state: this.ctx.state,
			ambience: this.loops.ambience?.id ?? null,
			music: this.loops.music?.id ?? null,
			gains: { music: gain('music'), ambience: gain('ambience'), effects: gain('effects') }
		};
	}

	async close(): Promise<void> {
		await this.ctx.close();
	}

	// The building blocks the ambiences and effects are made of.

	noiseSource(colour: NoiseColour, loop = true): AudioBufferSourceNode {
		const source = this.ctx.createBufferSource();
		source.buffer = this.noiseBuffer(colour);
		source.loop = loop;
		return source;
	}

	filter(type: BiquadFilterType, frequency: number, q = 1): BiquadFilterNode {
		const node = this.ctx.createBiquadFilter();
		node.type = type;
		node.frequency.value = frequency;
		node.Q.value = q;
		return node;
	}

	gainNode(value: number): GainNode {
		const node = this.ctx.createGain();
		node.gain.value = value;
		return node;
	}

	/** A slow sine that moves `param` by ±depth around where it is. */
	lfo(param: AudioParam, hz: number, depth: number): OscillatorNode {
		const osc = this.ctx.createOscillator();
		osc.frequency.value = hz;
		const amount = this.gainNode(depth);
		osc.connect(amount).connect(param);
		return osc;
	}

	oscillator(type: OscillatorType, hz: number): OscillatorNode {
		const osc = this.ctx.createOscillator();
		osc.type = type;
		osc.frequency.value = hz;
		return osc;
	}

	/** A node into the effects channel whose gain rises in `attack` s to `peak` and dies away over `decay` s. */
	envelope(at: number, peak: number, attack: number, decay: number): GainNode {
		const node = this.gainNode(0);
		node.gain.setValueAtTime(0, at);
		node.gain.linearRampToValueAtTime(peak, at + attack);
		node.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
		node.connect(this.channels.effects);
		return node;
	}

	private startLoop(channel: LoopChannel, id: string, wire: (out: GainNode) => AudioScheduledSourceNode[]): Playing {
		const out = this.gainNode(0);
		out.connect(this.channels[channel]);
		const sources = wire(out);
		const now = this.ctx.currentTime;
		for (const s of sources) s.start(now);
		out.gain.setTargetAtTime(1, now, CROSSFADE_S / 4);
		return { id, out, sources };
	}

	/** A sound file decoded once per page (a failed fetch or decode is silence, not an error on screen). */
	private file(url: string): Promise<AudioBuffer | null> {
		let loading = this.files.get(url);
		if (!loading) {
			loading = fetch(url)
				.then((res) => (res.ok ? res.arrayBuffer() : null))
				.then((bytes) => (bytes ? this.ctx.decodeAudioData(bytes) : null))
				.catch((err: unknown) => {
					console.warn(`[kantera] the sound ${url} could not be played`, err);
					return null;
				});
			this.files.set(url, loading);
		}
		return loading;
	}

	private noiseBuffer(colour: NoiseColour): AudioBuffer {
		const cached = this.noise.get(colour);
		if (cached) return cached;
		const length = this.ctx.sampleRate * NOISE_SECONDS;
		const buffer = this.ctx.createBuffer(1, length, this.ctx.sampleRate);
		const data = buffer.getChannelData(0);
		// Pink by Paul Kellet's economy filter, brown by a leaky integral of white: the usual recipes.
		let b0 = 0;
		let b1 = 0;
		let b2 = 0;
		let last = 0;
		for (let i = 0; i < length; i++) {
			const white = Math.random() * 2 - 1;
			if (colour === 'white') data[i] = white;
			else if (colour === 'pink') {
				b0 = 0.99765 * b0 + white * 0.099046;
				b1 = 0.963 * b1 + white * 0.2965164;
				b2 = 0.57 * b2 + white * 1.0526913;
				data[i] = (b0 + b1 + b2 + white * 0.1848) * 0.2;
			} else {
				last = (last + 0.02 * white) / 1.02;
				data[i] = last * 3.5;
			}
		}
		this.noise.set(colour, buffer);
		return buffer;
	}

	/** Short random clicks (a fire's crackle), as a looped buffer. */
	crackleSource(): AudioBufferSourceNode {
		const length = this.ctx.sampleRate * NOISE_SECONDS;
		const buffer = this.ctx.createBuffer(1, length, this.ctx.sampleRate);
		const data = buffer.getChannelData(0);
		const CRACKLES = 40;
		for (let c = 0; c < CRACKLES; c++) {
			const at = Math.floor(Math.random() * (length - 400));
			const size = 0.3 + Math.random() * 0.7;
			for (let i = 0; i < 300; i++) data[at + i] = (Math.random() * 2 - 1) * size * Math.exp(-i / 40);
		}
		const source = this.ctx.createBufferSource();
		source.buffer = buffer;
		source.loop = true;
		return source;
	}
}

/** Each ambience: its sources (started and stopped together), wired into `out`. */
const AMBIENCES: Readonly<Record<Ambience, (e: SoundEngine, out: GainNode) => AudioScheduledSourceNode[]>> = {
	rain: (e, out) => {
		const hiss = e.noiseSource('white');
		hiss.connect(e.filter('highpass', 900)).connect(e.filter('lowpass', 7000)).connect(e.gainNode(0.25)).connect(out);
		const patter = e.noiseSource('pink');
		const level = e.gainNode(0.35);
		patter
			.connect(e.filter('bandpass', 2500, 0.7))
			.connect(level)
			.connect(out);
		return [hiss, patter, e.lfo(level.gain, 0.3, 0.1)];
	},
	wind: (e, out) => {
		const air = e.noiseSource('brown');
		const band = e.filter('bandpass', 450, 0.9);
		air.connect(band).connect(e.gainNode(0.6)).connect(out);
		return [air, e.lfo(band.frequency, 0.11, 250)];
	},
	fire: (e, out) => {
		const rumble = e.noiseSource('brown');
		rumble.connect(e.filter('lowpass', 500)).connect(e.gainNode(0.5)).connect(out);
		const crackle = e.crackleSource();
		crackle.connect(e.filter('highpass', 1500)).connect(e.gainNode(0.35)).connect(out);
		return [rumble, crackle];
	},
	crowd: (e, out) => {
		const murmur = e.noiseSource('pink');
		const level = e.gainNode(0.35);
		murmur
			.connect(e.filter('bandpass', 650, 1.4))
			.connect(level)
			.connect(out);
		const voices = e.noiseSource('pink');
		const band = e.filter('bandpass', 1100, 3);
		voices.connect(band).connect(e.gainNode(0.15)).connect(out);
		return [murmur, voices, e.lfo(level.gain, 2.7, 0.12), e.lfo(band.frequency, 0.9, 300)];
	},
	sea: (e, out) => {
		const surf = e.noiseSource('brown');
		const swell = e.gainNode(0.45);
		const band = e.filter('lowpass', 700);
		surf.connect(band).connect(swell).connect(out);
		return [surf, e.lfo(swell.gain, 0.12, 0.35), e.lfo(band.frequency, 0.12, 350)];
	}
};

const EFFECTS: Readonly<Record<SoundEffect, (e: SoundEngine, at: number) => void>> = {
	thunder: (e, at) => {
		const boom = e.noiseSource('brown', false);
		boom.connect(e.filter('lowpass', 260)).connect(e.envelope(at, 1, 0.04, 2.8));
		boom.start(at);
		boom.stop(at + 3.2);
	},
	door: (e, at) => {
		const thump = e.oscillator('sine', 70);
		thump.frequency.exponentialRampToValueAtTime(40, at + 0.3);
		thump.connect(e.envelope(at, 0.9, 0.005, 0.35));
		const knock = e.noiseSource('white', false);
		knock.connect(e.filter('bandpass', 900, 2)).connect(e.envelope(at, 0.5, 0.002, 0.08));
		thump.start(at);
		thump.stop(at + 0.5);
		knock.start(at);
		knock.stop(at + 0.2);
	},
	bell: (e, at) => {
		for (const [ratio, peak] of [
			[1, 0.4],
			[2.76, 0.2],
			[5.4, 0.1]
		] as const) {
			const tone = e.oscillator('sine', 660 * ratio);
			tone.connect(e.envelope(at, peak, 0.005, 2.2 / ratio));
			tone.start(at);
			tone.stop(at + 2.5);
		}
	},
	footsteps: (e, at) => {
		const STEPS = 4;
		const STRIDE_S = 0.42;
		for (let i = 0; i < STEPS; i++) {
			const step = e.noiseSource('brown', false);
			const t = at + i * STRIDE_S;
			step.connect(e.filter('lowpass', 900)).connect(e.envelope(t, 0.8, 0.005, 0.12));
			step.start(t);
			step.stop(t + 0.2);
		}
	},
	clash: (e, at) => {
		const ring = e.noiseSource('white', false);
		ring.connect(e.filter('bandpass', 3200, 9)).connect(e.envelope(at, 0.9, 0.002, 0.7));
		ring.start(at);
		ring.stop(at + 0.8);
		for (const hz of [1870, 2630]) {
			const tone = e.oscillator('square', hz);
			tone.connect(e.filter('lowpass', 5000)).connect(e.envelope(at, 0.06, 0.002, 0.5));
			tone.start(at);
			tone.stop(at + 0.6);
		}
	}
};
