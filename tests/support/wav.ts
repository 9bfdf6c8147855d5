/** A PCM WAV header for `bytes` of data at `rate` samples a second, mono, `bits` per sample. */
function header(bytes: number, rate: number, bits: 8 | 16): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + bytes, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE((rate * bits) / 8, 28);
  head.writeUInt16LE(bits / 8, 32);
  head.writeUInt16LE(bits, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(bytes, 40);
  return head;
}

/** `seconds` of silence (8 kHz, 8 bit, mono: 8,000 bytes a second), as a recorder writes it. */
export function silenceWav(seconds: number): Buffer {
  const bytes = Math.round(seconds * 8000);
  return Buffer.concat([header(bytes, 8000, 8), Buffer.alloc(bytes, 0x80)]);
}

/** `seconds` of a 440 Hz tone (16 kHz, 16 bit, mono): what Chromium's fake microphone plays. */
export function toneWav(seconds: number): Buffer {
  const samples = seconds * 16000;
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / 16000)), index * 2);
  return Buffer.concat([header(samples * 2, 16000, 16), data]);
}
