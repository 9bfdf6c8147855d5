import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { ToolStep, ToolStepStatus } from '../../../machines/messageTree';
import { savedMemoryOf } from '../../../machines/savedMemory';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { SavedMemoryNote } from './SavedMemoryNote';

/** What a step's status reads as. */
const statusLabels: Record<ToolStepStatus, string> = {
  awaiting_approval: 'Waiting for your approval',
  running: 'Running…',
  done: 'Done',
  error: 'Failed',
  denied: 'Denied',
};
/** A result longer than this shows its start, and "Show all". */
export const resultPreviewLength = 400;

/** Allow and Deny of the calls that wait for the user, while the reply waits for them. */
export interface ToolApproval {
  /** `deciding`: an answer is on its way; `failed`: it did not arrive (`error` says why), Allow or Deny try again. */
  state: 'choosing' | 'deciding' | 'failed';
  error: string | null;
  onAllow: (callId: string) => void;
  onDeny: (callId: string) => void;
}

/**
 * The call the user answered last. Its Allow and Deny vanish with the answer: its step, wherever it
 * shows next (the reply being written, then the finished message), takes the focus they had, unless the
 * user has moved it on.
 */
let answered: string | null = null;

/** Arguments as indented JSON; text that is not JSON as the model sent it. */
const formatted = (value: unknown) =>
  typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? '');

/**
 * The tools a reply called, in order: each a disclosure (tool, status, time taken) that opens on its
 * arguments, result and error. A call that waits for the user shows its arguments with Allow and Deny.
 */
export function ToolSteps({ steps, approval }: { steps: ToolStep[]; approval?: ToolApproval | null }) {
  const t = useT();
  return (
    <ul className="tool-steps" aria-label={t('Tool steps')}>
      {steps.map((step) =>
        step.status === 'awaiting_approval' && approval ? (
          <AwaitingStep key={step.callId} step={step} approval={approval} />
        ) : (
          <StepItem key={step.callId} step={step} />
        ),
      )}
    </ul>
  );
}

function StepItem({ step }: { step: ToolStep }) {
  const t = useT();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const [whole, setWhole] = useState(false);
  const details = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  // Before the composer's own (a layout effect too, later in the page): it takes a focus left lost.
  useLayoutEffect(() => {
    const focused = document.activeElement;
    if (answered === step.callId && (!focused || focused === document.body)) toggle.current?.focus();
  }, [step.callId]);
  const ended = step.status === 'done' || step.status === 'error' || step.status === 'denied';
  const result = step.result ?? '';
  const long = result.length > resultPreviewLength;
  // The built-in `remember` tool's memory, with Undo under the step.
  const saved = step.tool === 'remember' && step.status === 'done' ? savedMemoryOf(result) : null;
  return (
    <li className={`tool-step ${step.status}`}>
      <button
        ref={toggle}
        type="button"
        className="tool-step-toggle"
        aria-expanded={open}
        aria-controls={details}
        onClick={() => setOpen(!open)}
      >
        {/* Spaces between the parts: the button's name reads "fetch_url Done 40 ms". */}
        <code className="tool-name">{step.tool}</code>{' '}
        <span className="tool-step-status">{t(statusLabels[step.status])}</span>
        {ended && (
          <>
            {' '}
            <span className="tool-step-time">{format.duration(step.ms)}</span>
          </>
        )}
      </button>
      {open && (
        <div id={details} className="tool-step-details">
          <h4>
            <T>Arguments</T>
          </h4>
          <pre className="tool-json">{formatted(step.arguments)}</pre>
          {result && (
            <>
              <h4>
                <T>Result</T>
              </h4>
              <pre className="tool-json">
                {long && !whole ? `${result.slice(0, resultPreviewLength)}…` : result}
              </pre>
              {long && (
                <button
                  type="button"
                  className="button ghost small"
                  aria-expanded={whole}
                  onClick={() => setWhole(!whole)}
                >
                  {whole ? t('Show less') : t('Show all')}
                </button>
              )}
            </>
          )}
          {step.error && (
            <p className="tool-step-error">
              <strong>
                <T>Error</T>
              </strong>{' '}
              {step.error}
            </p>
          )}
          {ended && (
            <p className="tool-step-meta">
              <T>Time taken</T> {format.duration(step.ms)}
            </p>
          )}
        </div>
      )}
      {saved && <SavedMemoryNote memory={saved} />}
    </li>
  );
}

/** A call of an "ask first" tool: the tool and its arguments, and the user's Allow or Deny. */
function AwaitingStep({ step, approval }: { step: ToolStep; approval: ToolApproval }) {
  const heading = useId();
  const deciding = approval.state === 'deciding';
  return (
    <li className="tool-step awaiting_approval">
      <section className="tool-approval" aria-labelledby={heading}>
        <h3 id={heading}>
          <T>Allow this tool to run?</T> <code className="tool-name">{step.tool}</code>
        </h3>
        <h4>
          <T>Arguments</T>
        </h4>
        <pre className="tool-json">{formatted(step.arguments)}</pre>
        {approval.state === 'failed' && approval.error && (
          <p className="tool-step-error" role="alert">
            {approval.error}
          </p>
        )}
        <div className="tool-approval-buttons">
          <button
            type="button"
            className="button primary small"
            disabled={deciding}
            onClick={() => {
              answered = step.callId;
              approval.onAllow(step.callId);
            }}
          >
            <T>Allow</T>
          </button>
          <button
            type="button"
            className="button small"
            disabled={deciding}
            onClick={() => {
              answered = step.callId;
              approval.onDeny(step.callId);
            }}
          >
            <T>Deny</T>
          </button>
        </div>
        {deciding && (
          <p className="message-note" role="status">
            <T>Sending your answer…</T>
          </p>
        )}
      </section>
    </li>
  );
}
