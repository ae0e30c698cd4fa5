import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, CheckCircle2, Send } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MESSAGES } from '../../../shared/messages.ts';
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  CONTACT_NAME_MAX_LENGTH,
  ZContactRequest,
  type TContactRequest,
  type TContactRequestInput,
} from '../../../shared/schemas/contact.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useSendContactMessage } from '@/features/contact/api/use-send-contact-message.ts';
import { applyFieldErrors, errorMessage } from '@/lib/api-errors.ts';

const FIELDS = ['name', 'email', 'phone', 'message'] as const;
const EMPTY: TContactRequestInput = { name: '', email: '', phone: '', message: '' };

/** The contact form: delivered to the academy's mailbox by the server (contact.send). */
export function ContactForm() {
  const send = useSendContactMessage();
  const [sentMessage, setSentMessage] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TContactRequestInput, unknown, TContactRequest>({
    resolver: zodResolver(ZContactRequest),
    defaultValues: EMPTY,
  });

  async function onSubmit(values: TContactRequest) {
    setFormError(undefined);
    try {
      const answer = await send.mutateAsync(values);
      setSentMessage(answer.message || MESSAGES.contact.sent);
      reset(EMPTY);
    } catch (error) {
      if (applyFieldErrors(error, setError, FIELDS)) return;
      // Throttled, or anything else the server said; its own words first.
      setFormError(errorMessage(error, { fallback: MESSAGES.contact.failed }));
    }
  }

  if (sentMessage) {
    return (
      <div className="flex flex-col items-start gap-4" role="status">
        <span className="flex size-12 items-center justify-center rounded-full bg-green-50 text-success">
          <CheckCircle2 className="size-6" aria-hidden />
        </span>
        <div>
          <h3 className="text-lg font-semibold text-navy-900">Message sent</h3>
          <p className="mt-1 text-muted-foreground">{sentMessage}</p>
        </div>
        <Button variant="outline" onClick={() => setSentMessage(undefined)}>
          Send another message
        </Button>
      </div>
    );
  }

  const busy = isSubmitting;
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(onSubmit)(event)} className="grid gap-5">
      {formError && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden />
          <AlertTitle>{MESSAGES.contact.failed}</AlertTitle>
          {formError !== MESSAGES.contact.failed && <AlertDescription>{formError}</AlertDescription>}
        </Alert>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="contact-name" label="Your name" error={errors.name?.message}>
          {(control) => (
            <Input {...control} {...register('name')} autoComplete="name" maxLength={CONTACT_NAME_MAX_LENGTH} disabled={busy} />
          )}
        </FormField>
        <FormField id="contact-email" label="E-mail" error={errors.email?.message}>
          {(control) => (
            <Input {...control} {...register('email')} type="email" autoComplete="email" inputMode="email" disabled={busy} />
          )}
        </FormField>
      </div>
      <FormField
        id="contact-phone"
        label={
          <>
            Phone <span className="font-normal text-muted-foreground">(optional)</span>
          </>
        }
        hint="If you would like us to call you back."
        error={errors.phone?.message}
      >
        {(control) => <Input {...control} {...register('phone')} type="tel" autoComplete="tel" disabled={busy} />}
      </FormField>
      <FormField id="contact-message" label="Message" error={errors.message?.message}>
        {(control) => (
          <Textarea
            {...control}
            {...register('message')}
            rows={6}
            maxLength={CONTACT_MESSAGE_MAX_LENGTH}
            disabled={busy}
            placeholder="Which course are you interested in, and how can we help?"
          />
        )}
      </FormField>
      <div>
        <SubmitButton pending={busy} size="lg">
          {!busy && <Send aria-hidden />}
          Send message
        </SubmitButton>
      </div>
    </form>
  );
}
