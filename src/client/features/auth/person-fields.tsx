import type { UseFormReturn } from 'react-hook-form';
import { MOBILE_NUMBER_LENGTH, REGISTRATION_PREFIXES } from '../../../shared/constants.ts';
import type { TRegisterForm } from '../../../shared/schemas/auth.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

/** The registration fields, in the order the spec checks them (Confirm Password last). */
export const PERSON_FIELDS = ['title', 'firstName', 'lastName', 'mobile', 'email', 'password', 'confirmPassword'] as const;

export const EMPTY_PERSON: TRegisterForm = {
  title: 'Mr',
  firstName: '',
  lastName: '',
  mobile: '',
  email: '',
  password: '',
  confirmPassword: '',
};

/** Keeps digits only, at most the mobile number's length (spec section 5: while typing). */
export function normaliseMobile(value: string): string {
  return value.replace(/\D/g, '').slice(0, MOBILE_NUMBER_LENGTH);
}

type PersonFieldsProps<TValues> = {
  form: UseFormReturn<TRegisterForm, unknown, TValues>;
  idPrefix: string;
  disabled?: boolean;
  passwordHint?: string;
};

/**
 * Prefix, names, mobile, e-mail and the two passwords, shared by registration and the first
 * administrator's set-up. The mobile number loses non-digits and the e-mail its capitals as typed.
 */
export function PersonFields<TValues>({ form, idPrefix, disabled = false, passwordHint }: PersonFieldsProps<TValues>) {
  const {
    register,
    formState: { errors, defaultValues },
  } = form;
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <FormField id={id('prefix')} label="Prefix" error={errors.title?.message} className="sm:col-span-2 sm:max-w-40">
        {(controlProps) => (
          // The default as markup too: the page the server renders shows it before the form runs.
          <NativeSelect {...controlProps} defaultValue={defaultValues?.title} disabled={disabled} {...register('title')}>
            {REGISTRATION_PREFIXES.map((prefix) => (
              <option key={prefix} value={prefix}>
                {prefix}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>

      <FormField id={id('first-name')} label="First Name" error={errors.firstName?.message}>
        {(controlProps) => (
          <Input {...controlProps} autoComplete="given-name" disabled={disabled} {...register('firstName')} />
        )}
      </FormField>

      <FormField id={id('last-name')} label="Last Name" error={errors.lastName?.message}>
        {(controlProps) => (
          <Input {...controlProps} autoComplete="family-name" disabled={disabled} {...register('lastName')} />
        )}
      </FormField>

      <FormField id={id('mobile')} label="Mobile Number" error={errors.mobile?.message}>
        {(controlProps) => (
          <Input
            {...controlProps}
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={MOBILE_NUMBER_LENGTH}
            disabled={disabled}
            {...register('mobile', {
              onChange: (event: { target: HTMLInputElement }) => {
                const cleaned = normaliseMobile(event.target.value);
                if (cleaned !== event.target.value) form.setValue('mobile', cleaned);
              },
            })}
          />
        )}
      </FormField>

      <FormField id={id('email')} label="Email" error={errors.email?.message}>
        {(controlProps) => (
          <Input
            {...controlProps}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            disabled={disabled}
            {...register('email', {
              onChange: (event: { target: HTMLInputElement }) => {
                const lower = event.target.value.toLowerCase();
                if (lower !== event.target.value) form.setValue('email', lower);
              },
            })}
          />
        )}
      </FormField>

      <FormField id={id('password')} label="Password" error={errors.password?.message} hint={passwordHint}>
        {(controlProps) => (
          <Input {...controlProps} type="password" autoComplete="new-password" disabled={disabled} {...register('password')} />
        )}
      </FormField>

      <FormField id={id('confirm-password')} label="Confirm Password" error={errors.confirmPassword?.message}>
        {(controlProps) => (
          <Input
            {...controlProps}
            type="password"
            autoComplete="new-password"
            disabled={disabled}
            {...register('confirmPassword')}
          />
        )}
      </FormField>
    </div>
  );
}
