import { STAFF_ROLE_LABELS, STAFF_ROLES, type TStaffRole } from '../../../shared/staff-roles.ts';
import { cn } from '@/lib/utils.ts';

/** The roles as radio buttons, each with what it may do. */
export function RoleChoice({ name, value, onChange, disabled }: { name: string; value: TStaffRole; onChange: (role: TStaffRole) => void; disabled?: boolean }) {
  return (
    <fieldset className="grid gap-2" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium text-navy-900">Role</legend>
      {STAFF_ROLES.map((role) => (
        <label
          key={role}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
            value === role ? 'border-sea-600 bg-sea-50' : 'border-border hover:bg-navy-50',
          )}
        >
          <input type="radio" name={name} value={role} checked={value === role} onChange={() => onChange(role)} className="mt-0.5 size-4 shrink-0 accent-sea-700" />
          <span>
            <span className="block font-semibold text-navy-900">{STAFF_ROLE_LABELS[role].label}</span>
            <span className="block text-muted-foreground">{STAFF_ROLE_LABELS[role].description}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
