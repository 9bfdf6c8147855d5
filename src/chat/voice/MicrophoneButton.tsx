import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { voiceActorsOf } from '../../app/voiceActors';
import { Icon } from '../../components/Icon';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import type { VoiceInputProps } from './VoiceInput';
import './voice.css';

/** 65 → "1:05". */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * Records a voice message: the microphone button, then the time running beside Stop (and Cancel),
 * then "Transcribing…"; the transcript goes to the composer. A refusal (no permission, no microphone,
 * the server's) is said beside it, with Dismiss.
 */
export default function MicrophoneButton({ disabled, onTranscript }: VoiceInputProps) {
  const { services } = useActors();
  const { voiceInput } = voiceActorsOf(useWorkspace(), services.http, services.env.storage);
  const t = useT();
  const state = useSelector(voiceInput, (snapshot) =>
    snapshot.matches({ capturing: 'recording' })
      ? 'recording'
      : snapshot.matches('capturing') || snapshot.matches('transcribing')
        ? 'transcribing'
        : (snapshot.value as 'idle' | 'opening' | 'failed'),
  );
  const { seconds, problem } = useSelector(voiceInput, (snapshot) => snapshot.context);
  const heard = useRef(onTranscript);
  heard.current = onTranscript;
  useEffect(() => {
    const subscription = voiceInput.on('transcribed', (event) => heard.current(event.text, event.send));
    return () => subscription.unsubscribe();
  }, [voiceInput]);
  // Stop takes the focus while recording; the microphone gets it back after.
  const stopButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (state === 'recording') stopButton.current?.focus();
  }, [state]);

  const cancel = (
    <button type="button" className="button small ghost" onClick={() => voiceInput.send({ type: 'CANCEL' })}>
      <T>Cancel</T>
    </button>
  );
  if (state === 'recording')
    return (
      <span className="voice-input">
        <span className="voice-clock" role="timer" aria-live="off">
          <span className="voice-dot" aria-hidden="true" />
          <span className="voice-clock-word">
            <T>Recording</T>
          </span>{' '}
          {clock(seconds)}
        </span>
        <button
          ref={stopButton}
          type="button"
          className="button small"
          onClick={() => voiceInput.send({ type: 'STOP' })}
        >
          <T>Stop</T>
        </button>
        {cancel}
      </span>
    );
  if (state === 'transcribing')
    return (
      <span className="voice-input">
        <span role="status">
          <T>Transcribing…</T>
        </span>
        {cancel}
      </span>
    );
  return (
    <span className="voice-input">
      <button
        type="button"
        className="button attach-label"
        disabled={disabled || state === 'opening'}
        onClick={() => voiceInput.send({ type: 'RECORD' })}
      >
        <Icon name="microphone" />
        <span className="attach-text">
          <T>Voice input</T>
        </span>
      </button>
      {state === 'failed' && problem && (
        <span className="voice-problem" role="alert">
          {t(problem)}{' '}
          <button
            type="button"
            className="button small ghost"
            onClick={() => voiceInput.send({ type: 'DISMISS' })}
          >
            <T>Dismiss</T>
          </button>
        </span>
      )}
    </span>
  );
}
