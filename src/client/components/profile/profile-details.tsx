import { BadgeCheck, CalendarDays, CircleAlert, Contact, FileStack, MapPin, Ship } from 'lucide-react';
import { personName } from '../../../shared/names.ts';
import type { ComponentType, ReactNode } from 'react';
import { PROFILE_FIELD_LABELS as L } from '../../../shared/profile-fields.ts';
import type { TProfile } from '../../../shared/schemas/profile.ts';
import { PROFILE_IMAGE_PX } from '../../../shared/constants.ts';
import { ExpiryBadge } from '@/components/profile/expiry-badge.tsx';
import { ProfileAvatar } from '@/components/profile/profile-avatar.tsx';
import { DocumentLink, SignaturePreview } from '@/components/profile/profile-documents.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { formatCalendarDate, formatDateTime } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';

/** One labelled value in a definition list. */
export function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-1 text-sm break-words text-navy-900">{children}</dd>
    </div>
  );
}

function Section({ icon: Icon, title, children }: { icon: ComponentType<{ className?: string }>; title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center gap-2.5">
        <span className="flex size-8 items-center justify-center rounded-md bg-sea-50 text-sea-700">
          <Icon className="size-4" aria-hidden />
        </span>
        <CardTitle asChild>
          <h2 className="text-base">{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="pt-4">
        <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">{children}</dl>
      </CardContent>
    </Card>
  );
}

export function creatorName(profile: TProfile): string {
  return personName(profile.creator);
}

/** A one-line postal address. */
export function addressLine(profile: TProfile): string {
  return [profile.streetAddress, profile.city, profile.state, profile.zipCode, profile.country].filter(Boolean).join(', ');
}

type ProfileDetailsProps = {
  profile: TProfile;
  /** Buttons beside the name (Edit Profile, Back). */
  actions?: ReactNode;
  /** Show the account's e-mail (administrators receive it). */
  showAccountEmail?: boolean;
};

/**
 * A seafarer's whole profile, read-only: the picture and name, then personal details, seafaring
 * documents with expiry flags, the address and the uploaded documents. The learner's own page and
 * the administrators' detail page show the same thing.
 */
export function ProfileDetails({ profile, actions, showAccountEmail = false }: ProfileDetailsProps) {
  return (
    <div className="grid gap-6">
      <Card className="overflow-hidden">
        <div aria-hidden className="h-24 bg-[linear-gradient(120deg,#0b2545,#115e59)]" />
        <CardContent className="flex flex-col items-center gap-4 pt-0 text-center sm:flex-row sm:items-start sm:gap-6 sm:text-left">
          {/* Only the picture overlaps the banner; the text always starts below it. */}
          <ProfileAvatar src={profile.profilePicture.url} name={profile.name} size={PROFILE_IMAGE_PX} className="-mt-20 sm:-mt-16" />
          <div className="min-w-0 flex-1 sm:pt-5">
            <h1 className="text-2xl font-bold tracking-tight break-words text-navy-900 sm:text-3xl">{profile.name}</h1>
            <p className="mt-1 text-sm text-muted-foreground">
              Grade {profile.gradeNumber} · INDOS {profile.indosNo}
            </p>
            {showAccountEmail && (
              <p className="mt-1 text-sm wrap-anywhere text-muted-foreground">
                Account: {creatorName(profile)}
                {profile.creator.email && <> · {profile.creator.email}</>}
              </p>
            )}
            {profile.documentsExpiring && (
              <div className="mt-3 flex flex-wrap justify-center gap-2 sm:justify-start">
                <ExpiryBadge status={profile.passportExpiryStatus} document="Passport" />
                <ExpiryBadge status={profile.cdcExpiryStatus} document="CDC" />
              </div>
            )}
          </div>
          {actions && <div className="flex flex-wrap justify-center gap-2 sm:pt-5">{actions}</div>}
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section icon={Contact} title="Personal details">
          <Detail label={L.name}>{profile.name}</Detail>
          <Detail label={L.dateOfBirth}>{formatCalendarDate(profile.dateOfBirth)}</Detail>
          <Detail label={L.phone}>{profile.phone}</Detail>
          <Detail label={L.gradeNumber}>{profile.gradeNumber}</Detail>
          <Detail label={L.idType}>{profile.idTypeLabel}</Detail>
        </Section>

        <Section icon={Ship} title="Seafaring documents">
          <Detail label={L.passportNumber}>{profile.passportNumber}</Detail>
          <Detail label={L.passportExpiryDate}>
            <span className="flex flex-wrap items-center gap-2">
              {formatCalendarDate(profile.passportExpiryDate)}
              <ExpiryBadge status={profile.passportExpiryStatus} document="Passport" compact />
            </span>
          </Detail>
          <Detail label={L.cdcNumber}>{profile.cdcNumber}</Detail>
          <Detail label={L.cdcExpiryDate}>
            <span className="flex flex-wrap items-center gap-2">
              {formatCalendarDate(profile.cdcExpiryDate)}
              <ExpiryBadge status={profile.cdcExpiryStatus} document="CDC" compact />
            </span>
          </Detail>
          <Detail label={L.indosNo}>{profile.indosNo}</Detail>
        </Section>

        <Section icon={MapPin} title="Address">
          <Detail label={L.streetAddress} className="sm:col-span-2">
            {profile.streetAddress}
          </Detail>
          <Detail label={L.city}>{profile.city}</Detail>
          <Detail label={L.state}>{profile.state}</Detail>
          <Detail label={L.country}>{profile.country}</Detail>
          <Detail label={L.zipCode}>{profile.zipCode}</Detail>
        </Section>

        <Section icon={FileStack} title="Documents">
          <Detail label={`ID Document (${profile.idTypeLabel})`} className="sm:col-span-2">
            <DocumentLink file={profile.idDocument} label="View ID document" />
          </Detail>
          <Detail label="Profile Picture" className="sm:col-span-2">
            <DocumentLink file={profile.profilePicture} label="View picture" />
          </Detail>
          <Detail label="Signature" className="sm:col-span-2">
            <SignaturePreview file={profile.signature} name={profile.name} />
          </Detail>
        </Section>
      </div>

      <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <CalendarDays className="size-3.5" aria-hidden />
          Created {formatDateTime(profile.createdAt)}
        </span>
        <span>Last updated {formatDateTime(profile.updatedAt)}</span>
        {profile.consentAcceptedAt ? (
          <span className="inline-flex items-center gap-1.5">
            <BadgeCheck className="size-3.5" aria-hidden />
            Document notice accepted {formatDateTime(profile.consentAcceptedAt)}
          </span>
        ) : (
          <span className="inline-flex items-center gap-1.5 text-amber-800">
            <CircleAlert className="size-3.5" aria-hidden />
            No consent to the document notice was captured (created through the API)
          </span>
        )}
      </p>
    </div>
  );
}
