import { X } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';

type UploadProgressProps = {
  /** 0 to 100 (useUpload's `percent`). */
  percent: number;
  /** What is happening, in words ("Uploading your documents… 40%"). */
  label: string;
  /** Offers "Cancel upload" while the files are still being sent. */
  onCancel?: () => void;
};

/** An upload's real progress, with a way to stop it when the caller offers one. */
export function UploadProgress({ percent, label, onCancel }: UploadProgressProps) {
  const labelId = useId();
  const labelClass = 'font-medium text-navy-900';
  return (
    <div className="grid gap-2 rounded-lg border border-sea-100 bg-sea-50/60 p-4" aria-live="polite">
      {onCancel ? (
        <div className="flex items-center justify-between gap-3 text-sm">
          <span id={labelId} className={labelClass}>
            {label}
          </span>
          <Button variant="outline" size="sm" onClick={onCancel} disabled={percent >= 100}>
            <X aria-hidden />
            Cancel upload
          </Button>
        </div>
      ) : (
        <span id={labelId} className={`text-sm ${labelClass}`}>
          {label}
        </span>
      )}
      <Progress value={percent} aria-labelledby={labelId} />
    </div>
  );
}
