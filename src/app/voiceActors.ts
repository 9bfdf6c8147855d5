import { createActor, fromCallback, fromPromise } from 'xstate';
import { readAloudMachine } from '../../machines/readAloud';
import { maxRecordingSeconds, voiceInputMachine } from '../../machines/voiceInput';
import type { HttpClient } from '../api/http';
import { createVoiceEndpoints } from '../api/voiceEndpoints';
import type { Workspace } from './createWorkspaceActors';
import { createStoredValues } from './storedValues';
import { readAloudActions, voiceInputActions } from './voiceActions';

/** Why the microphone cannot be used, in words a member can act on. */
function microphoneProblem(error: unknown): Error {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return new Error(
      'Parley may not use the microphone. Allow it in the browser’s site settings, then try again.',
    );
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return new Error('No microphone was found. Connect one, then try again.');
  return new Error('The microphone could not be started.');
}

/** The recording format the browser makes best: Opus in WebM or Ogg, else its own default (Safari: MP4). */
const recordingType = () =>
  ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm'].find((type) =>
    MediaRecorder.isTypeSupported(type),
  );

/**
 * The voice machines with their effects, made on first use (their code is a chunk of its own): the
 * microphone (getUserMedia, MediaRecorder), the server's transcription and speech, the browser's
 * speech synthesis when the organization has no speech model; the member's settings in local storage.
 */
function createVoiceActors(http: HttpClient, storage: Storage, workspace: Workspace) {
  const api = createVoiceEndpoints(http);
  const stored = createStoredValues(storage);
  const voiceInput = createActor(
    voiceInputMachine.provide({
      actors: {
        openMicrophone: fromPromise<unknown>(async () => {
          if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
            throw new Error('This browser cannot record audio.');
          return navigator.mediaDevices.getUserMedia({ audio: true }).catch((error) => {
            throw microphoneProblem(error);
          });
        }),
        record: fromCallback(({ input, sendBack, receive }) => {
          const stream = input.stream as MediaStream;
          const recorder = new MediaRecorder(stream, { mimeType: recordingType() });
          const pieces: Blob[] = [];
          const started = Date.now();
          recorder.ondataavailable = (event) => pieces.push(event.data);
          recorder.onstop = () =>
            sendBack({ type: 'RECORDED', audio: new Blob(pieces, { type: recorder.mimeType }) });
          recorder.start();
          const clock = setInterval(() => {
            const seconds = Math.floor((Date.now() - started) / 1000);
            sendBack({ type: 'TICK', seconds });
            if (seconds >= maxRecordingSeconds && recorder.state === 'recording') recorder.stop();
          }, 1000);
          receive(() => {
            if (recorder.state === 'recording') recorder.stop();
          });
          return () => {
            clearInterval(clock);
            recorder.onstop = null;
            if (recorder.state !== 'inactive') recorder.stop();
            for (const track of stream.getTracks()) track.stop();
          };
        }),
        transcribe: fromPromise(({ input, signal }) => api.transcribe(input.audio as Blob, signal)),
      },
      actions: voiceInputActions(stored),
    }),
    { input: { sendAtOnce: stored.sendVoiceAtOnce.get() ?? false }, inspect: workspace.inspect },
  );
  const readAloud = createActor(
    readAloudMachine.provide({
      actors: {
        fetchSpeech: fromPromise(async ({ input, signal }) =>
          URL.createObjectURL(await api.speech(input.text, input.voice, signal)),
        ),
        playAudio: fromCallback(({ input, sendBack }) => {
          const audio = new Audio(input.audio as string);
          audio.onended = () => sendBack({ type: 'ENDED' });
          audio.onerror = () => sendBack({ type: 'FAILED', message: 'The audio cannot be played.' });
          audio.play().catch(() => sendBack({ type: 'FAILED', message: 'The audio cannot be played.' }));
          return () => {
            audio.onended = null;
            audio.onerror = null;
            audio.pause();
            URL.revokeObjectURL(input.audio as string);
          };
        }),
        speak: fromCallback(({ input, sendBack }) => {
          const synthesis = window.speechSynthesis;
          if (!synthesis) {
            sendBack({ type: 'FAILED', message: 'This browser cannot read aloud.' });
            return;
          }
          const utterance = new SpeechSynthesisUtterance(input.text);
          utterance.lang = document.documentElement.lang || 'en';
          utterance.onend = () => sendBack({ type: 'ENDED' });
          utterance.onerror = (event) => {
            if (event.error !== 'interrupted' && event.error !== 'canceled')
              sendBack({ type: 'FAILED', message: 'This browser has no voice to read aloud with.' });
          };
          synthesis.cancel();
          synthesis.speak(utterance);
          return () => {
            utterance.onend = null;
            utterance.onerror = null;
            synthesis.cancel();
          };
        }),
      },
      actions: readAloudActions(stored),
    }),
    { input: { voice: stored.voice.get() }, inspect: workspace.inspect },
  );
  voiceInput.start();
  readAloud.start();
  return { voiceInput, readAloud };
}

export type VoiceActors = ReturnType<typeof createVoiceActors>;

const created = new WeakMap<Workspace, VoiceActors>();

/** The voice actors of this workspace, made on first use and kept while it lasts. */
export function voiceActorsOf(workspace: Workspace, http: HttpClient, storage: Storage): VoiceActors {
  const actors = created.get(workspace) ?? createVoiceActors(http, storage, workspace);
  created.set(workspace, actors);
  return actors;
}
