import { ChevronDown, Contact, FileStack, MapPin, Ship } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { Controller, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { ID_TYPES } from '../../../shared/constants.ts';
import { INDOS_EXAMPLE } from '../../../shared/identity.ts';
import { PROFILE_FIELD_LABELS as L, type TProfileTextField } from '../../../shared/profile-fields.ts';
import { PROFILE_FILE_FIELDS, isoToday, type TProfile } from '../../../shared/schemas/profile.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { ProfileFileField } from '@/features/profile/profile-file-field.tsx';
import type { TProfileFormValues } from '@/features/profile/profile-form-schema.ts';
import { cn } from '@/lib/utils.ts';

function FormSection({
  icon: Icon,
  title,
  description,
  children,
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2.5">
          <span className="flex size-8 items-center justify-center rounded-md bg-sea-50 text-sea-700">
            <Icon className="size-4" aria-hidden />
          </span>
          <CardTitle asChild>
            <h2 className="text-base">{title}</h2>
          </CardTitle>
        </div>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-5 pt-5 sm:grid-cols-2">{children}</CardContent>
    </Card>
  );
}

type ProfileFormFieldsProps<TOut extends FieldValues> = {
  form: UseFormReturn<TProfileFormValues, unknown, TOut>;
  /** The stored profile when editing: its files are shown and become optional. */
  current?: TProfile;
  disabled?: boolean;
};

/** The profile's fields (spec sections 2 and 5), grouped as a seafarer thinks of them. */
export function ProfileFormFields<TOut extends FieldValues>({ form, current, disabled }: ProfileFormFieldsProps<TOut>) {
  const {
    register,
    control,
    watch,
    formState: { errors },
  } = form;
  const phone = watch('phone');
  const idType = watch('idType');
  const today = isoToday();

  function text(field: TProfileTextField, options: { type?: string; autoComplete?: string; className?: string; max?: string; upper?: boolean; hint?: string } = {}) {
    return (
      <FormField id={`profile-${field}`} label={L[field]} error={errors[field]?.message} hint={options.hint} className={cn('content-start', options.className)}>
        {(controlProps) => (
          <Input
            {...controlProps}
            type={options.type ?? 'text'}
            autoComplete={options.autoComplete ?? 'off'}
            max={options.max}
            disabled={disabled}
            className={options.upper ? 'uppercase placeholder:normal-case' : undefined}
            {...register(field)}
          />
        )}
      </FormField>
    );
  }

  const showIndiaPrefix = !phone?.trim().startsWith('+');

  return (
    <div className="grid gap-6">
      <FormSection icon={Contact} title="Personal details">
        {text('name', { autoComplete: 'name' })}
        {text('dateOfBirth', { type: 'date', autoComplete: 'bday', max: today })}
        <FormField
          id="profile-phone"
          className="content-start"
          label={L.phone}
          error={errors.phone?.message}
          hint="India by default: type the 10 digits. For another country, start with + and its code."
        >
          {(controlProps) => (
            <div className="relative">
              {showIndiaPrefix && (
                <span
                  aria-hidden
                  className="pointer-events-none absolute inset-y-0 left-0 flex items-center border-r border-input px-3 text-sm font-medium text-navy-700"
                >
                  +91
                </span>
              )}
              <Input
                {...controlProps}
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                placeholder="98765 43210"
                disabled={disabled}
                className={cn(showIndiaPrefix && 'pl-15')}
                {...register('phone')}
              />
            </div>
          )}
        </FormField>
        {text('gradeNumber')}
      </FormSection>

      <FormSection icon={Ship} title="Seafaring documents" description="As printed on your passport and Continuous Discharge Certificate (CDC).">
        {text('passportNumber', { upper: true })}
        {text('passportExpiryDate', { type: 'date' })}
        {text('cdcNumber', { upper: true })}
        {text('cdcExpiryDate', { type: 'date' })}
        {text('indosNo', { upper: true, hint: `Two digits, two letters, four digits, like ${INDOS_EXAMPLE}.` })}
        <FormField id="profile-idType" label={L.idType} error={errors.idType?.message} className="content-start">
          {(controlProps) => (
            // A native select: the phone's own picker on small screens, and no extra code to load.
            <div className="relative">
              <select
                {...controlProps}
                disabled={disabled}
                className={cn(
                  'flex h-10 w-full appearance-none rounded-md border border-input bg-background py-2 pr-9 pl-3 text-sm text-foreground shadow-xs outline-none',
                  'focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive',
                  'disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-60',
                  !idType && 'text-muted-foreground',
                )}
                {...register('idType')}
              >
                <option value="" disabled>
                  Choose an ID type
                </option>
                {ID_TYPES.map((type) => (
                  <option key={type.code} value={type.code} className="text-foreground">
                    {type.label}
                  </option>
                ))}
              </select>
              <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            </div>
          )}
        </FormField>
      </FormSection>

      <FormSection icon={MapPin} title="Address">
        {text('streetAddress', { autoComplete: 'street-address', className: 'sm:col-span-2' })}
        {text('city', { autoComplete: 'address-level2' })}
        {text('state', { autoComplete: 'address-level1' })}
        {text('country', { autoComplete: 'country-name' })}
        {text('zipCode', { autoComplete: 'postal-code' })}
      </FormSection>

      <FormSection
        icon={FileStack}
        title="Documents"
        description={
          current
            ? 'Your current files stay unless you choose new ones.'
            : 'A clear scan or photo of your ID, a recent passport-style picture and your signature.'
        }
      >
        {PROFILE_FILE_FIELDS.map((field) => (
          <Controller
            key={field}
            control={control}
            name={field}
            render={({ field: controller }) => (
              <ProfileFileField
                field={field}
                value={controller.value}
                onChange={controller.onChange}
                error={errors[field]?.message}
                current={current?.[field]}
                disabled={disabled}
              />
            )}
          />
        ))}
      </FormSection>
    </div>
  );
}
