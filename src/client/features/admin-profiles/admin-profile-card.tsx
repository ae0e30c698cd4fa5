import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PROFILE_FIELD_LABELS as L } from '../../../shared/profile-fields.ts';
import type { TProfile } from '../../../shared/schemas/profile.ts';
import { paths } from '@/config/paths.ts';
import { ExpiryBadge } from '@/components/profile/expiry-badge.tsx';
import { DuplicateFlag, IdentityStateBadge } from '@/components/profile/identity-state-badge.tsx';
import { ProfileAvatar } from '@/components/profile/profile-avatar.tsx';
import { addressLine, creatorName, Detail } from '@/components/profile/profile-details.tsx';
import { DocumentLink, SignaturePreview } from '@/components/profile/profile-documents.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { formatCalendarDate } from '@/lib/format.ts';

/** One seafarer in the administrators' list: who, their documents and whether any run out soon. */
export function AdminProfileCard({ profile, returnTo }: { profile: TProfile; returnTo: string }) {
  const detailPath = paths.admin.users.profile(profile.userId);
  const headingId = `profile-card-${profile.id}`;
  return (
    <Card className="h-full" aria-labelledby={headingId} role="article">
      <div className="flex items-start gap-4 p-5 pb-0">
        <ProfileAvatar src={profile.profilePicture.url} name={profile.name} size={64} className="ring-2" />
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="text-base leading-snug font-semibold break-words text-navy-900">
            <Link to={detailPath} state={{ returnTo }} className="rounded-sm outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring">
              {profile.name}
            </Link>
          </h2>
          <p className="mt-0.5 text-xs text-muted-foreground">Account: {creatorName(profile)}</p>
          {profile.creator.email && <p className="text-xs wrap-anywhere text-muted-foreground">{profile.creator.email}</p>}
        </div>
      </div>
      <div className="flex flex-wrap gap-1.5 px-5 pt-3">
        <Link
          to={paths.admin.users.identityCheck(profile.userId)}
          state={{ returnTo }}
          className="rounded-full outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="sr-only">Identity check: </span>
          <IdentityStateBadge state={profile.identity.state} />
        </Link>
        {profile.identity.duplicates && <DuplicateFlag duplicates={profile.identity.duplicates} />}
        {profile.documentsExpiring && (
          <>
            <ExpiryBadge status={profile.passportExpiryStatus} document="Passport" />
            <ExpiryBadge status={profile.cdcExpiryStatus} document="CDC" />
          </>
        )}
      </div>

      <dl className="grid flex-1 grid-cols-2 gap-x-4 gap-y-3 p-5">
        <Detail label={L.phone}>{profile.phone}</Detail>
        <Detail label={L.dateOfBirth}>{formatCalendarDate(profile.dateOfBirth)}</Detail>
        <Detail label={L.gradeNumber}>{profile.gradeNumber}</Detail>
        <Detail label={L.indosNo}>{profile.indosNo}</Detail>
        <Detail label="Passport">
          {profile.passportNumber}
          <span className="block text-xs text-muted-foreground">expires {formatCalendarDate(profile.passportExpiryDate)}</span>
        </Detail>
        <Detail label="CDC">
          {profile.cdcNumber}
          <span className="block text-xs text-muted-foreground">expires {formatCalendarDate(profile.cdcExpiryDate)}</span>
        </Detail>
        <Detail label="Address" className="col-span-2">
          {addressLine(profile)}
        </Detail>
      </dl>

      <div className="grid gap-3 border-t border-border p-5">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <DocumentLink file={profile.idDocument} label={`ID document (${profile.idTypeLabel})`} />
          <DocumentLink file={profile.profilePicture} label="Picture" />
        </div>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="grid gap-1">
            <span className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Signature</span>
            <SignaturePreview file={profile.signature} name={profile.name} className="text-sm" />
          </div>
          <Button asChild variant="outline" size="sm">
            <Link to={detailPath} state={{ returnTo }} aria-label={`View profile of ${profile.name}`}>
              View profile
              <ChevronRight aria-hidden />
            </Link>
          </Button>
        </div>
      </div>
    </Card>
  );
}
