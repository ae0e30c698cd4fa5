import { Anchor } from 'lucide-react';
import type { TCourseImage } from '../../../shared/schemas/course.ts';
import { cn } from '@/lib/utils.ts';

type CourseImageProps = {
  image: TCourseImage | null;
  /** Empty when the card's title already says what the picture shows. */
  alt?: string;
  /** The first cards on a page are seen at once; the rest load as they scroll into view. */
  eager?: boolean;
  className?: string;
};

/**
 * A course's picture, 160 px high across the card. Width and height come from the stored file,
 * so the browser reserves the space before the bytes arrive and nothing below it moves.
 */
export function CourseImage({ image, alt = '', eager = false, className }: CourseImageProps) {
  if (!image) {
    return (
      <div
        className={cn(
          'flex h-40 w-full items-center justify-center bg-[linear-gradient(160deg,#0b2545,#115e59)] text-sea-300',
          className,
        )}
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
      >
        <Anchor className="size-10 opacity-80" aria-hidden />
      </div>
    );
  }
  return (
    <img
      src={image.url}
      alt={alt}
      width={image.width ?? 640}
      height={image.height ?? 320}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={cn('h-40 w-full bg-navy-100 object-cover', className)}
    />
  );
}
