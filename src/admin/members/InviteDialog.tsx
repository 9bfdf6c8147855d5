import { useSelector } from '@xstate/react';
import { type FormEvent, type RefObject, useRef, useState } from 'react';
import { type MemberRole, memberRoles } from '../../../machines/members';
import { useActors } from '../../app/ActorsContext';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { T } from '../../i18n/T';
import { SelectField } from '../fields/SelectField';
import { useAdmin } from '../useAdmin';
import { useFocusFirstProblem } from '../useFocusFirstProblem';
import { roleLabels } from './roleLabels';

/** Invites someone by email: they get a one-time code, and signing up with it joins with the role. */
export function InviteDialog({ returnFocus }: { returnFocus: RefObject<HTMLElement | null> }) {
  const { members } = useAdmin();
  const { session } = useActors();
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('member');
  const myRole = useSelector(session, (snapshot) => snapshot.context.user?.role);
  const problems = useSelector(members, (snapshot) => snapshot.context.problems);
  const inviting = useSelector(members, (snapshot) => snapshot.matches({ invite: 'inviting' }));
  useFocusFirstProblem(formRef, attempt, inviting);
  const problemOf = (field: 'email' | 'role') => problems.find((problem) => problem.field === field)?.message;
  const formProblem = problems.find((problem) => problem.field === null)?.message ?? null;
  const cancel = () => members.send({ type: 'CANCEL' });
  const roles = myRole === 'owner' ? memberRoles : memberRoles.filter((item) => item !== 'owner');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    members.send({ type: 'INVITE', email, role });
    setAttempt((count) => count + 1);
  };

  return (
    <Dialog title="Invite someone" role="dialog" onClose={cancel} returnFocus={returnFocus}>
      <form ref={formRef} className="form compact" noValidate onSubmit={submit}>
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          error={problemOf('email')}
          onChange={(event) => setEmail(event.target.value)}
        />
        <SelectField
          label="Role"
          value={role}
          error={problemOf('role')}
          onChange={(event) => setRole(event.target.value as MemberRole)}
          options={roles.map((item) => ({ value: item, label: roleLabels[item] }))}
        />
        <FormError message={formProblem} />
        <DialogActions onCancel={cancel} busy={inviting} submit={<T>Send invitation</T>} />
      </form>
    </Dialog>
  );
}
