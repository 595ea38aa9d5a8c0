import type { AudioAssetSpec } from '../model/types.ts';
import { Rng, hash32 } from '../model/random.ts';

export const WAV_SAMPLE_RATE = 11_025;
const BYTES_PER_SAMPLE = 2;
const HEADER_BYTES = 44;
/** Longest sound rendered; a spec asking for more is an error in the data. */
export const MAX_AUDIO_SECONDS = 900;

/** Size in bytes of the WAV rendered for this many seconds (useful for `file_size`). */
export function wavByteLength(seconds: number): number {
  return HEADER_BYTES + sampleCount(seconds) * BYTES_PER_SAMPLE;
}

function sampleCount(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_AUDIO_SECONDS) {
    throw new RangeError(`audio length must be 0..${MAX_AUDIO_SECONDS} seconds, got ${seconds}`);
  }
  return Math.round(seconds * WAV_SAMPLE_RATE);
}

/**
 * A mono 16-bit PCM WAV of exactly `seconds`: a gentle melody on a seed-chosen
 * pentatonic scale, each note a soft sine with two quiet harmonics and a
 * plucked envelope, faded in and out at the ends.
 */
export function renderWav(spec: AudioAssetSpec): Buffer {
  const samples = sampleCount(spec.seconds);
  const out = Buffer.alloc(HEADER_BYTES + samples * BYTES_PER_SAMPLE);
  writeHeader(out, samples);

  const rnd = new Rng(hash32(spec.seed, 0xa0d));
  const root = 196 * 2 ** (rnd.int(0, 11) / 12); // G3 .. F#4
  const scale = [0, 2, 4, 7, 9, 12, 14, 16];
  const noteSeconds = rnd.pick([0.25, 0.3, 0.375, 0.5]);
  const noteLength = Math.max(1, Math.round(noteSeconds * WAV_SAMPLE_RATE));
  const ring = noteLength * 2; // each note rings on under the next one
  const fade = Math.min(Math.round(0.05 * WAV_SAMPLE_RATE), Math.floor(samples / 2));
  const mix = new Float32Array(samples);

  let degree = rnd.int(0, 4);
  for (let start = 0; start < samples; start += noteLength) {
    degree = Math.max(0, Math.min(scale.length - 1, degree + rnd.pick([-2, -1, -1, 1, 1, 2, 0])));
    const frequency = root * 2 ** ((scale[degree] ?? 0) / 12);
    const gain = rnd.range(0.16, 0.24);
    const end = Math.min(samples, start + ring);
    for (let i = start; i < end; i++) {
      const t = (i - start) / WAV_SAMPLE_RATE;
      const attack = Math.min(1, t / 0.012);
      const envelope = attack * Math.exp(-t * 4.5);
      const phase = 2 * Math.PI * frequency * t;
      mix[i] = (mix[i] ?? 0) + gain * envelope * (Math.sin(phase) + 0.3 * Math.sin(2 * phase) + 0.1 * Math.sin(3 * phase));
    }
  }

  for (let i = 0; i < samples; i++) {
    const edge = fade > 0 ? Math.min(1, i / fade, (samples - 1 - i) / fade) : 1;
    const value = Math.max(-1, Math.min(1, (mix[i] ?? 0) * edge));
    out.writeInt16LE(Math.round(value * 32767), HEADER_BYTES + i * BYTES_PER_SAMPLE);
  }
  return out;
}

function writeHeader(out: Buffer, samples: number): void {
  const dataBytes = samples * BYTES_PER_SAMPLE;
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16); // PCM fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(WAV_SAMPLE_RATE, 24);
  out.writeUInt32LE(WAV_SAMPLE_RATE * BYTES_PER_SAMPLE, 28); // byte rate
  out.writeUInt16LE(BYTES_PER_SAMPLE, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
}
