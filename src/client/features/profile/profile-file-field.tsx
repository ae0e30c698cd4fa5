import { FileText, Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { PROFILE_FILES, type TProfileFile, type TProfileFileField } from '../../../shared/schemas/profile.ts';
import { DocumentLink } from '@/components/profile/profile-documents.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import {
  PROFILE_FILE_MAX_BYTES,
  acceptAttribute,
  isImageKind,
  sniffFileKind,
  type TPickedFile,
} from '@/features/profile/profile-form-schema.ts';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

const CURRENT_LINK_LABELS: Record<TProfileFileField, string> = {
  profilePicture: 'View current picture',
  idDocument: 'View current ID document',
  signature: 'View current signature',
};

/** The stored file, while no new one is picked: a thumbnail when it is an image, and a link. */
function CurrentFile({ field, file }: { field: TProfileFileField; file: TProfileFile }) {
  return (
    <div className="flex items-center gap-3 rounded-md border border-dashed border-border p-2">
      {file.isImage ? (
        <img src={file.url} alt="" className="size-14 shrink-0 rounded border border-border bg-white object-contain" />
      ) : (
        <span className="flex size-14 shrink-0 items-center justify-center rounded border border-border bg-white text-sea-700">
          <FileText className="size-6" aria-hidden />
        </span>
      )}
      <div className="grid min-w-0 gap-0.5 text-sm">
        <span className="text-xs text-muted-foreground">Current file, kept unless you choose a new one</span>
        <DocumentLink file={file} label={CURRENT_LINK_LABELS[field]} />
      </div>
    </div>
  );
}

function typesText(field: TProfileFileField): string {
  return PROFILE_FILES[field].extensions.filter((extension) => extension !== 'jpeg').map((extension) => extension.toUpperCase()).join(', ');
}

/** A preview of the picked file: the image itself, or the PDF's name. */
function PickedPreview({ picked, onRemove, disabled }: { picked: TPickedFile; onRemove: () => void; disabled?: boolean }) {
  const url = picked.previewUrl;
  return (
    <div className="flex items-center gap-3 rounded-md border border-border bg-muted/50 p-2">
      {url ? (
        <img src={url} alt={`Preview of ${picked.file.name}`} className="size-14 shrink-0 rounded border border-border bg-white object-contain" />
      ) : (
        <span className="flex size-14 shrink-0 items-center justify-center rounded border border-border bg-white text-sea-700">
          <FileText className="size-6" aria-hidden />
        </span>
      )}
      <div className="min-w-0 flex-1 text-sm">
        <p className="truncate font-medium text-navy-900" title={picked.file.name}>
          {picked.file.name}
        </p>
        <p className="text-xs text-muted-foreground">
          {picked.kind === 'pdf' ? 'PDF document' : picked.kind ? `${picked.kind.toUpperCase()} image` : 'Unrecognised file'} ·{' '}
          {formatSize(picked.file.size)}
        </p>
      </div>
      <Button variant="ghost" size="icon" onClick={onRemove} disabled={disabled} aria-label={`Remove ${picked.file.name}`}>
        <Trash2 aria-hidden />
      </Button>
    </div>
  );
}

type ProfileFileFieldProps = {
  field: TProfileFileField;
  value: TPickedFile | null;
  onChange: (value: TPickedFile | null) => void;
  error?: string;
  /** The stored file, when editing: shown with a link until a new one replaces it. */
  current?: TProfileFile;
  disabled?: boolean;
};

/**
 * A file input with the accepted types, a preview of what was picked (the image, or the PDF's
 * name), and in the edit form a link to the file it would replace.
 */
export function ProfileFileField({ field, value, onChange, error, current, disabled }: ProfileFileFieldProps) {
  const spec = PROFILE_FILES[field];
  const input = useRef<HTMLInputElement>(null);
  const id = `profile-${field}`;
  const limits = `${typesText(field)}, up to ${formatSize(PROFILE_FILE_MAX_BYTES)}.`;
  const hint = limits;

  function replace(next: TPickedFile | null) {
    if (value?.previewUrl) URL.revokeObjectURL(value.previewUrl);
    onChange(next);
  }

  async function pick(file: File | undefined) {
    if (!file) return;
    const kind = await sniffFileKind(file);
    replace({ file, kind, previewUrl: isImageKind(kind) ? URL.createObjectURL(file) : undefined });
  }

  function remove() {
    if (input.current) input.current.value = '';
    replace(null);
  }

  return (
    <FormField id={id} label={spec.label} error={error} hint={hint} className="content-start">
      {(control) => (
        <div className="grid gap-2">
          <Input
            {...control}
            ref={input}
            type="file"
            name={field}
            accept={acceptAttribute(field)}
            disabled={disabled}
            className="h-auto cursor-pointer py-1.5"
            onChange={(event) => void pick(event.target.files?.[0])}
          />
          {value ? (
            <PickedPreview picked={value} onRemove={remove} disabled={disabled} />
          ) : (
            current && <CurrentFile field={field} file={current} />
          )}
        </div>
      )}
    </FormField>
  );
}
