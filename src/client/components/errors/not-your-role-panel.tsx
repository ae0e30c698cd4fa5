import { ShieldOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { STAFF_ROLE_LABELS, type TStaffRole } from '../../../shared/staff-roles.ts';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';

/** An admin screen the member's role may not use, opened by its address: says so, and the way back. */
export function NotYourRolePanel({ staffRole }: { staffRole: TStaffRole | null }) {
  const role = staffRole ? STAFF_ROLE_LABELS[staffRole] : null;
  return (
    <div className="rounded-2xl border border-border bg-card shadow-card">
      <div className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-sea-50 text-sea-700 ring-1 ring-sea-100">
          <ShieldOff className="size-8" aria-hidden />
        </span>
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">Not part of your role</h1>
        <p className="mt-3 text-muted-foreground">
          {role ? (
            <>
              You are signed in as <strong className="font-semibold text-navy-900">{role.label}</strong>: {role.description}{' '}
            </>
          ) : null}
          This page is for other members of staff. Ask the academy’s owner if you need it.
        </p>
        <Button asChild size="lg" className="mt-8">
          <Link to={paths.admin.root}>Back to the overview</Link>
        </Button>
      </div>
    </div>
  );
}
