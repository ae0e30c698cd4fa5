import { MailPlus, RotateCw, UserRoundCog } from 'lucide-react';
import { useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TStaffInvitation, TStaffMember } from '../../../shared/schemas/staff.ts';
import { STAFF_ROLE_LABELS, type TStaffRole } from '../../../shared/staff-roles.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useStaffChanges, useStaffList } from '@/features/admin-staff/api/use-staff.ts';
import { RoleChoice } from '@/features/admin-staff/role-choice.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatDay } from '@/lib/format.ts';

type TDialog =
  | { kind: 'invite' }
  | { kind: 'role'; member: TStaffMember }
  | { kind: 'deactivate'; member: TStaffMember }
  | { kind: 'reactivate'; member: TStaffMember }
  | { kind: 'revoke'; invitation: TStaffInvitation }
  | null;

const CARD = 'rounded-xl border border-border bg-card shadow-card';

/** /admin-dashboard/staff: the owner's view of the staff, their roles and the open invitations. */
export function StaffPage() {
  const list = useStaffList();
  const changes = useStaffChanges();
  const [dialog, setDialog] = useState<TDialog>(null);
  const close = () => setDialog(null);

  let body;
  if (list.isError && !list.data) {
    body = <LoadError title={MESSAGES.staff.loadFailed} message={errorMessage(list.error, { fallback: MESSAGES.staff.loadFailed })} onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  } else if (!list.data) {
    body = (
      <div className="grid gap-3" aria-busy="true" aria-label="Loading the staff">
        {[0, 1, 2].map((key) => (
          <Skeleton key={key} className="h-20 rounded-xl" />
        ))}
      </div>
    );
  } else {
    const { members, invitations } = list.data;
    body = (
      <div className="grid gap-10">
        <section aria-labelledby="staff-members">
          <h2 id="staff-members" className="mb-3 text-lg font-semibold text-navy-900">
            Members <span className="font-normal text-muted-foreground">({members.length})</span>
          </h2>
          <ul className="grid grid-cols-[minmax(0,1fr)] gap-3">
            {members.map((member) => (
              <li key={member.id} className={`${CARD} flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between`}>
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-semibold text-navy-900">
                    {member.name || member.email}
                    <Badge variant={member.staffRole === 'owner' ? 'default' : 'outline'}>{STAFF_ROLE_LABELS[member.staffRole].label}</Badge>
                    {member.active ? <Badge variant="success">Active</Badge> : <Badge variant="destructive">Deactivated</Badge>}
                  </p>
                  <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{member.email}</p>
                  <p className="text-xs text-muted-foreground">
                    {member.active ? `Joined ${formatDay(member.joinedAt)}` : `Deactivated ${formatDay(member.deactivatedAt!)}`}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button variant="outline" size="sm" onClick={() => setDialog({ kind: 'role', member })} aria-label={`Change the role of ${member.name || member.email}`}>
                    <UserRoundCog aria-hidden />
                    Change role
                  </Button>
                  {member.active ? (
                    <Button variant="outline" tone="danger" size="sm" onClick={() => setDialog({ kind: 'deactivate', member })} aria-label={`Deactivate ${member.name || member.email}`}>
                      Deactivate
                    </Button>
                  ) : (
                    <Button variant="outline" size="sm" onClick={() => setDialog({ kind: 'reactivate', member })} aria-label={`Reactivate ${member.name || member.email}`}>
                      Reactivate
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="staff-invitations">
          <h2 id="staff-invitations" className="mb-3 text-lg font-semibold text-navy-900">
            Pending invitations <span className="font-normal text-muted-foreground">({invitations.length})</span>
          </h2>
          {invitations.length === 0 ? (
            <ListEmpty message="No invitations are waiting." hint="Invite a member: they get an e-mail with a link that works once, for seven days." icon={MailPlus} shape="table" />
          ) : (
            <ul className="grid grid-cols-[minmax(0,1fr)] gap-3">
              {invitations.map((invitation) => (
                <li key={invitation.id} className={`${CARD} flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between`}>
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 font-semibold text-navy-900">
                      <span className="min-w-0 [overflow-wrap:anywhere]">{invitation.email}</span>
                      <Badge variant="outline">{STAFF_ROLE_LABELS[invitation.staffRole].label}</Badge>
                      {invitation.expired ? <Badge variant="warning">Expired</Badge> : <Badge>Invited</Badge>}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      Sent {formatDay(invitation.sentAt)} · {invitation.expired ? 'expired' : 'expires'} {formatDay(invitation.expiresAt)}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={changes.resend.isPending}
                      onClick={() => changes.resend.mutate({ invitationId: invitation.id })}
                      aria-label={`Re-send the invitation to ${invitation.email}`}
                    >
                      <RotateCw aria-hidden />
                      Re-send
                    </Button>
                    <Button variant="outline" tone="danger" size="sm" onClick={() => setDialog({ kind: 'revoke', invitation })} aria-label={`Revoke the invitation to ${invitation.email}`}>
                      Revoke
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    );
  }

  return (
    <AdminPage
      {...adminPageHeadOf(paths.admin.staff.list)}
      action={
        <Button onClick={() => setDialog({ kind: 'invite' })}>
          <MailPlus aria-hidden />
          Invite a member
        </Button>
      }
    >
      {body}
      <InviteDialog open={dialog?.kind === 'invite'} onClose={close} />
      <RoleDialog member={dialog?.kind === 'role' ? dialog.member : null} onClose={close} />
      <ConfirmDialog
        open={dialog?.kind === 'deactivate'}
        title="Deactivate this member?"
        description={
          dialog?.kind === 'deactivate'
            ? `${dialog.member.name || dialog.member.email} is signed out everywhere at once and cannot sign in until reactivated. Their records and audit entries stay.`
            : ''
        }
        confirmLabel="Deactivate"
        pendingLabel="Deactivating…"
        destructive
        pending={changes.deactivate.isPending}
        onConfirm={() => dialog?.kind === 'deactivate' && changes.deactivate.mutate({ userId: dialog.member.id }, { onSettled: close })}
        onClose={close}
      />
      <ConfirmDialog
        open={dialog?.kind === 'reactivate'}
        title="Reactivate this member?"
        description={dialog?.kind === 'reactivate' ? `${dialog.member.name || dialog.member.email} can sign in again with the role ${STAFF_ROLE_LABELS[dialog.member.staffRole].label}.` : ''}
        confirmLabel="Reactivate"
        pendingLabel="Reactivating…"
        pending={changes.reactivate.isPending}
        onConfirm={() => dialog?.kind === 'reactivate' && changes.reactivate.mutate({ userId: dialog.member.id }, { onSettled: close })}
        onClose={close}
      />
      <ConfirmDialog
        open={dialog?.kind === 'revoke'}
        title="Revoke this invitation?"
        description={dialog?.kind === 'revoke' ? `The link sent to ${dialog.invitation.email} stops working. You can invite the address again later.` : ''}
        confirmLabel="Revoke"
        pendingLabel="Revoking…"
        destructive
        pending={changes.revoke.isPending}
        onConfirm={() => dialog?.kind === 'revoke' && changes.revoke.mutate({ invitationId: dialog.invitation.id }, { onSettled: close })}
        onClose={close}
      />
    </AdminPage>
  );
}

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { invite } = useStaffChanges();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TStaffRole>('registrar');
  const [problem, setProblem] = useState<string>();

  function closeAndReset() {
    setEmail('');
    setRole('registrar');
    setProblem(undefined);
    invite.reset();
    onClose();
  }

  return (
    <FormDialog
      open={open}
      title="Invite a member of staff"
      description="They get an e-mail with a link to set their name and password. The link works once, for seven days."
      submitLabel="Send invitation"
      pendingLabel="Sending…"
      pending={invite.isPending}
      onSubmit={() => {
        setProblem(undefined);
        invite.mutate({ email: email.trim(), staffRole: role }, { onSuccess: closeAndReset, onError: (error) => setProblem(errorMessage(error, { fallback: MESSAGES.common.internal })) });
      }}
      onClose={closeAndReset}
    >
      <div className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="invite-email">E-mail</Label>
          <Input
            id="invite-email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'invite-problem' : undefined}
          />
          {problem && (
            <p id="invite-problem" role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          )}
        </div>
        <RoleChoice name="invite-role" value={role} onChange={setRole} />
      </div>
    </FormDialog>
  );
}

function RoleDialog({ member, onClose }: { member: TStaffMember | null; onClose: () => void }) {
  const { changeRole } = useStaffChanges();
  const [role, setRole] = useState<TStaffRole | null>(null);
  const chosen = role ?? member?.staffRole ?? 'registrar';
  const close = () => {
    setRole(null);
    onClose();
  };
  return (
    <FormDialog
      open={member !== null}
      title="Change role"
      description={member ? `What ${member.name || member.email} may do. The change applies to their very next action.` : ''}
      submitLabel="Change role"
      pendingLabel="Changing…"
      pending={changeRole.isPending}
      onSubmit={() => {
        if (!member || chosen === member.staffRole) return close();
        changeRole.mutate({ userId: member.id, staffRole: chosen }, { onSuccess: close });
      }}
      onClose={close}
    >
      <RoleChoice name="member-role" value={chosen} onChange={setRole} />
    </FormDialog>
  );
}

