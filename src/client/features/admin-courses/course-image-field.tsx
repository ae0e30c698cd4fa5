import { ImageUp, X } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { COURSE_IMAGE_ACCEPT, type TCourseImage } from '../../../shared/schemas/course.ts';
import { CourseImage } from '@/components/course/course-image.tsx';
import { Button } from '@/components/ui/button.tsx';

type CourseImageFieldProps = {
  value: File | null;
  onChange: (file: File | null) => void;
  onBlur: () => void;
  /** The course's image now (edit); kept unless another is chosen. */
  current: TCourseImage | null;
  error?: string;
  disabled: boolean;
};

const MAX_SIZE_TEXT = '10 MB';

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The course image: a file picker with a preview of the chosen image, or the current one on an edit. */
export function CourseImageField({ value, onChange, onBlur, current, error, disabled }: CourseImageFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const previewUrl = useMemo(() => (value && value.type.startsWith('image/') ? URL.createObjectURL(value) : null), [value]);
  useEffect(() => () => {
    if (previewUrl) URL.revokeObjectURL(previewUrl);
  }, [previewUrl]);

  // The control forgets its file when the form is reset.
  useEffect(() => {
    if (!value && input.current) input.current.value = '';
  }, [value]);

  const hintId = 'course-image-hint';
  const errorId = 'course-image-error';

  return (
    <div className="grid gap-2">
      <label htmlFor="course-image" className="text-sm font-medium text-navy-900">
        Course image{current ? ' (optional: choose one to replace the current image)' : ''}
      </label>
      <div className="grid gap-4 sm:grid-cols-[240px_minmax(0,1fr)] sm:items-start">
        <div className="overflow-hidden rounded-lg border border-border bg-muted">
          {previewUrl ? (
            <img src={previewUrl} alt={`Preview of ${value?.name ?? 'the new image'}`} className="h-40 w-full object-cover" />
          ) : current ? (
            <CourseImage image={current} alt="Current course image" eager />
          ) : (
            <div className="flex h-40 flex-col items-center justify-center gap-2 text-muted-foreground">
              <ImageUp className="size-8" aria-hidden />
              <span className="text-xs">No image chosen</span>
            </div>
          )}
        </div>
        <div className="grid gap-2">
          <input
            ref={input}
            id="course-image"
            type="file"
            accept={COURSE_IMAGE_ACCEPT}
            disabled={disabled}
            onBlur={onBlur}
            onChange={(event) => onChange(event.target.files?.[0] ?? null)}
            aria-invalid={error ? true : undefined}
            aria-describedby={[hintId, error ? errorId : ''].filter(Boolean).join(' ')}
            className="block w-full text-sm text-navy-900 file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-2 file:text-sm file:font-semibold file:text-secondary-foreground hover:file:bg-secondary-hover disabled:opacity-60"
          />
          <p id={hintId} className="text-xs text-muted-foreground">
            PNG, JPEG, GIF or WebP, up to {MAX_SIZE_TEXT}. It is cropped to a 2 : 1 banner for the course cards.
          </p>
          {value && (
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="min-w-0 truncate font-medium text-navy-900">{value.name}</span>
              <span className="text-muted-foreground">{sizeText(value.size)}</span>
              <Button variant="ghost" size="sm" onClick={() => onChange(null)} disabled={disabled}>
                <X aria-hidden />
                {current ? 'Keep the current image' : 'Remove'}
              </Button>
            </div>
          )}
          {error && (
            <p id={errorId} className="text-sm font-medium text-destructive">
              {error}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
