import { useSelector } from '@xstate/react';
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import {
  contrastRatio,
  minimumContrast,
  type SettingsDraft,
  searchEngines,
  signupPolicies,
} from '../../machines/orgSettings';
import { FormError } from '../components/FormError';
import { Loading } from '../components/Loading';
import { Status } from '../components/Status';
import { TextField } from '../components/TextField';
import { languages } from '../i18n/languages';
import { T } from '../i18n/T';
import { useFormat } from '../i18n/useFormat';
import { useT } from '../i18n/useT';
import { CheckboxField } from './fields/CheckboxField';
import { SelectField } from './fields/SelectField';
import { ImageSettingsFields } from './ImageSettingsFields';
import { ListProblem } from './ListProblem';
import { SpeechFields } from './SpeechFields';
import { useAdmin } from './useAdmin';
import { useFocusFirstProblem } from './useFocusFirstProblem';

const engineLabels = { searxng: 'SearXNG', brave: 'Brave Search' };

const policyLabels = {
  open: 'Anyone can sign up',
  invite: 'Invitation only',
  domains: 'Only these email domains',
};

/** Reads a picked file as a data URL, for the settings machine to check and keep. */
function readFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The organization's settings: name, brand colour (contrast-checked), logo, language, money, sign-up. */
export function SettingsScreen() {
  const { settings } = useAdmin();
  const t = useT();
  const format = useFormat();
  const logoId = useId();
  const contrastId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const { draft, problems, loadError } = useSelector(settings, (snapshot) => snapshot.context);
  const state = useSelector(settings, (snapshot) =>
    snapshot.matches({ ready: 'saving' })
      ? 'saving'
      : snapshot.matches({ ready: 'saved' })
        ? 'saved'
        : snapshot.matches('ready')
          ? 'ready'
          : snapshot.matches('failed')
            ? 'failed'
            : 'loading',
  );
  useFocusFirstProblem(formRef, attempt, state === 'saving');

  useEffect(() => {
    settings.send({ type: 'LOAD' });
  }, [settings]);

  const change = (values: Partial<SettingsDraft>) => settings.send({ type: 'CHANGE', values });
  const problemOf = (field: keyof SettingsDraft) =>
    problems.find((problem) => problem.field === field)?.message;
  const formProblem = problems.find((problem) => problem.field === null)?.message ?? null;
  const text = (field: 'name' | 'currency' | 'startingBalance' | 'allowedDomains') => ({
    name: field,
    value: draft[field],
    error: problemOf(field),
    onChange: (event: { target: { value: string } }) => change({ [field]: event.target.value }),
  });

  const pickLogo = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    settings.send({
      type: 'PICK_LOGO',
      file: {
        type: file.type,
        size: file.size,
        dataUrl: file.size <= 200 * 1024 ? await readFile(file) : '',
      },
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    settings.send({ type: 'SAVE' });
    setAttempt((count) => count + 1);
  };

  const heading = (
    <h1 id="admin-settings">
      <T>Settings</T>
    </h1>
  );
  // The page keeps its heading while the settings load or could not be loaded.
  if (state === 'loading' || state === 'failed')
    return (
      <section aria-labelledby="admin-settings">
        {heading}
        {state === 'loading' ? (
          <Loading />
        ) : (
          <ListProblem error={loadError} onRetry={() => settings.send({ type: 'RETRY' })} />
        )}
      </section>
    );

  const ratio = draft.brandColor ? contrastRatio(draft.brandColor, '#ffffff') : null;
  const contrast =
    ratio === null
      ? null
      : `${t('Contrast with white text')}: ${format.number(Math.round(ratio * 10) / 10)}:1 — ${
          ratio >= minimumContrast ? t('easy to read') : t('too low, choose a darker colour')
        }`;

  return (
    <section aria-labelledby="admin-settings">
      {heading}
      <form ref={formRef} className="form admin-form" noValidate onSubmit={submit}>
        <fieldset disabled={state === 'saving'}>
          <legend className="visually-hidden">{t('Settings')}</legend>
          <TextField label="Display name" maxLength={80} {...text('name')} />
          <div className="field-row brand-row">
            <TextField
              label="Brand colour"
              name="brandColor"
              placeholder="#3b3bd6"
              hint="As #rrggbb; empty for Parley's own colour."
              value={draft.brandColor}
              error={problemOf('brandColor')}
              onChange={(event) => change({ brandColor: event.target.value.trim() })}
            />
            <div className="field">
              <label htmlFor={`${contrastId}-picker`}>{t('Pick a colour')}</label>
              <input
                id={`${contrastId}-picker`}
                type="color"
                value={/^#[0-9a-f]{6}$/i.test(draft.brandColor) ? draft.brandColor : '#3b3bd6'}
                onChange={(event) => change({ brandColor: event.target.value })}
              />
            </div>
          </div>
          <p
            id={contrastId}
            className={ratio !== null && ratio < minimumContrast ? 'field-error' : 'field-hint'}
            aria-live="polite"
          >
            {contrast ?? ''}
          </p>
          {/* A sample only of a readable colour: white text on a light one fails the page's own contrast. */}
          {draft.brandColor && ratio !== null && ratio >= minimumContrast && (
            <p>
              <span className="brand-sample" style={{ background: draft.brandColor }}>
                <T>Sample button</T>
              </span>
            </p>
          )}
          <div className="field">
            <label htmlFor={logoId}>{t('Logo')}</label>
            {draft.logo && <img className="logo-preview" src={draft.logo} alt={t('Current logo')} />}
            <input
              id={logoId}
              type="file"
              accept="image/png,image/svg+xml"
              aria-describedby={`${logoId}-hint${problemOf('logo') ? ` ${logoId}-error` : ''}`}
              aria-invalid={problemOf('logo') ? true : undefined}
              onChange={pickLogo}
            />
            <p id={`${logoId}-hint`} className="field-hint">
              <T>PNG or SVG, 100 KB at most.</T>
            </p>
            {problemOf('logo') && (
              <p id={`${logoId}-error`} className="field-error">
                {t(problemOf('logo') ?? '')}
              </p>
            )}
            {draft.logo && (
              <button
                type="button"
                className="button small"
                onClick={() => settings.send({ type: 'REMOVE_LOGO' })}
              >
                <T>Remove logo</T>
              </button>
            )}
          </div>
          <SelectField
            label="Default language"
            value={draft.defaultLanguage}
            onChange={(event) => change({ defaultLanguage: event.target.value })}
            options={languages.map((language) => ({ value: language.code, label: language.name, raw: true }))}
          />
          <TextField
            label="Currency"
            maxLength={3}
            hint="A three-letter code, such as EUR."
            {...text('currency')}
          />
          <TextField
            label="Starting balance"
            inputMode="decimal"
            hint="What a new member's balance starts at."
            {...text('startingBalance')}
          />
          <SelectField
            label="Sign-up"
            value={draft.signup}
            onChange={(event) => change({ signup: event.target.value as SettingsDraft['signup'] })}
            options={signupPolicies.map((policy) => ({ value: policy, label: policyLabels[policy] }))}
          />
          {draft.signup === 'domains' && (
            <TextField
              label="Allowed email domains"
              hint="Separated by commas, such as example.org, example.com."
              {...text('allowedDomains')}
            />
          )}
          <CheckboxField
            label="Public sharing"
            role="switch"
            hint="Members may share conversations with anyone who has the link. Off: public links stop working."
            checked={draft.publicSharing}
            onChange={(event) => change({ publicSharing: event.target.checked })}
          />
          <CheckboxField
            label="API access"
            role="switch"
            hint="Members may create personal API keys and use the bots from OpenAI clients. Off: every key stops working at once."
            checked={draft.apiAccess}
            onChange={(event) => change({ apiAccess: event.target.checked })}
          />
          <CheckboxField
            label="Memory"
            role="switch"
            hint="Members' memories are saved and used. Off: nothing is saved or given, and existing memories are kept."
            checked={draft.memory}
            onChange={(event) => change({ memory: event.target.checked })}
          />
          <CheckboxField
            label="Members' own bots"
            role="switch"
            hint="Members may make bots of their own on the models open to them. Off: no new ones; those made keep answering."
            checked={draft.memberBots}
            onChange={(event) => change({ memberBots: event.target.checked })}
          />
          <ImageSettingsFields draft={draft} problemOf={problemOf} change={change} />
          <SelectField
            label="Web search"
            hint="The search engine that model bots use when they search the web."
            value={draft.search}
            error={problemOf('search')}
            onChange={(event) => change({ search: event.target.value as SettingsDraft['search'] })}
            options={[
              { value: '', label: 'None' },
              ...searchEngines.map((engine) => ({ value: engine, label: engineLabels[engine], raw: true })),
            ]}
          />
          {draft.search === 'searxng' && (
            <TextField
              label="SearXNG address"
              inputMode="url"
              placeholder="https://searx.example.org"
              hint="The instance's JSON format must be on (search.formats in its settings.yml)."
              value={draft.searchUrl}
              error={problemOf('searchUrl')}
              onChange={(event) => change({ searchUrl: event.target.value })}
            />
          )}
          {draft.search === 'brave' && (
            <TextField
              label="Brave Search API key"
              type="password"
              autoComplete="off"
              placeholder={draft.savedSearchKey}
              hint={draft.savedSearchKey ? 'Leave it empty to keep the saved key.' : undefined}
              value={draft.searchKey}
              error={problemOf('searchKey')}
              onChange={(event) => change({ searchKey: event.target.value })}
            />
          )}
          <SpeechFields draft={draft} change={change} problemOf={problemOf} />
        </fieldset>
        <FormError message={formProblem} />
        <div className="actions">
          <button type="submit" className="button primary" disabled={state === 'saving'}>
            <T>Save</T>
          </button>
        </div>
        <Status message={state === 'saved' ? 'Saved' : null} />
      </form>
    </section>
  );
}
