import { useState } from 'react';
import { cn } from '@/lib/utils.ts';

type ProfileAvatarProps = {
  /** The picture's (signed) address; none, or one that fails to load, shows the default avatar. */
  src?: string | null;
  /** Whose picture it is, for the image's text alternative. */
  name: string;
  /** Width and height in pixels. */
  size: number;
  className?: string;
};

/** A round profile picture that falls back to a drawn default avatar when the image cannot load. */
export function ProfileAvatar({ src, name, size, className }: ProfileAvatarProps) {
  // Remember which address failed, so a fresh signed URL gets its own chance to load.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const style = { width: size, height: size };
  const frame = cn('shrink-0 overflow-hidden rounded-full bg-navy-100 ring-4 ring-white shadow-card', className);

  if (!src || failedSrc === src) {
    return (
      <span role="img" aria-label={`${name}: no picture available`} className={cn(frame, 'flex items-end justify-center')} style={style}>
        <svg viewBox="0 0 64 64" aria-hidden className="size-full text-navy-300">
          <circle cx="32" cy="24" r="12" fill="currentColor" />
          <path d="M8 60c2-13 12-20 24-20s22 7 24 20z" fill="currentColor" />
        </svg>
      </span>
    );
  }
  return (
    <img
      src={src}
      alt={`Profile picture of ${name}`}
      width={size}
      height={size}
      onError={() => setFailedSrc(src)}
      className={cn(frame, 'object-cover')}
      style={style}
    />
  );
}
