import { X } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';

/** The upload's real progress, with a way to stop it while the files are still being sent. */
export function UploadProgress({ percent, onCancel }: { percent: number; onCancel: () => void }) {
  const sent = percent >= 100;
  const label = sent ? 'Files sent. Checking and saving your profile…' : `Uploading your documents… ${percent}%`;
  return (
    <div className="grid gap-2 rounded-lg border border-sea-100 bg-sea-50/60 p-4" aria-live="polite">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span id="profile-upload-label" className="font-medium text-navy-900">
          {label}
        </span>
        <Button variant="outline" size="sm" onClick={onCancel} disabled={sent}>
          <X aria-hidden />
          Cancel upload
        </Button>
      </div>
      <Progress value={percent} aria-labelledby="profile-upload-label" />
    </div>
  );
}
