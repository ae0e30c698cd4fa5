import { ExternalLink, FileText, ImageIcon } from 'lucide-react';
import { useState } from 'react';
import type { TProfileFile } from '../../../shared/schemas/profile.ts';
import { cn } from '@/lib/utils.ts';

const linkClass =
  'inline-flex items-center gap-1.5 rounded-sm font-medium text-sea-700 underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring';

function kindOf(file: TProfileFile): string {
  if (file.contentType === 'application/pdf') return 'PDF';
  if (file.isImage) return 'image';
  return 'file';
}

/** A link that opens a stored document (a short-lived signed address) in a new tab. */
export function DocumentLink({ file, label, className }: { file: TProfileFile; label: string; className?: string }) {
  const Icon = file.isImage ? ImageIcon : FileText;
  return (
    <a href={file.url} target="_blank" rel="noopener noreferrer" className={cn(linkClass, className)}>
      <Icon className="size-4 shrink-0" aria-hidden />
      {label}
      <span className="text-xs font-normal text-muted-foreground">({kindOf(file)})</span>
      <ExternalLink className="size-3.5 shrink-0" aria-hidden />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

/** The signature as an image when it is one (a link opens it full size), otherwise a link to it. */
export function SignaturePreview({ file, name, className }: { file: TProfileFile; name: string; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!file.isImage || failed === file.url) return <DocumentLink file={file} label="View signature" className={className} />;
  return (
    <a
      href={file.url}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(
        'inline-flex rounded-md border border-border bg-white p-2 outline-none hover:border-sea-400 focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      <img
        src={file.url}
        alt={`Signature of ${name}`}
        onError={() => setFailed(file.url)}
        className="h-16 max-w-56 object-contain"
      />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}
