import type { HttpClient } from './http';

/** Voice: a recording to text, and a reply's text to audio, through the organization's provider. */
export function createVoiceEndpoints(http: HttpClient) {
  return {
    /** POST /api/v1/audio/transcriptions (multipart `file`): the text heard. */
    transcribe: async (audio: Blob, signal: AbortSignal) => {
      const body = new FormData();
      body.append('file', audio, 'recording');
      return (await http.upload<{ text: string }>('/api/v1/audio/transcriptions', body, () => {}, signal))
        .text;
    },
    /** POST /api/v1/audio/speech: the audio (MP3, or what the provider sends). */
    speech: (text: string, voice: string | null, signal: AbortSignal) =>
      http.postForBlob('/api/v1/audio/speech', voice ? { text, voice } : { text }, signal),
  };
}
